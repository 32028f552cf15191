import APITestOpenAPI
import Testing

/// Requests are checked where the document constrains them: required parameters in every place, their values typed
/// and validated in their style, required bodies, the body's Content-Type and schema.
struct RequestCheckTests {
    private let yaml = """
        openapi: 3.0.3
        paths:
          /pets/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}
            get:
              operationId: getPet
              parameters:
                - {name: limit, in: query, required: true, schema: {type: integer, maximum: 100}}
                - {name: tags, in: query, schema: {type: array, items: {type: string, enum: [a, b]}}}
                - {name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}
                - {name: words, in: query, style: spaceDelimited, schema: {type: array, items: {type: string, maxLength: 3}}}
                - {name: pipes, in: query, style: pipeDelimited, schema: {type: array, items: {type: integer}}}
                - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {age: {type: integer}}}}
                - {name: flag, in: query, schema: {type: boolean}}
                - {name: X-Request-Id, in: header, required: true, schema: {type: string, format: uuid, minLength: 8}}
                - {name: session, in: cookie, required: true, schema: {type: integer}}
                - {name: meta, in: query, content: {application/json: {schema: {type: object, required: [v]}}}}
                - {name: Accept, in: header, required: true, schema: {type: integer}}
              responses: {'200': {description: ok}}
          /points/{coords}/{label}/{matrix}:
            get:
              operationId: getPoint
              parameters:
                - {name: coords, in: path, required: true, schema: {type: array, items: {type: number}}}
                - {name: label, in: path, required: true, style: label, schema: {type: array, items: {type: integer}}}
                - {name: matrix, in: path, required: true, style: matrix, explode: true, schema: {type: object, properties: {x: {type: integer}}}}
                - {name: point, in: query, schema: {type: object, properties: {x: {type: integer}, y: {type: integer}}}}
              responses: {'200': {description: ok}}
          /pets:
            post:
              operationId: createPet
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [id, name]
                      properties: {id: {type: integer, readOnly: true}, name: {type: string}}
                  text/plain: {schema: {type: string}}
              responses: {'201': {description: created}}
            put:
              operationId: replacePets
              requestBody:
                content: {application/json: {schema: {type: array}}}
              responses: {'200': {description: ok}}
        """

    private func check(
        _ name: String, _ method: String, _ url: String, headers: [(name: String, value: String)] = [],
        body: String = ""
    ) throws -> [ContractViolation] {
        let contract = try inlineContract(yaml)
        return contract.checkRequest(
            try operation(contract, name),
            ContractRequest(method: method, url: url, headers: headers, body: ContractDataBody(text: body)))
    }

    private let needed = [
        (name: "X-Request-Id", value: "12345678-abcd"), (name: "Cookie", value: "theme=dark; session=42"),
    ]

    @Test func requiredParametersInEveryPlace() throws {
        #expect(try check("getPet", "GET", "/pets/3?limit=10", headers: needed).isEmpty)
        let none = try check("getPet", "GET", "/pets/3")
        #expect(
            none.map(\.kind) == [
                .missingParameter("limit", in: .query), .missingParameter("X-Request-Id", in: .header),
                .missingParameter("session", in: .cookie),
            ])
        #expect(none.map(\.instancePath) == ["query limit", "header X-Request-Id", "cookie session"])
        #expect(none.allSatisfy { $0.subject == .request && $0.responseKey == nil && $0.specLocation != nil })
        #expect(none.first?.message == "query parameter limit is required by getPet and missing")
        // Header names compare without case; a declared Accept header is ignored, as OpenAPI says.
        #expect(
            try check(
                "getPet", "GET", "/pets/3?limit=1", headers: [("x-request-id", "12345678"), ("cookie", "session=1")]
            ).isEmpty)
    }

    @Test func valuesAreTypedAndValidatedInTheirStyle() throws {
        let url =
            "/pets/0?limit=101&tags=a&tags=c&ids=1,x&words=abc%20defg&pipes=1|2&filter[age]=old&flag=maybe&meta=%7B%7D"
        let violations = try check(
            "getPet", "GET", url, headers: [("X-Request-Id", "short"), ("Cookie", "session=abc")])
        #expect(
            violations.map(\.instancePath) == [
                "path id", "query limit", "query tags/1", "query ids/1", "query words/1", "query filter/age",
                "query flag",
                "header X-Request-Id", "cookie session", "query meta",
            ])
        #expect(
            violations.map(\.keyword) == [
                "minimum", "maximum", "enum", "type", "maxLength", "type", "type", "minLength", "type", "required",
            ])
        #expect(violations.first?.schemaPath == "#/paths/~1pets~1{id}/parameters/0/schema/minimum")
        let fine =
            "/pets/1?limit=100&tags=a&tags=b&ids=1,2&words=abc%20de&pipes=1%7C2&filter[age]=3&flag=true&meta=%7B%22v%22%3A1%7D"
        #expect(try check("getPet", "GET", fine, headers: needed).isEmpty)
    }

    @Test func pathStylesAndExplodedObjects() throws {
        #expect(try check("getPoint", "GET", "/points/1.5,-2/.1,2/;x=3?x=1&y=2").isEmpty)
        let wrong = try check("getPoint", "GET", "/points/1,a/.1,b/;x=c?x=1&y=z")
        #expect(wrong.map(\.instancePath) == ["path coords/1", "path label/1", "path matrix/x", "query point/y"])
    }

    @Test func requestBodies() throws {
        let json = [(name: "Content-Type", value: "application/json")]
        // readOnly properties are not required in requests.
        #expect(try check("createPet", "POST", "/pets", headers: json, body: #"{"name": "Rex"}"#).isEmpty)
        let wrong = try check("createPet", "POST", "/pets", headers: json, body: #"{"name": 1}"#)
        #expect(
            wrong.map(\.message) == [
                "/name: must be string, got integer (type at #/paths/~1pets/post/requestBody/content/application~1json/schema/properties/name/type)"
            ])
        #expect(try check("createPet", "POST", "/pets", headers: [("Content-Type", "text/plain")], body: "Rex").isEmpty)

        let missing = try check("createPet", "POST", "/pets")
        #expect(missing.map(\.kind) == [.missingBody(declared: ["application/json", "text/plain"])])
        #expect(
            missing.first?.message
                == "createPet requires a request body (application/json, text/plain) and none was sent")
        let undeclared = try check(
            "createPet", "POST", "/pets", headers: [("Content-Type", "application/xml")], body: "<pet/>")
        #expect(
            undeclared.map(\.message) == [
                "Content-Type application/xml is not declared for createPet's request body (application/json, text/plain)"
            ])
        let untyped = try check("createPet", "POST", "/pets", body: "{}")
        #expect(untyped.map(\.kind) == [.missingContentType(declared: ["application/json", "text/plain"])])
        let notJSON = try check("createPet", "POST", "/pets", headers: json, body: "{")
        #expect(notJSON.map(\.kind) == [.invalidJSON(contentType: "application/json")])

        // An optional body may be absent; when present it is checked.
        #expect(try check("replacePets", "PUT", "/pets").isEmpty)
        #expect(try check("replacePets", "PUT", "/pets", headers: json, body: "{}").map(\.keyword) == ["type"])
    }
}
