import APITestOpenAPI
import Testing

/// A path parameter inside a segment (`/files/{name}.json`) takes at least one character: `/files/.json` matches no
/// operation, as OpenAPI's path templating has no empty parameter values.
struct TemplateParameterMatchingTests {
    private let document = """
        openapi: 3.0.3
        paths:
          /files/{name}.json:
            get: {operationId: getJSON, responses: {'200': {description: x}}}
          /files/{name}.{ext}:
            get: {operationId: getFile, responses: {'200': {description: x}}}
          /v{major}/status:
            get: {operationId: status, responses: {'200': {description: x}}}
        """

    /// The operation `GET url` matches and its path parameters, or nil.
    private func matched(_ url: String) throws -> (String, [String: String])? {
        let contract = try inlineContract(document)
        if case .operation(let operation, let parameters) = contract.match(method: "GET", url: url) {
            return (operation.displayName, parameters)
        }
        return nil
    }

    /// Path segments compare by code points: a path spelled with a combining accent is not the document's `é`.
    @Test func literalsCompareByCodePoints() throws {
        let contract = try inlineContract(
            """
            openapi: 3.0.3
            servers: [{url: "/caf\u{E9}"}]
            paths:
              /d\u{E9}j\u{E0}:
                get: {operationId: literal, responses: {'200': {description: x}}}
              /r\u{E9}sum\u{E9}/{name}.pdf:
                get: {operationId: mixed, responses: {'200': {description: x}}}
            """)
        func name(_ url: String) -> String? {
            if case .operation(let operation, _) = contract.match(method: "GET", url: url) {
                return operation.displayName
            }
            return nil
        }
        #expect(name("/caf%C3%A9/d%C3%A9j%C3%A0") == "literal")
        #expect(name("/caf%C3%A9/de%CC%81ja%CC%80") == nil)
        #expect(name("/cafe%CC%81/d%C3%A9j%C3%A0") == nil)
        #expect(name("/caf%C3%A9/r%C3%A9sum%C3%A9/cv.pdf") == "mixed")
        #expect(name("/caf%C3%A9/re%CC%81sume%CC%81/cv.pdf") == nil)
    }

    @Test func aParameterInsideASegmentMatchesAtLeastOneCharacter() throws {
        #expect(try matched("/files/report.json").map(\.0) == "getJSON")
        #expect(try matched("/files/report.json").map(\.1) == ["name": "report"])
        #expect(try matched("/files/a.json").map(\.1) == ["name": "a"])
        #expect(try matched("/files/.json") == nil)
        #expect(try matched("/files/report.") == nil)
        #expect(try matched("/files/.pdf") == nil)
        #expect(try matched("/files/x.pdf").map(\.1) == ["name": "x", "ext": "pdf"])
        #expect(try matched("/v/status") == nil)
        #expect(try matched("/v2/status").map(\.1) == ["major": "2"])
    }
}
