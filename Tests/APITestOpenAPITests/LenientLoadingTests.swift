import APITestOpenAPI
import APITestSupport
import Testing

/// Vendors' documents are often not strictly valid (issue 39 §4): OpenAPI 3.0's forms in a 3.1 document, formats no
/// specification defines, `examples` written as another object wants. They load with a located warning that says
/// what was translated or ignored; with `strictSpec` each warning is an error with the same words at the same place.
struct LenientLoadingTests {
    /// A document of `version` whose operation `x` returns `schema` (YAML flow, on line 9).
    private func document(_ version: String, _ schema: String) -> String {
        """
        openapi: \(version)
        paths:
          /x:
            get:
              operationId: x
              responses:
                '200':
                  description: ok
                  content: {application/json: {schema: \(schema)}}
        info: {title: t, version: "1"}
        """
    }

    private func violations(_ contract: OpenAPIContract, _ body: String) throws -> [ContractViolation] {
        contract.checkResponse(try operation(contract, "x"), jsonResponse(200, body)).violations
    }

    /// Loading with `strictSpec` refuses the document with exactly its lenient load's warnings, as errors.
    private func expectStrictRefusal(
        _ yaml: String, warnings: [OpenAPILoadProblem], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let problems = inlineProblems(yaml, options: OpenAPIContractOptions(strictSpec: true))
        #expect(!problems.isEmpty, "strictSpec refuses", sourceLocation: sourceLocation)
        #expect(problems == warnings, sourceLocation: sourceLocation)
    }

    // MARK: - Boolean exclusiveMinimum/Maximum in 3.1

    @Test func aBooleanExclusiveMinimumIn31IsTranslatedWithAWarning() throws {
        // OpenAI's document: `minimum: 0, exclusiveMinimum: true` under openapi: 3.1.0, refused before.
        let yaml = document("3.1.0", "{type: number, minimum: 0, exclusiveMinimum: true}")
        let contract = try inlineContract(yaml)
        #expect(try violations(contract, "0").map(\.keyword) == ["exclusiveMinimum"])
        #expect(try violations(contract, "0.5").isEmpty)
        #expect(try violations(contract, "-1").map(\.keyword) == ["exclusiveMinimum"])

        let warning = try #require(contract.warnings.first)
        #expect(contract.warnings.count == 1)
        #expect(warning.kind == .booleanExclusiveBound(keyword: "exclusiveMinimum", value: true, bound: "minimum"))
        #expect(warning.kindName == "boolean-exclusive-bound")
        #expect(warning.location.file == rootPath && warning.location.line == 9)
        #expect(
            warning.pointerText
                == "/paths/~1x/get/responses/200/content/application~1json/schema/exclusiveMinimum")
        #expect(
            warning.message
                == "exclusiveMinimum: true is OpenAPI 3.0's form (3.1's is a number): read as 3.1's exclusiveMinimum "
                + "with the value of minimum beside it")
        expectStrictRefusal(yaml, warnings: contract.warnings)
    }

    @Test func booleanExclusiveMaximumFalseOrWithoutABoundIsIgnored() throws {
        let inclusive = try inlineContract(document("3.1.0", "{type: number, maximum: 5, exclusiveMaximum: false}"))
        #expect(try violations(inclusive, "5").isEmpty)
        #expect(try violations(inclusive, "6").map(\.keyword) == ["maximum"])
        #expect(
            inclusive.warnings.map(\.kind) == [
                .booleanExclusiveBound(keyword: "exclusiveMaximum", value: false, bound: nil)
            ])
        #expect(inclusive.warnings.first?.message.hasSuffix("ignored, maximum stays inclusive") == true)

        let unbounded = try inlineContract(document("3.1.0", "{type: number, exclusiveMaximum: true}"))
        #expect(try violations(unbounded, "1e9").isEmpty)
        #expect(
            unbounded.warnings.first?.message
                == "exclusiveMaximum: true is OpenAPI 3.0's form (3.1's is a number) and has no maximum beside it: "
                + "ignored")
    }

    /// In 3.0 the boolean form is the version's own: translated without a word.
    @Test func theBooleanFormIn30HasNoWarning() throws {
        let contract = try inlineContract(document("3.0.3", "{type: number, minimum: 0, exclusiveMinimum: true}"))
        #expect(try violations(contract, "0").map(\.keyword) == ["exclusiveMinimum"])
        #expect(contract.warnings.isEmpty)
    }

    // MARK: - nullable in 3.1

    @Test func nullableIn31AddsNullBesideATypeWithAWarning() throws {
        let yaml = document("3.1.0", "{type: string, enum: [a, b], nullable: true}")
        let contract = try inlineContract(yaml)
        #expect(try violations(contract, "null").isEmpty)
        #expect(try violations(contract, #""a""#).isEmpty)
        #expect(try violations(contract, #""c""#).map(\.keyword) == ["enum"])
        #expect(contract.warnings.map(\.kind) == [.nullableInOpenAPI31(value: true, addedTo: "type and enum")])
        #expect(contract.warnings.first?.kindName == "nullable-in-3.1")
        #expect(
            contract.warnings.first?.message
                == "nullable is OpenAPI 3.0's keyword, not 3.1's (3.1 writes type: [..., \"null\"]): read as \"null\" "
                + "added to type and enum")
        expectStrictRefusal(yaml, warnings: contract.warnings)
    }

    @Test func nullableIn31WithoutATypeIsIgnoredAs30IgnoresIt() throws {
        let contract = try inlineContract(
            document("3.1.0", "{allOf: [{type: object}], nullable: true}"))
        #expect(try violations(contract, "null").map(\.keyword) == ["type"])
        #expect(contract.warnings.map(\.kind) == [.nullableInOpenAPI31(value: true, addedTo: nil)])
        #expect(
            contract.warnings.first?.message.hasSuffix("ignored, as 3.0 ignores it without a type beside it") == true)

        let notNullable = try inlineContract(document("3.1.0", "{type: string, nullable: false}"))
        #expect(try violations(notNullable, "null").map(\.keyword) == ["type"])
        #expect(notNullable.warnings.map(\.kind) == [.nullableInOpenAPI31(value: false, addedTo: nil)])
    }

    // MARK: - Unknown formats

    @Test func anUnknownFormatIsWarnedOnceAtItsFirstUse() throws {
        let yaml = """
            openapi: 3.0.3
            paths:
              /x:
                get:
                  operationId: x
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              created: {type: integer, format: unix-time}
                              updated: {type: integer, format: unix-time}
                              id: {type: string, format: uuid}
                              price: {type: string, format: decimal}
                              phone: {type: string, format: phone-number}
            info: {title: t, version: "1"}
            """
        let contract = try inlineContract(yaml)
        #expect(contract.warnings.map(\.kind) == [.unknownFormat("unix-time"), .unknownFormat("phone-number")])
        #expect(contract.warnings.first?.location.line == 14)
        #expect(contract.warnings.map(\.kindName) == ["unknown-format", "unknown-format"])
        // An annotation: a value of any form passes.
        #expect(try violations(contract, #"{"created": 1, "phone": "not a phone"}"#).isEmpty)
        expectStrictRefusal(yaml, warnings: contract.warnings)
    }

    // MARK: - example and examples

    @Test func examplesInA30SchemaIsWarnedAndIgnored() throws {
        let contract = try inlineContract(document("3.0.3", "{type: string, examples: [a]}"))
        #expect(contract.warnings.map(\.kind) == [.exampleMisuse(.examplesInOpenAPI30Schema)])
        #expect(contract.warnings.first?.kindName == "example-misuse")
    }

    @Test func aSchemaExamplesThatIsNotAnArrayIn31IsWarnedAndIgnored() throws {
        let yaml = document("3.1.0", "{type: string, examples: {first: a}}")
        let contract = try inlineContract(yaml)
        #expect(try violations(contract, #""a""#).isEmpty)
        #expect(contract.warnings.map(\.kind) == [.exampleMisuse(.schemaExamplesNotArray(found: .object))])
        #expect(
            contract.warnings.first?.message
                == "a schema's examples must be an array (JSON Schema 2020-12), found an object: ignored")
        expectStrictRefusal(yaml, warnings: contract.warnings)
    }

    @Test func misusedMediaTypeAndParameterExamplesAreWarned() throws {
        let yaml = """
            openapi: 3.1.0
            paths:
              /x:
                get:
                  operationId: x
                  parameters:
                    - {name: q, in: query, schema: {type: string}, example: a, examples: {one: {value: b}}}
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: object}
                          examples: [{id: 1}]
                    '201':
                      description: created
                      content:
                        application/json:
                          schema: {type: object}
                          examples:
                            good: {summary: a pet, value: {id: 1}}
                            bare: {id: 1, name: Rex}
                            scalar: 3
            info: {title: t, version: "1"}
            """
        let contract = try inlineContract(yaml)
        #expect(
            contract.warnings.map(\.kind) == [
                .exampleMisuse(.bothExampleAndExamples),
                .exampleMisuse(.examplesNotMap(found: .array)),
                .exampleMisuse(.entryNotExampleObject(name: "bare")),
                .exampleMisuse(.entryNotExampleObject(name: "scalar")),
            ])
        #expect(contract.warnings.map(\.location.line) == [7, 14, 22, 23])
        #expect(
            contract.warnings[2].message
                == "examples entry \"bare\" is not an Example Object (it has no value, externalValue or $ref): ignored")
        expectStrictRefusal(yaml, warnings: contract.warnings)
    }

    // MARK: - Operations as Reference Objects

    /// DigitalOcean's split document writes each operation as a `$ref` to its file, which OpenAPI does not allow
    /// (only the path item may be one): followed, with a warning, rather than read as an operation that declares
    /// nothing and so checks nothing.
    @Test func anOperationThatIsAReferenceIsFollowedWithAWarning() throws {
        let yaml = """
            openapi: 3.0.3
            paths:
              /pets/{id}:
                get:
                  $ref: 'operations/get_pet.yaml'
            info: {title: t, version: "1"}
            """
        let operationFile = """
            operationId: getPet
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer}}
            responses:
              '200': {description: ok, content: {application/json: {schema: {type: object, required: [id]}}}}
            """
        let contract = try inlineContract(yaml, files: ["operations/get_pet.yaml": operationFile])
        let operation = try operation(contract, "getPet")
        #expect(operation.responseKeys == ["200"])
        #expect(!contract.checkResponse(operation, jsonResponse(200, "{}")).violations.isEmpty)
        #expect(!contract.checkResponse(operation, jsonResponse(404, "{}")).violations.isEmpty)
        #expect(contract.warnings.map(\.kind) == [.operationReference])
        #expect(contract.warnings.first?.pointerText == "/paths/~1pets~1{id}/get/$ref")
        #expect(contract.warnings.first?.kindName == "operation-reference")
        let problems = inlineProblems(
            yaml, files: ["operations/get_pet.yaml": operationFile], options: OpenAPIContractOptions(strictSpec: true))
        #expect(problems == contract.warnings)
    }

    // MARK: - What still fails

    /// Lenience stops where a check becomes impossible: an unresolvable `$ref` still fails, warnings or not.
    @Test func anUnresolvableReferenceStillFailsTheLoad() {
        let problems = inlineProblems(
            document("3.1.0", "{type: number, minimum: 0, exclusiveMinimum: true, items: {$ref: '#/nowhere'}}"))
        #expect(problems.map(\.kind) == [.unresolvableReference(reference: "#/nowhere")])
    }

    // MARK: - The summary

    @Test func theSummaryShowsAFewOfEachKindAndCountsTheRest() {
        let at = SourceLocation(file: rootPath, line: 1, column: 1)
        let formats = (1...8).map { OpenAPILoadProblem(kind: .unknownFormat("f\($0)"), location: at) }
        let nullable = (1...3).map { line in
            OpenAPILoadProblem(
                kind: .nullableInOpenAPI31(value: true, addedTo: "type"),
                location: SourceLocation(file: rootPath, line: line, column: 1))
        }
        let summary = OpenAPIWarningSummary(formats + nullable)
        // Five formats; the same nullable message at three places is shown once.
        #expect(summary.shown.map(\.kindName) == Array(repeating: "unknown-format", count: 5) + ["nullable-in-3.1"])
        #expect(
            summary.omitted.map(\.description) == [
                "... and 3 more of kind unknown-format", "... and 2 more of kind nullable-in-3.1",
            ])
        #expect(OpenAPIWarningSummary([]).shown.isEmpty && OpenAPIWarningSummary([]).omitted.isEmpty)
    }
}
