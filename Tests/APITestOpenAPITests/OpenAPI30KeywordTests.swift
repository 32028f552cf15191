import APITestOpenAPI
import APITestSupport
import Testing

/// An OpenAPI 3.0 schema that uses a JSON Schema 2020-12 keyword that 3.0's Schema Object lacks is checked as
/// 2020-12 defines it, with a warning at the keyword: a response that violates it fails, as it would under 3.1.0.
/// (Before, the 3.0 translation dropped such keywords: the violating responses passed without a word.)
struct OpenAPI30KeywordTests {
    /// One keyword: the schema that uses it (YAML flow), a body that violates it and one that meets it.
    struct Case: CustomTestStringConvertible, Sendable {
        var keyword: String
        var schema: String
        var violating: String
        var valid: String

        var testDescription: String { keyword }
    }

    static let cases: [Case] = [
        Case(keyword: "const", schema: "{type: string, const: cat}", violating: #""dog""#, valid: #""cat""#),
        Case(
            keyword: "patternProperties", schema: "{type: object, patternProperties: {'^n_': {type: integer}}}",
            violating: #"{"n_a": "x"}"#, valid: #"{"n_a": 1, "other": "x"}"#),
        Case(
            keyword: "prefixItems", schema: "{type: array, prefixItems: [{type: string}, {type: integer}]}",
            violating: #"["a", "b"]"#, valid: #"["a", 1, true]"#),
        Case(
            keyword: "unevaluatedProperties",
            schema: "{type: object, properties: {id: {type: integer}}, unevaluatedProperties: false}",
            violating: #"{"id": 1, "extra": 2}"#, valid: #"{"id": 1}"#),
        Case(
            keyword: "unevaluatedItems",
            schema: "{type: array, prefixItems: [{type: integer}], unevaluatedItems: false}",
            violating: "[1, 2]", valid: "[1]"),
        Case(
            keyword: "contains", schema: "{type: array, contains: {type: integer, minimum: 10}}", violating: "[1, 2]",
            valid: "[1, 20]"),
        Case(
            keyword: "minContains", schema: "{type: array, contains: {type: integer}, minContains: 2}",
            violating: #"[1, "a"]"#, valid: "[1, 2]"),
        Case(
            keyword: "maxContains", schema: "{type: array, contains: {type: integer}, maxContains: 1}",
            violating: "[1, 2]", valid: #"[1, "a"]"#),
        Case(
            keyword: "dependentRequired", schema: "{type: object, dependentRequired: {card: [billing]}}",
            violating: #"{"card": 1}"#, valid: #"{"card": 1, "billing": 2}"#),
        Case(
            keyword: "dependentSchemas",
            schema: "{type: object, dependentSchemas: {card: {required: [billing]}}}",
            violating: #"{"card": 1}"#, valid: #"{"card": 1, "billing": 2}"#),
        Case(
            keyword: "propertyNames", schema: "{type: object, propertyNames: {maxLength: 3}}",
            violating: #"{"toolong": 1}"#, valid: #"{"ok": 1}"#),
        Case(
            keyword: "if",
            schema: "{type: object, if: {required: [kind]}, then: {required: [name]}, else: {required: [id]}}",
            violating: #"{"kind": 1}"#, valid: #"{"kind": 1, "name": "x"}"#),
    ]

    /// A 3.0 (or 3.1) document whose operation `x` returns `schema` as JSON, nested under `components` and a
    /// property so that the keyword's place is deep in the document.
    private func contract(_ version: String, _ schema: String) throws -> (OpenAPIContract, OpenAPIOperation) {
        let yaml = """
            openapi: \(version)
            paths:
              /x:
                get:
                  operationId: x
                  responses:
                    '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Box'}}}}
            components:
              schemas:
                Box:
                  type: object
                  properties:
                    value: \(schema)
            """
        let contract = try inlineContract(yaml)
        return (contract, try operation(contract, "x"))
    }

    private func violations(_ pair: (OpenAPIContract, OpenAPIOperation), _ value: String) -> [ContractViolation] {
        pair.0.checkResponse(pair.1, jsonResponse(200, #"{"value": \#(value)}"#)).violations
    }

    @Test(arguments: cases)
    func aKeywordMissingFrom30IsCheckedWithAWarning(_ keywordCase: Case) throws {
        let pair = try contract("3.0.3", keywordCase.schema)
        #expect(!violations(pair, keywordCase.violating).isEmpty, "the violating response fails")
        #expect(violations(pair, keywordCase.valid).isEmpty, "the valid response passes")
        // The same verdicts as under 3.1.0, where the keyword is 2020-12's own, without a warning.
        let modern = try contract("3.1.0", keywordCase.schema)
        #expect(!violations(modern, keywordCase.violating).isEmpty)
        #expect(modern.0.warnings.isEmpty)
        // One warning a keyword, at the keyword (line 13 holds `value:`), naming it.
        let warnings = pair.0.warnings
        #expect(warnings.contains { $0.kind == .keywordNotInOpenAPI30(keyword: keywordCase.keyword) })
        for warning in warnings {
            #expect(warning.location.line == 13, "\(warning)")
            #expect(warning.location.file.hasSuffix("openapi.yaml"))
        }
        let named = warnings.compactMap { warning -> String? in
            if case .keywordNotInOpenAPI30(let keyword) = warning.kind { return keyword }
            return nil
        }
        #expect(Set(named).count == named.count, "each keyword warned once")
        #expect(
            warnings.first { $0.kind == .keywordNotInOpenAPI30(keyword: keywordCase.keyword) }?.message
                == "'\(keywordCase.keyword)' is not a keyword of OpenAPI 3.0's Schema Object: it is checked as JSON "
                + "Schema 2020-12 (OpenAPI 3.1) defines it; declare openapi: 3.1.0 to use 2020-12 keywords as such")
    }

    /// The keywords' subschemas are 3.0 schemas too: `nullable` inside `prefixItems` adds null.
    @Test func subschemasOfTheseKeywordsAreTranslatedAs30() throws {
        let pair = try contract("3.0.3", "{type: array, prefixItems: [{type: string, nullable: true}]}")
        #expect(violations(pair, "[null]").isEmpty)
        #expect(!violations(pair, "[1]").isEmpty)
    }
}
