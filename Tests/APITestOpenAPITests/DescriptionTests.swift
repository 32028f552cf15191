import APITestOpenAPI
import APITestSupport
import Testing

/// Every violation and load problem has its sentence (written in the `+Description` files only).
struct DescriptionTests {
    private func anOperation() throws -> OpenAPIOperation {
        let contract = try inlineContract(
            "openapi: 3.0.3\npaths:\n  /pets/{id}:\n    get:\n      operationId: getPet\n      responses: {'200': {description: x}}\n"
        )
        return try operation(contract, "getPet")
    }

    @Test func violations() throws {
        let getPet = try anOperation()
        func response(_ kind: ContractViolation.Kind, key: String? = "200", path: String? = nil) -> String {
            ContractViolation(kind: kind, subject: .response, operation: getPet, responseKey: key, instancePath: path)
                .message
        }
        func request(_ kind: ContractViolation.Kind, path: String? = nil) -> String {
            ContractViolation(kind: kind, subject: .request, operation: getPet, instancePath: path).message
        }
        #expect(
            response(.undeclaredStatus(418, declared: ["200", "404", "default"]), key: nil)
                == "418 is not declared for getPet (200, 404, default)")
        #expect(
            response(.undeclaredContentType("text/plain", declared: ["application/json"]))
                == "Content-Type text/plain is not declared for getPet 200 (application/json)")
        #expect(
            request(.undeclaredContentType("text/plain", declared: ["application/json"]))
                == "Content-Type text/plain is not declared for getPet's request body (application/json)")
        #expect(
            response(.missingContentType(declared: ["application/json", "text/plain"]))
                == "the response has a body but no Content-Type; getPet 200 declares application/json, text/plain")
        #expect(
            response(.missingBody(declared: ["application/json"]))
                == "getPet 200 declares a body (application/json) and the response has none")
        #expect(
            request(.missingBody(declared: ["application/json"]))
                == "getPet requires a request body (application/json) and none was sent")
        #expect(
            response(.invalidJSON(contentType: "application/json"))
                == "the response body is not JSON although its Content-Type is application/json (getPet 200)")
        #expect(
            response(.missingHeader("X-Rate-Limit"))
                == "response header X-Rate-Limit is required by getPet 200 and missing")
        #expect(
            request(.missingParameter("limit", in: .query)) == "query parameter limit is required by getPet and missing"
        )
        var mismatch = ContractViolation(
            kind: .schemaMismatch(message: "must be integer, got string"), subject: .response, operation: getPet,
            responseKey: "200", instancePath: "/0/id", keyword: "type",
            schemaPath: "#/components/schemas/Pet/properties/id/type")
        #expect(
            mismatch.message
                == "/0/id: must be integer, got string (type at #/components/schemas/Pet/properties/id/type)")
        #expect(mismatch.description == mismatch.message)
        mismatch.instancePath = ""
        mismatch.schemaPath = nil
        #expect(mismatch.message == "(root): must be integer, got string (type)")
    }

    @Test func anOperationWithoutIdIsNamedByMethodAndPath() throws {
        let contract = try inlineContract(
            "openapi: 3.0.3\npaths:\n  /pets/{id}:\n    delete: {responses: {'204': {description: x}}}\n")
        let delete = try operation(contract, "DELETE /pets/{id}")
        #expect(delete.operationId == nil)
        #expect(delete.methodAndPath == "DELETE /pets/{id}")
        #expect(
            contract.checkResponse(delete, jsonResponse(200, "{}")).violations.map(\.message) == [
                "200 is not declared for DELETE /pets/{id} (204)"
            ])
    }

    @Test func loadProblems() {
        let here = SourceLocation(file: "/api/openapi.yaml", line: 3, column: 5)
        func text(_ kind: OpenAPILoadProblem.Kind) -> String { OpenAPILoadProblem(kind: kind, location: here).message }
        let expectations: [(OpenAPILoadProblem.Kind, String)] = [
            (
                .notOpenAPI3(swagger: "2.0"),
                "this is a Swagger 2.0 document; apitest checks OpenAPI 3.0 and 3.1 documents"
            ),
            (.notOpenAPI3(swagger: nil), "not an OpenAPI document: it has no openapi version (3.0.x or 3.1.x)"),
            (
                .unsupportedVersion("4.0.0"),
                "openapi 4.0.0 is not supported: apitest checks OpenAPI 3.0.x and 3.1.x documents"
            ),
            (
                .readFailed(path: "/api/x.yaml", OpenAPIReadError(kind: .missing, message: "gone")),
                "cannot read /api/x.yaml: no such file"
            ),
            (
                .readFailed(path: "/api/x.yaml", OpenAPIReadError(kind: .unreadable, message: "permission denied")),
                "cannot read /api/x.yaml: permission denied"
            ),
            (
                .readFailed(path: "/api/x.yaml", OpenAPIReadError(kind: .syntax(here), message: "bad indentation")),
                "/api/x.yaml is not valid YAML or JSON: bad indentation"
            ),
            (
                .referencedFileMissing(reference: "x.yaml#/a", path: "/api/x.yaml"),
                ##"$ref "x.yaml#/a" names /api/x.yaml, which does not exist"##
            ),
            (.unresolvableReference(reference: "#/a"), ##"$ref "#/a" cannot be resolved: nothing is at that place"##),
            (
                .externalReference(reference: "https://example.com/a.yaml"),
                #"$ref "https://example.com/a.yaml" not followed: apitest never fetches (only relative file references are read)"#
            ),
            (.referenceCycle(["#/a", "#/b"]), ##"$ref cycle: "#/a" -> "#/b" leads back to where it started"##),
            (
                .invalidSchema(reason: "minLength must be a non-negative integer"),
                "schema does not compile: minLength must be a non-negative integer"
            ),
            (
                .schemaNestingTooDeep(limit: 128),
                "schema nested too deep: more than 128 levels below the top of its file"
            ),
            (
                .unsupportedDialect("http://json-schema.org/draft-07/schema#"),
                "schema dialect http://json-schema.org/draft-07/schema# is not supported: use https://json-schema.org/draft/2020-12/schema or https://spec.openapis.org/oas/3.1/dialect/base"
            ),
            (
                .duplicateOperationId("getPet", first: here),
                "operationId getPet is already used at /api/openapi.yaml:3:5"
            ),
            (
                .clashingPathTemplates(method: "GET", template: "/a/{y}", first: "/a/{x}", firstLocation: here),
                "GET /a/{y} clashes with GET /a/{x} (at /api/openapi.yaml:3:5): they match the same paths"
            ),
            (.wrongType(member: "paths", expected: .object, found: .array), "paths must be an object, found an array"),
            (
                .wrongType(member: "openapi", expected: .string, found: .number),
                "openapi must be a string, found a number"
            ),
            (.missingMember(member: "name", in: "parameter"), "parameter has no name"),
            (.invalidResponseKey("abc"), #"response key "abc" is not a status code (200), a range (2XX) or default"#),
            (
                .invalidPathTemplate("pets"),
                #"path "pets" is not a path template: it must start with / and pair its braces around names"#
            ),
            (
                .invalidParameterLocation("body"),
                #"parameter location "body" is not one of path, query, header, cookie"#
            ),
            (.pathParameterNotRequired("id"), "path parameter id must have required: true"),
            (
                .unknownIgnoreEntry("nope"),
                #"ignore entry "nope" names no operation (use an operationId, "METHOD /path" or "/path")"#
            ),
        ]
        for (kind, expected) in expectations { #expect(text(kind) == expected) }
        let problem = OpenAPILoadProblem(kind: .invalidResponseKey("abc"), location: here)
        #expect(
            problem.description
                == #"/api/openapi.yaml:3:5: response key "abc" is not a status code (200), a range (2XX) or default"#)
        #expect(
            OpenAPILoadFailure(problems: [problem, problem]).description == problem.description + "\n"
                + problem.description)
    }
}
