import APITestOpenAPI
import APITestSupport
import Testing

/// OpenAPI 3.0 Schema Objects are translated into JSON Schema 2020-12 (every schema reachable, through `$ref`s into
/// other files too); 3.1 schemas are 2020-12 as written; `readOnly`/`writeOnly` decide what is required where.
struct TranslationTests {
    /// A document whose operation `x` takes and returns `schema` (YAML flow), with `components` as its schemas.
    private func contract(
        _ version: String, _ schema: String, components: String = "{}", files: [String: String] = [:]
    ) throws -> (OpenAPIContract, OpenAPIOperation) {
        let yaml = """
            openapi: \(version)
            paths:
              /x:
                post:
                  operationId: x
                  requestBody: {content: {application/json: {schema: \(schema)}}}
                  responses:
                    '200': {description: ok, content: {application/json: {schema: \(schema)}}}
            components:
              schemas: \(components)
            """
        let contract = try inlineContract(yaml, files: files)
        return (contract, try operation(contract, "x"))
    }

    /// The violations of `body` as a response.
    private func response(_ pair: (OpenAPIContract, OpenAPIOperation), _ body: String) -> [ContractViolation] {
        pair.0.checkResponse(pair.1, jsonResponse(200, body)).violations
    }

    /// The violations of `body` as a request.
    private func request(_ pair: (OpenAPIContract, OpenAPIOperation), _ body: String) -> [ContractViolation] {
        pair.0.checkRequest(
            pair.1,
            ContractRequest(
                method: "POST", url: "/x", headers: [("Content-Type", "application/json")],
                body: ContractDataBody(text: body)))
    }

    // MARK: - nullable

    @Test func nullableAddsNullToTypeAndEnum() throws {
        let string = try contract("3.0.3", "{type: string, nullable: true}")
        #expect(response(string, "null").isEmpty)
        #expect(response(string, #""a""#).isEmpty)
        #expect(response(string, "1").map(\.keyword) == ["type"])

        let choice = try contract("3.0.3", "{type: string, enum: [a, b], nullable: true}")
        #expect(response(choice, "null").isEmpty)
        #expect(response(choice, #""c""#).map(\.keyword) == ["enum"])

        let notNullable = try contract("3.0.3", "{type: string, nullable: false}")
        #expect(response(notNullable, "null").map(\.keyword) == ["type"])
    }

    @Test func nullableOnlyAppliesBesideType() throws {
        // OpenAPI 3.0.3: "A true value adds null to the allowed types specified by the type keyword, only if type is
        // explicitly defined within the same Schema Object."
        let composed = try contract(
            "3.0.3", "{allOf: [{$ref: '#/components/schemas/Pet'}], nullable: true}",
            components: "{Pet: {type: object}}")
        #expect(response(composed, "null").map(\.keyword) == ["type"])
        #expect(response(composed, "{}").isEmpty)
        let referenced = try contract(
            "3.0.3", "{$ref: '#/components/schemas/Pet'}", components: "{Pet: {type: object, nullable: true}}")
        #expect(response(referenced, "null").isEmpty)
    }

    /// `nullable` is not a keyword of 3.1: a vendor's 3.1 document that keeps it is read as 3.0 means it, with a
    /// warning (LenientLoadingTests), and refused with `strictSpec`.
    @Test func nullableIsNotAKeywordOf31() throws {
        let pair = try contract("3.1.0", "{type: string, nullable: true}")
        #expect(response(pair, "null").isEmpty)
        // One at the request's schema, one at the response's.
        #expect(
            pair.0.warnings.map(\.kind)
                == Array(repeating: .nullableInOpenAPI31(value: true, addedTo: "type"), count: 2))
        let typed = try contract("3.1.0", "{type: [string, 'null']}")
        #expect(response(typed, "null").isEmpty)
    }

    // MARK: - Numbers

    @Test func booleanExclusiveBoundsBecomeNumeric() throws {
        let pair = try contract(
            "3.0.3", "{type: number, minimum: 5, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true}")
        #expect(response(pair, "6").isEmpty)
        #expect(response(pair, "5").map(\.keyword) == ["exclusiveMinimum"])
        #expect(response(pair, "10").map(\.keyword) == ["exclusiveMaximum"])
        // The keyword's place is the document's: the flag beside the bound.
        #expect(
            response(pair, "5").map(\.schemaPath) == [
                "#/paths/~1x/post/responses/200/content/application~1json/schema/exclusiveMinimum"
            ])
        let inclusive = try contract("3.0.3", "{type: number, minimum: 5, exclusiveMinimum: false}")
        #expect(response(inclusive, "5").isEmpty)
        #expect(response(inclusive, "4").map(\.keyword) == ["minimum"])

        let numeric = try contract("3.1.0", "{type: number, exclusiveMinimum: 5}")
        #expect(response(numeric, "5").map(\.keyword) == ["exclusiveMinimum"])
        // In 3.1 the boolean form is 3.0's: translated with a warning, an error with strictSpec.
        let document =
            "openapi: 3.1.0\npaths: {}\ncomponents:\n  schemas:\n    N: {minimum: 1, exclusiveMinimum: true}\n"
            + "info: {title: t, version: '1'}\n"
        #expect(inlineProblems(document).isEmpty)
        let problems = inlineProblems(document, options: OpenAPIContractOptions(strictSpec: true))
        #expect(problems.count == 1)
        #expect(problems.first?.location.line == 5)
        #expect(
            problems.first?.kind == .booleanExclusiveBound(keyword: "exclusiveMinimum", value: true, bound: "minimum"))
    }

    // MARK: - References and annotations

    @Test func siblingsOfRefAreIgnoredIn30AndApplyIn31() throws {
        let schema = "{$ref: '#/components/schemas/Pet', maxProperties: 0, description: a pet}"
        let components = "{Pet: {type: object, properties: {id: {type: integer}}}}"
        let old = try contract("3.0.3", schema, components: components)
        #expect(response(old, #"{"id": 1}"#).isEmpty)
        let new = try contract("3.1.0", schema, components: components)
        #expect(response(new, #"{"id": 1}"#).map(\.keyword) == ["maxProperties"])
    }

    @Test func annotationsAndForeignKeywordsDoNotValidate() throws {
        let old = try contract(
            "3.0.3",
            """
            {type: object, example: 1, discriminator: {propertyName: kind}, xml: {name: pet},
             externalDocs: {url: 'https://example.com'}, properties: {mail: {type: string, format: email}},
             x-rule: {type: integer}}
            """)
        #expect(response(old, #"{"mail": "not a mail", "a1": "x", "kind": 1}"#).isEmpty)
        #expect(old.0.warnings.isEmpty)
        // 3.1 is 2020-12: `const` and `patternProperties` validate; `format` and `example` stay annotations.
        let new = try contract(
            "3.1.0",
            "{type: object, example: 1, properties: {mail: {type: string, format: email}}, patternProperties: {'^a': {type: integer}}}"
        )
        #expect(response(new, #"{"mail": "not a mail", "a1": "x"}"#).map(\.instancePath) == ["/a1"])
    }

    @Test func the31DialectIsFull2020() throws {
        let pair = try contract(
            "3.1.0", "{$ref: '#/components/schemas/Tuple'}",
            components: """
                {Tuple: {type: array, prefixItems: [{type: string}, {$ref: '#/components/schemas/Id'}], items: false},
                 Id: {$anchor: id, type: integer, minimum: 1},
                 Closed: {type: object, properties: {a: {$ref: '#id'}}, unevaluatedProperties: false,
                          dependentRequired: {a: [b]}}}
                """)
        #expect(response(pair, #"["a", 2]"#).isEmpty)
        #expect(response(pair, #"["a", 0]"#).map(\.keyword) == ["minimum"])
        #expect(response(pair, #"["a", 2, 3]"#).map(\.keyword) == ["items"])
        #expect(
            response(pair, #"["a", 0]"#).map(\.schemaPath) == ["#/components/schemas/Id/minimum"])

        let closed = try contract(
            "3.1.0", "{$ref: '#/components/schemas/Closed'}",
            components: """
                {Id: {$anchor: id, type: integer},
                 Closed: {type: object, properties: {a: {$ref: '#id'}, b: {}}, unevaluatedProperties: false,
                          dependentRequired: {a: [b]}}}
                """)
        #expect(response(closed, #"{"a": 1, "b": 2}"#).isEmpty)
        #expect(
            Set(response(closed, #"{"a": "x", "c": 1}"#).map(\.keyword)) == [
                "type", "dependentRequired", "unevaluatedProperties",
            ])
    }

    @Test func translationReachesSchemasInOtherFiles() throws {
        let pair = try contract(
            "3.0.3", "{$ref: 'schemas/pet.yaml#/Pet'}",
            files: [
                "schemas/pet.yaml": """
                Pet:
                  type: object
                  properties:
                    tag: {type: string, nullable: true}
                    age: {type: integer, minimum: 0, exclusiveMinimum: true}
                    owner: {$ref: 'owner.yaml'}
                """,
                "schemas/owner.yaml": "{type: string, nullable: true, minLength: 1}",
            ])
        #expect(response(pair, #"{"tag": null, "age": 1, "owner": null}"#).isEmpty)
        let violations = response(pair, #"{"age": 0, "owner": ""}"#)
        #expect(
            violations.map(\.schemaPath) == [
                "schemas/pet.yaml#/Pet/properties/age/exclusiveMinimum", "schemas/owner.yaml#/minLength",
            ])
        #expect(violations.map(\.specLocation?.file) == ["/api/schemas/pet.yaml", "/api/schemas/owner.yaml"])
        #expect(violations.map(\.specLocation?.line) == [5, 1])
    }

    // MARK: - readOnly and writeOnly

    @Test(arguments: ["3.0.3", "3.1.0"])
    func readOnlyIsNotRequiredInRequestsNorWriteOnlyInResponses(_ version: String) throws {
        let pair = try contract(
            version, "{$ref: '#/components/schemas/User'}",
            components: """
                {User: {type: object, required: [id, name, password, created],
                        properties: {id: {type: integer, readOnly: true}, name: {type: string},
                                     password: {type: string, writeOnly: true},
                                     created: {$ref: '#/components/schemas/Stamp'}}},
                 Stamp: {type: string, readOnly: true}}
                """)
        #expect(request(pair, #"{"name": "a", "password": "p"}"#).isEmpty)
        #expect(
            request(pair, #"{"name": "a"}"#).map(\.message) == [
                #"(root): missing required property "password" (required at #/components/schemas/User/required)"#
            ])
        #expect(response(pair, #"{"id": 1, "name": "a", "created": "now"}"#).isEmpty)
        #expect(
            response(pair, #"{"name": "a"}"#).map(\.message) == [
                #"(root): missing required property "id" (required at #/components/schemas/User/required)"#,
                #"(root): missing required property "created" (required at #/components/schemas/User/required)"#,
            ])
    }
}
