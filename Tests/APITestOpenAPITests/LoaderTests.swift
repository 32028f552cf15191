import APITestOpenAPI
import APITestSupport
import Testing

/// Loading: versions, documents split across files, Reference Objects wherever OpenAPI allows them, path-level
/// parameters, and every kind of located load problem, all collected.
struct LoaderTests {
    // MARK: - Versions

    @Test(arguments: ["3.0.0", "3.0.3", "3.0.4", "3.1.0", "3.1.1"])
    func openAPI3VersionsLoad(_ version: String) throws {
        let contract = try inlineContract("openapi: \(version)\ninfo: {title: t, version: '1'}\npaths: {}\n")
        #expect(contract.version == version)
        #expect(contract.operations.isEmpty)
    }

    @Test func swaggerIsNotOpenAPI3() {
        let problems = inlineProblems("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n")
        #expect(problems.map(\.kind) == [.notOpenAPI3(swagger: "2.0")])
        #expect(problems.first?.location == SourceLocation(file: rootPath, line: 1, column: 10))
        #expect(problems.first?.message.contains("Swagger 2.0") == true)
    }

    @Test(arguments: ["4.0.0", "3.2.0", "2.0", "3.0", "three"])
    func unknownVersionsAreRefused(_ version: String) {
        let problems = inlineProblems("openapi: '\(version)'\npaths: {}\n")
        #expect(problems.map(\.kind) == [.unsupportedVersion(version)])
        #expect(problems.first?.location.line == 1)
    }

    @Test func aDocumentWithoutVersionIsNotOpenAPI() {
        #expect(inlineProblems("info: {title: t}\n").map(\.kind) == [.notOpenAPI3(swagger: nil)])
        #expect(
            inlineProblems("openapi: 3.1\n").map(\.kind) == [
                .wrongType(member: "openapi", expected: .string, found: .number)
            ])
        #expect(
            inlineProblems("- a\n- b\n").map(\.kind) == [
                .wrongType(member: "document", expected: .object, found: .array)
            ])
    }

    @Test func aMissingOrBrokenRootFileIsAProblem() {
        let missing = loadProblems("/nowhere/openapi.yaml", reader: TestReader())
        #expect(missing.count == 1)
        if case .readFailed(let path, let error) = missing.first?.kind {
            #expect(path == "/nowhere/openapi.yaml")
            #expect(error.kind == .missing)
        } else {
            Issue.record("expected readFailed, got \(missing)")
        }
        let broken = inlineProblems("openapi: 3.0.3\npaths: {a: [}\n")
        #expect(broken.count == 1)
        #expect(broken.first?.location == SourceLocation(file: rootPath, line: 2, column: 13))
    }

    // MARK: - Files and references

    @Test func referencesAcrossFilesResolveEverywhere() throws {
        let root = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /pets:
                $ref: ./paths/pets.yaml
              /pets/{id}:
                parameters:
                  - $ref: '#/components/parameters/Id'
                get:
                  operationId: getPet
                  responses:
                    '200':
                      $ref: '#/components/responses/Pet'
                    default:
                      $ref: 'common.yaml#/components/responses/Error'
            components:
              parameters:
                Id: {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                Pet:
                  description: a pet
                  headers:
                    X-Rate-Limit:
                      $ref: 'common.yaml#/components/headers/RateLimit'
                  content:
                    application/json:
                      schema: {$ref: 'common.yaml#/components/schemas/Pet'}
                      examples:
                        rex: {$ref: '#/components/examples/Rex'}
              examples:
                Rex: {value: {id: 1, name: Rex}}
            """
        let pets = """
            get:
              operationId: listPets
              responses:
                '200':
                  description: pets
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: '../common.yaml#/components/schemas/Pet'}}
            post:
              operationId: createPet
              requestBody: {$ref: '../common.yaml#/components/requestBodies/NewPet'}
              responses: {'201': {description: created}}
            """
        let common = """
            components:
              schemas:
                Pet:
                  type: object
                  required: [id, name]
                  properties: {id: {type: integer}, name: {type: string}}
              headers:
                RateLimit: {required: true, schema: {type: integer}}
              requestBodies:
                NewPet:
                  required: true
                  content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
              responses:
                Error: {description: error, content: {application/json: {schema: {type: object, required: [message]}}}}
            """
        let reader = inlineReader(root, ["paths/pets.yaml": pets, "common.yaml": common])
        let contract = try loadContract(rootPath, reader: reader)
        #expect(contract.operations.map(\.displayName) == ["listPets", "createPet", "getPet"])
        #expect(Set(reader.paths) == [rootPath, "/api/paths/pets.yaml", "/api/common.yaml"])
        #expect(reader.paths.count == 3) // each file read once

        let list = try operation(contract, "listPets")
        #expect(list.pathTemplate == "/pets")
        #expect(list.location.file == "/api/paths/pets.yaml")
        let wrongList = contract.checkResponse(list, jsonResponse(200, #"[{"id": "1", "name": "a"}]"#))
        #expect(wrongList.violations.map(\.schemaPath) == ["common.yaml#/components/schemas/Pet/properties/id/type"])
        #expect(wrongList.violations.first?.specLocation?.file == "/api/common.yaml")

        let get = try operation(contract, "getPet")
        #expect(get.responseKeys == ["200", "default"])
        let noHeader = contract.checkResponse(get, jsonResponse(200, #"{"id": 1, "name": "a"}"#))
        #expect(noHeader.violations.map(\.kind) == [.missingHeader("X-Rate-Limit")])
        let error = contract.checkResponse(get, jsonResponse(500, "{}", headers: [("X-Rate-Limit", "1")]))
        #expect(error.responseKey == "default")
        #expect(error.violations.map(\.keyword) == ["required"])

        let create = try operation(contract, "createPet")
        let missingBody = contract.checkRequest(
            create, ContractRequest(method: "POST", url: "/pets", headers: [], body: ContractDataBody.empty))
        #expect(missingBody.map(\.kind) == [.missingBody(declared: ["application/json"])])

        // The path-level parameter applies: `id` is typed as an integer.
        let badId = contract.checkRequest(get, ContractRequest(method: "GET", url: "/pets/abc", headers: []))
        #expect(badId.map(\.instancePath) == ["path id"])
        #expect(badId.map(\.keyword) == ["type"])
    }

    @Test func operationParametersOverridePathParametersByNameAndLocation() throws {
        let contract = try inlineContract(
            """
            openapi: 3.0.3
            paths:
              /items/{id}:
                parameters:
                  - {name: id, in: path, required: true, schema: {type: integer}}
                  - {name: limit, in: query, required: true, schema: {type: integer}}
                  - {name: X-Trace, in: header, schema: {type: string}}
                get:
                  operationId: getItem
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: string, pattern: '^[a-z]+$'}}
                    - {name: limit, in: header, required: true, schema: {type: integer}}
                    - {name: x-trace, in: header, required: true, schema: {type: integer}}
                  responses: {'200': {description: ok}}
            """)
        let get = try operation(contract, "getItem")
        // id: the operation's string schema wins; query limit stays (a header `limit` is another parameter); the
        // header X-Trace is replaced by x-trace (header names compare without case).
        let violations = contract.checkRequest(
            get, ContractRequest(method: "GET", url: "/items/abc?limit=5", headers: [("Limit", "1")]))
        #expect(violations.map(\.kind) == [.missingParameter("x-trace", in: .header)])
        let more = contract.checkRequest(
            get, ContractRequest(method: "GET", url: "/items/12", headers: [("X-Trace", "x")]))
        #expect(
            more.map(\.message) == [
                #"path id: must match the pattern "^[a-z]+$" (pattern at #/paths/~1items~1{id}/get/parameters/0/schema/pattern)"#,
                "query parameter limit is required by getItem and missing",
                "header x-trace: must be integer, got string (type at #/paths/~1items~1{id}/get/parameters/2/schema/type)",
                "header parameter limit is required by getItem and missing",
            ])
    }

    // MARK: - Problems

    @Test func unresolvableReferencesAreLocated() {
        let problems = inlineProblems(
            """
            openapi: 3.0.3
            paths:
              /a:
                get:
                  parameters:
                    - $ref: '#/components/parameters/Nope'
                  responses:
                    '200': {$ref: 'missing.yaml#/components/responses/X'}
                    '201':
                      description: x
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/Gone'}
                    '202':
                      description: y
                      content:
                        application/json:
                          schema: {$ref: 'nofile.json#/Pet'}
            """)
        #expect(
            problems.map(\.kind) == [
                .unresolvableReference(reference: "#/components/parameters/Nope"),
                .referencedFileMissing(reference: "missing.yaml#/components/responses/X", path: "/api/missing.yaml"),
                .unresolvableReference(reference: "#/components/schemas/Gone"),
                .referencedFileMissing(reference: "nofile.json#/Pet", path: "/api/nofile.json"),
            ])
        #expect(problems.map(\.location.line) == [6, 8, 13, 18])
        #expect(problems.allSatisfy { $0.location.file == rootPath })
    }

    @Test(arguments: [
        "https://example.com/schemas/pet.yaml", "http://example.com/pet.yaml#/Pet", "file:///etc/passwd",
        "//example.com/pet.yaml", "urn:example:pet",
    ])
    func referencesToURLsAreNotFollowed(_ url: String) {
        let problems = inlineProblems(
            """
            openapi: 3.0.3
            paths:
              /a:
                get:
                  responses:
                    '200': {$ref: '\(url)'}
                    '201':
                      description: x
                      content: {application/json: {schema: {$ref: '\(url)'}}}
            """)
        #expect(problems.map(\.kind) == [.externalReference(reference: url), .externalReference(reference: url)])
        #expect(problems.map(\.location.line) == [6, 9])
        #expect(problems.first?.message.contains("not followed: apitest never fetches") == true)
    }

    @Test func cyclesOfReferenceObjectsAreProblemsButRecursiveSchemasWork() throws {
        let problems = inlineProblems(
            """
            openapi: 3.0.3
            paths:
              /a:
                get:
                  responses:
                    '200': {$ref: '#/components/responses/A'}
            components:
              responses:
                A: {$ref: '#/components/responses/B'}
                B: {$ref: '#/components/responses/A'}
            """)
        // One problem per cycle, where it is first entered.
        #expect(problems.map(\.kind) == [.referenceCycle(["#/components/responses/B", "#/components/responses/A"])])
        #expect(problems.map(\.location.line) == [9])

        let contract = try inlineContract(
            """
            openapi: 3.0.3
            paths:
              /tree:
                get:
                  operationId: tree
                  responses:
                    '200':
                      description: a tree
                      content: {application/json: {schema: {$ref: '#/components/schemas/Node'}}}
            components:
              schemas:
                Node:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    children: {type: array, items: {$ref: '#/components/schemas/Node'}}
            """)
        let tree = try operation(contract, "tree")
        let deep = #"{"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}"#
        #expect(contract.checkResponse(tree, jsonResponse(200, deep)).violations.isEmpty)
        let bad = #"{"name": "a", "children": [{"children": []}]}"#
        let violations = contract.checkResponse(tree, jsonResponse(200, bad)).violations
        #expect(violations.map(\.instancePath) == ["/children/0"])
        #expect(violations.map(\.schemaPath) == ["#/components/schemas/Node/required"])
    }

    @Test func cyclesOfSchemasThatAreOnlyReferencesAreProblems() {
        let problems = inlineProblems(
            """
            openapi: 3.0.3
            paths: {}
            components:
              schemas:
                A: {$ref: '#/components/schemas/B'}
                B: {$ref: '#/components/schemas/A'}
            """)
        #expect(problems.map(\.kind).contains(.referenceCycle(["#/components/schemas/B", "#/components/schemas/A"])))
    }

    @Test func schemasThatDoNotCompileAreLocated() {
        let problems = inlineProblems(
            """
            openapi: 3.1.0
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: x
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              n: {minLength: '3'}
            components:
              schemas:
                Bad: {type: strange}
                Pattern: {pattern: '(['}
            """)
        #expect(problems.count == 3)
        #expect(problems.map(\.location.line) == [16, 17, 13])
        if case .invalidSchema(let reason) = problems.first?.kind {
            #expect(reason.contains("unknown type"))
        } else {
            Issue.record("expected invalidSchema, got \(problems)")
        }
    }

    @Test func dialectsOtherThan2020AreRefused() throws {
        let problems = inlineProblems(
            """
            openapi: 3.1.0
            jsonSchemaDialect: http://json-schema.org/draft-07/schema#
            paths: {}
            components:
              schemas:
                Old: {$schema: 'http://json-schema.org/draft-04/schema#', type: string}
                Fine: {$schema: 'https://json-schema.org/draft/2020-12/schema', type: string}
                Oas: {$schema: 'https://spec.openapis.org/oas/3.1/dialect/base', type: string}
            """)
        #expect(
            problems.map(\.kind) == [
                .unsupportedDialect("http://json-schema.org/draft-07/schema#"),
                .unsupportedDialect("http://json-schema.org/draft-04/schema#"),
            ])
        #expect(problems.map(\.location.line) == [2, 6])
        for dialect in [
            "https://spec.openapis.org/oas/3.1/dialect/base", "https://json-schema.org/draft/2020-12/schema",
        ] {
            _ = try inlineContract("openapi: 3.1.0\njsonSchemaDialect: \(dialect)\npaths: {}\n")
        }
        // A schema file whose root names the OpenAPI dialect compiles as 2020-12.
        let contract = try inlineContract(
            """
            openapi: 3.1.0
            paths:
              /a:
                get:
                  operationId: a
                  responses:
                    '200': {description: x, content: {application/json: {schema: {$ref: 'pet.json'}}}}
            """,
            files: [
                "pet.json":
                    #"{"$schema": "https://spec.openapis.org/oas/3.1/dialect/base", "type": "object", "required": ["id"]}"#
            ])
        let a = try operation(contract, "a")
        #expect(
            contract.checkResponse(a, jsonResponse(200, "{}")).violations.map(\.schemaPath) == ["pet.json#/required"])
    }

    @Test func duplicateOperationIdsAndClashingTemplatesAreProblems() {
        let problems = inlineProblems(
            """
            openapi: 3.0.3
            paths:
              /a/{x}:
                get: {operationId: one, responses: {'200': {description: x}}}
                put: {operationId: two, responses: {'200': {description: x}}}
              /a/{y}:
                get: {operationId: one, responses: {'200': {description: x}}}
                post: {operationId: three, responses: {'200': {description: x}}}
            """)
        #expect(problems.count == 2)
        #expect(problems.map(\.location.line) == [7, 7])
        #expect(
            problems.first?.kind
                == .duplicateOperationId("one", first: SourceLocation(file: rootPath, line: 4, column: 24)))
        if case .clashingPathTemplates(let method, let template, let first, _) = problems.last?.kind {
            #expect(method == "GET")
            #expect(template == "/a/{y}")
            #expect(first == "/a/{x}")
        } else {
            Issue.record("expected a clash, got \(problems)")
        }
    }

    @Test func malformedObjectsAreLocatedProblemsAndAllAreCollected() {
        let problems = inlineProblems(
            """
            openapi: 3.0.3
            servers: {url: x}
            paths:
              /a:
                get:
                  parameters: {name: x}
                  responses:
                    abc: {description: x}
                    '200': [1]
                    '600': {description: x}
                    2XX: {description: ok}
                    x-extension: 1
                post:
                  parameters:
                    - {name: p, in: body}
                    - {in: query}
                    - {name: q, in: path, schema: {type: string}}
                  responses: [1]
              pets: {}
              /b/{unclosed:
                get: {responses: {'200': {description: x}}}
            components:
              schemas: [1]
            """)
        #expect(
            problems.map(\.kind) == [
                .wrongType(member: "servers", expected: .array, found: .object),
                .wrongType(member: "schemas", expected: .object, found: .array),
                .wrongType(member: "parameters", expected: .array, found: .object),
                .invalidResponseKey("abc"),
                .wrongType(member: "200", expected: .object, found: .array),
                .invalidResponseKey("600"),
                .invalidParameterLocation("body"),
                .missingMember(member: "name", in: "parameter"),
                .pathParameterNotRequired("q"),
                .wrongType(member: "responses", expected: .object, found: .array),
                .invalidPathTemplate("pets"),
                .invalidPathTemplate("/b/{unclosed"),
            ])
        #expect(problems.map(\.location.line) == [2, 23, 6, 8, 9, 10, 15, 16, 17, 18, 19, 21])
        #expect(
            problems.first?.message == "servers must be an array, found an object")
    }

    @Test func ignoreEntriesNameOperationsAndUnknownOnesAreProblems() throws {
        let yaml = """
            openapi: 3.0.3
            paths:
              /pets:
                get: {operationId: listPets, responses: {'200': {description: x}}}
                post: {operationId: createPet, responses: {'201': {description: x}}}
              /pets/{id}:
                get: {operationId: getPet, responses: {'200': {description: x}}}
                delete: {responses: {'204': {description: x}}}
              /health:
                get: {responses: {'200': {description: x}}}
            """
        let contract = try inlineContract(
            yaml, options: OpenAPIContractOptions(ignore: ["createPet", "delete /pets/{petId}", "/health"]))
        #expect(contract.operations.map(\.displayName) == ["listPets", "getPet"])
        #expect(contract.match(method: "POST", url: "/pets") == .ignored)
        #expect(contract.match(method: "DELETE", url: "/pets/1") == .ignored)
        #expect(contract.match(method: "GET", url: "/health") == .ignored)

        let problems = inlineProblems(
            yaml, options: OpenAPIContractOptions(ignore: ["nope", "GET /nothing", "PATCH /pets", "listPets"]))
        #expect(
            problems.map(\.kind) == [
                .unknownIgnoreEntry("nope"), .unknownIgnoreEntry("GET /nothing"), .unknownIgnoreEntry("PATCH /pets"),
            ])
        #expect(problems.first?.location == SourceLocation(file: rootPath, line: 1, column: 1))
    }

    @Test func operationsWithoutResponsesCheckNoStatus() throws {
        let contract = try inlineContract("openapi: 3.1.0\npaths:\n  /a:\n    get: {operationId: a}\n")
        let a = try operation(contract, "a")
        #expect(a.responseKeys.isEmpty)
        let check = contract.checkResponse(a, jsonResponse(418, "{}"))
        #expect(check == ContractResponseCheck(responseKey: nil, violations: []))
    }
}
