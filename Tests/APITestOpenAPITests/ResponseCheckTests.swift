import APITestOpenAPI
import APITestSupport
import Testing

/// Responses are checked against the entry their status selects: the status itself, Content-Type, required headers
/// and their schemas, and JSON bodies against their media type's schema; every violation carries its fields.
struct ResponseCheckTests {
    private let yaml = """
        openapi: 3.0.3
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                '200':
                  description: pets
                  headers:
                    X-Rate-Limit: {required: true, schema: {type: integer, minimum: 0}}
                    X-Ratio: {schema: {type: number}}
                    X-Flag: {schema: {type: boolean}}
                    X-Tags: {schema: {type: array, items: {type: integer}}}
                    X-Object: {schema: {type: object, properties: {a: {type: integer}}}, explode: true}
                    Content-Type: {required: true, schema: {type: integer}}
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
                '2XX': {description: other success}
                '404':
                  description: none
                  content:
                    application/*: {schema: {type: object, required: [code]}}
                    application/problem+json: {schema: {type: object, required: [title]}}
                    text/plain: {schema: {type: integer}}
                '4XX':
                  description: client error
                  content:
                    '*/*': {schema: {type: object, required: [reason]}}
                default:
                  description: error
                  content:
                    application/json; charset=utf-8: {schema: {type: object, required: [message]}}
          /pets/{id}:
            get:
              operationId: getPet
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
                '404': {description: none}
            head:
              operationId: headPet
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
            delete:
              operationId: deletePet
              responses:
                '204': {description: gone, content: {application/json: {schema: {type: object}}}}
                '304': {description: same, content: {application/json: {schema: {type: object}}}}
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties: {id: {type: integer, format: int64}, name: {type: string}}
        """

    private func check(
        _ name: String, _ status: Int, _ headers: [(name: String, value: String)], _ body: String,
        method: String? = nil
    ) throws -> ContractResponseCheck {
        let contract = try inlineContract(yaml)
        return contract.checkResponse(
            try operation(contract, name),
            ContractResponse(
                status: status, headers: headers, body: ContractDataBody(text: body), requestMethod: method))
    }

    private let json = [(name: "Content-Type", value: "application/json")]
    private let rate = [(name: "x-rate-limit", value: "10")]

    // MARK: - Statuses

    @Test func theStatusSelectsExactThenRangeThenDefault() throws {
        #expect(try check("listPets", 200, json + rate, "[]").responseKey == "200")
        #expect(try check("listPets", 201, [], "").responseKey == "2XX")
        #expect(try check("listPets", 404, json, #"{"code": 1}"#).responseKey == "404")
        #expect(try check("listPets", 418, json, #"{"reason": "teapot"}"#).responseKey == "4XX")
        #expect(try check("listPets", 500, json, #"{"message": "x"}"#).responseKey == "default")
    }

    @Test func anUndeclaredStatusListsTheDeclaredOnes() throws {
        let contract = try inlineContract(yaml)
        let getPet = try operation(contract, "getPet")
        let check = contract.checkResponse(getPet, jsonResponse(418, "{}"))
        #expect(check.responseKey == nil)
        let violation = try #require(check.violations.first)
        #expect(check.violations.count == 1)
        #expect(violation.kind == .undeclaredStatus(418, declared: ["200", "404"]))
        #expect(violation.message == "418 is not declared for getPet (200, 404)")
        #expect(violation.operation == getPet)
        #expect(violation.subject == .response)
        #expect(violation.specLocation?.line == 38)
    }

    // MARK: - Content-Type

    @Test func contentTypesMatchExactThenTypeWildcardThenAny() throws {
        // application/problem+json is declared exactly: its schema applies, not application/*'s.
        let problem = try check("listPets", 404, [("Content-Type", "Application/Problem+JSON; charset=utf-8")], "{}")
        #expect(
            problem.violations.map(\.message) == [
                #"(root): missing required property "title" (required at #/paths/~1pets/get/responses/404/content/application~1problem+json/schema/required)"#
            ])
        let wildcard = try check("listPets", 404, [("Content-Type", "application/vnd.pets+json")], "{}")
        #expect(wildcard.violations.map(\.keyword) == ["required"])
        #expect(
            wildcard.violations.first?.schemaPath
                == "#/paths/~1pets/get/responses/404/content/application~1*/schema/required")
        // A non-JSON type is not checked against its schema.
        #expect(try check("listPets", 404, [("Content-Type", "text/plain")], "not a number").violations.isEmpty)
        // */* takes anything; JSON bodies are still checked.
        #expect(try check("listPets", 400, [("Content-Type", "text/html")], "<p>").violations.isEmpty)
        #expect(
            try check("listPets", 400, [("Content-Type", "application/json")], "{}").violations.map(\.keyword) == [
                "required"
            ])
        // Parameters of the declared key are ignored.
        #expect(try check("listPets", 500, json, #"{"message": "x"}"#).violations.isEmpty)
    }

    @Test func anUndeclaredOrMissingContentTypeIsAViolation() throws {
        let wrong = try check("listPets", 200, [("Content-Type", "text/plain")] + rate, "[]")
        #expect(wrong.violations.map(\.kind) == [.undeclaredContentType("text/plain", declared: ["application/json"])])
        #expect(
            wrong.violations.first?.message
                == "Content-Type text/plain is not declared for listPets 200 (application/json)")
        #expect(wrong.violations.first?.instancePath == "header Content-Type")
        #expect(wrong.violations.first?.responseKey == "200")
        let missing = try check("listPets", 200, rate, "[]")
        #expect(missing.violations.map(\.kind) == [.missingContentType(declared: ["application/json"])])
    }

    // MARK: - Bodies

    @Test func jsonBodiesAreValidatedWithEveryField() throws {
        let contract = try inlineContract(yaml)
        let list = try operation(contract, "listPets")
        let check = contract.checkResponse(
            list, jsonResponse(200, #"[{"id": 1, "name": "a"}, {"id": "2", "name": "b"}]"#, headers: rate))
        #expect(check.responseKey == "200")
        let violation = try #require(check.violations.first)
        #expect(check.violations.count == 1)
        #expect(violation.kind == .schemaMismatch(message: "must be integer, got string"))
        #expect(violation.operation == list)
        #expect(violation.responseKey == "200")
        #expect(violation.instancePath == "/1/id")
        #expect(violation.keyword == "type")
        #expect(violation.schemaPath == "#/components/schemas/Pet/properties/id/type")
        #expect(violation.specLocation == SourceLocation(file: rootPath, line: 54, column: 31))
        #expect(
            violation.message
                == "/1/id: must be integer, got string (type at #/components/schemas/Pet/properties/id/type)")
    }

    @Test func bodiesThatAreNotJSONOrEmpty() throws {
        let notJSON = try check("getPet", 200, json, "{oops")
        #expect(notJSON.violations.map(\.kind) == [.invalidJSON(contentType: "application/json")])
        let empty = try check("getPet", 200, json, "")
        #expect(empty.violations.map(\.kind) == [.missingBody(declared: ["application/json"])])
        #expect(
            empty.violations.first?.message == "getPet 200 declares a body (application/json) and the response has none"
        )
        // No content declared: the body is not checked.
        #expect(try check("getPet", 404, [("Content-Type", "text/html")], "<h1>").violations.isEmpty)
        // 204, 304 and HEAD have no body, whatever the entry declares.
        #expect(try check("deletePet", 204, [], "").violations.isEmpty)
        #expect(try check("deletePet", 304, json, "").violations.isEmpty)
        #expect(try check("headPet", 200, json, "", method: "HEAD").violations.isEmpty)
        #expect(try check("getPet", 200, json, "", method: "HEAD").violations.isEmpty)
    }

    // MARK: - Headers

    @Test func requiredHeadersArePresentAndTyped() throws {
        let missing = try check("listPets", 200, json, "[]")
        #expect(
            missing.violations.map(\.message) == [
                "response header X-Rate-Limit is required by listPets 200 and missing"
            ])
        #expect(missing.violations.first?.specLocation?.line == 10)
        // Content-Type declared as a header is ignored (OpenAPI says so), though it says integer here.
        let typed = try check(
            "listPets", 200,
            json + [
                ("X-RATE-LIMIT", "10"), ("x-ratio", "0.5"), ("X-Flag", "true"), ("X-Tags", "1,2, 3"),
                ("X-Object", "a=1"),
            ],
            "[]")
        #expect(typed.violations.isEmpty)
        let wrong = try check(
            "listPets", 200,
            json + [
                ("X-Rate-Limit", "-1"), ("X-Ratio", "half"), ("X-Flag", "yes"), ("X-Tags", "1,b"), ("X-Object", "a=x"),
            ],
            "[]")
        #expect(
            wrong.violations.map(\.message) == [
                "header X-Rate-Limit: must be >= 0, got -1 (minimum at #/paths/~1pets/get/responses/200/headers/X-Rate-Limit/schema/minimum)",
                #"header X-Ratio: must be number, got string (type at #/paths/~1pets/get/responses/200/headers/X-Ratio/schema/type)"#,
                #"header X-Flag: must be boolean, got string (type at #/paths/~1pets/get/responses/200/headers/X-Flag/schema/type)"#,
                #"header X-Tags/1: must be integer, got string (type at #/paths/~1pets/get/responses/200/headers/X-Tags/schema/items/type)"#,
                #"header X-Object/a: must be integer, got string (type at #/paths/~1pets/get/responses/200/headers/X-Object/schema/properties/a/type)"#,
            ])
        #expect(wrong.violations.first?.instancePath == "header X-Rate-Limit")
    }
}
