import APITestOpenAPI
import Testing

/// What the runner's exchange check reads in place (the routed path's segments, the header fields through
/// `ContractHeaderFields`, a `Content-Type` that is byte for byte a declared type) gives the verdicts and messages
/// the separate checks give on pairs of header fields and parsed media types.
struct ExchangeCheckPathTests {
    private let yaml = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        servers: [{url: /v1}]
        paths:
          /files/{name}.{ext}:
            get:
              operationId: getFile
              parameters:
                - {name: name, in: path, required: true, schema: {type: string, pattern: '^[a-z]+$'}}
                - {name: ext, in: path, required: true, schema: {type: string, enum: [txt, json]}}
              responses:
                '200':
                  description: a file
                  content:
                    application/json: {schema: {type: object, required: [id]}}
                    text/*: {schema: {type: string}}
          /items/{id}/:
            get:
              operationId: getItem
              parameters:
                - {name: id, in: path, required: true, schema: {type: string, pattern: '^[0-9]+$'}}
                - {name: X-Trace, in: header, required: true, schema: {type: integer}}
              responses:
                '200':
                  description: an item
                  headers: {X-Rate: {required: true, schema: {type: integer}}}
                  content: {application/vnd.item+json: {schema: {type: object, required: [id]}}}
        """

    /// Header fields handed through the protocol, as the runner does.
    private struct Fields: ContractHeaderFields {
        let pairs: [(name: String, value: String)]
        func values(named name: String) -> [String] {
            pairs.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
        func first(named name: String) -> String? { values(named: name).first }
    }

    /// The exchange checked with pairs and with fields read through the protocol, without path parameters read.
    private func check(
        _ url: String, requestHeaders: [(name: String, value: String)] = [], status: Int = 200,
        responseHeaders: [(name: String, value: String)], body: String
    ) throws -> (pairs: ContractExchangeCheck, fields: ContractExchangeCheck) {
        let contract = try inlineContract(yaml)
        let pairs = contract.checkExchange(
            ContractRequest(method: "GET", url: url, headers: requestHeaders),
            ContractResponse(status: status, headers: responseHeaders, body: ContractDataBody(text: body)))
        let fields = contract.checkExchange(
            ContractRequest(method: "GET", url: url, fields: Fields(pairs: requestHeaders)),
            ContractResponse(
                status: status, fields: Fields(pairs: responseHeaders), body: ContractDataBody(text: body)),
            readsPathParameters: false)
        return (pairs, fields)
    }

    @Test func aMixedSegmentsParametersAreCheckedWithoutReadingTheMatchsValues() throws {
        let good = try check("/v1/files/notes.txt", responseHeaders: [("Content-Type", "text/plain")], body: "\"x\"")
        #expect(good.pairs.requestViolations.isEmpty)
        #expect(good.fields.requestViolations.isEmpty)
        guard case .operation(let operation, let values) = good.pairs.match,
            case .operation(operation, let none) = good.fields.match
        else {
            Issue.record("no operation: \(good.pairs.match), \(good.fields.match)")
            return
        }
        #expect(values == ["name": "notes", "ext": "txt"])
        #expect(none.isEmpty)
        let bad = try check("/v1/files/Notes.md", responseHeaders: [("Content-Type", "text/plain")], body: "\"x\"")
        #expect(bad.pairs.requestViolations.map(\.message).count == 2, "\(bad.pairs.requestViolations)")
        #expect(bad.fields.requestViolations == bad.pairs.requestViolations)
    }

    @Test func aTrailingSlashRoutesAndItsParameterIsChecked() throws {
        for url in ["/v1/items/12/", "/v1/items/12", "/v1/items/1%32"] {
            let checked = try check(
                url, requestHeaders: [("x-trace", "3")],
                responseHeaders: [("X-Rate", "5"), ("content-type", "application/vnd.item+json")], body: #"{"id": 1}"#)
            #expect(checked.fields.requestViolations.isEmpty, "\(url): \(checked.fields.requestViolations)")
            #expect(checked.fields.response?.violations == [], "\(url)")
            #expect(checked.pairs.response == checked.fields.response)
        }
        let bad = try check(
            "/v1/items/x/", requestHeaders: [("X-Trace", "three")],
            responseHeaders: [("Content-Type", "application/vnd.item+json")], body: #"{}"#)
        #expect(bad.fields.requestViolations.count == 2, "\(bad.fields.requestViolations)")
        #expect(bad.fields.requestViolations == bad.pairs.requestViolations)
        // The missing X-Rate header and the body without `id`.
        #expect(bad.fields.response?.violations.count == 2, "\(String(describing: bad.fields.response))")
        #expect(bad.fields.response == bad.pairs.response)
    }

    @Test(arguments: [
        ("application/json", #"{"id": 1}"#, 0),
        ("application/json; charset=utf-8", #"{"id": 1}"#, 0),
        ("application/json;charset=utf-8", #"{}"#, 1),
        ("Application/JSON", #"{}"#, 1),
        (" application/json ", #"{"id": 1}"#, 0),
        ("application/jsonx", #"{"id": 1}"#, 1),
        ("application/jso", #"{"id": 1}"#, 1),
        ("text/plain", "\"x\"", 0),
        ("text/plain", "3", 0),
        ("text/*", "3", 0),
        ("image/png", "x", 1),
    ])
    func aContentTypeIsMatchedAsWhenParsed(_ contentType: String, _ body: String, _ violations: Int) throws {
        let checked = try check(
            "/v1/files/a.json", responseHeaders: [("Content-Type", contentType)], body: body)
        #expect(
            checked.fields.response?.violations.count == violations, "\(String(describing: checked.fields.response))")
        #expect(checked.fields.response == checked.pairs.response)
    }
}
