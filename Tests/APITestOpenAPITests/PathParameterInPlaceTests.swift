import APITestOpenAPI
import Testing

/// A whole-segment path parameter read as a string that its schema accepts from the segment's bytes in place (no
/// value made, nothing validated) gets the verdict of the value validated: held against the same parameter under
/// a schema the in-place read cannot decide (`allOf` around it), over ASCII, percent-encoded, non-ASCII, quoted,
/// empty-looking and huge segments; an invalid value is still reported as before, with its message.
struct PathParameterInPlaceTests {
    /// A document with `GET /items/{file}` whose `file` has `schema` (YAML flow text).
    private func contract(_ schema: String) throws -> OpenAPIContract {
        try inlineContract(
            """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /items/{file}:
                get:
                  operationId: getItem
                  parameters:
                    - {name: file, in: path, required: true, schema: \(schema)}
                  responses:
                    '200': {description: an item}
            """)
    }

    /// The request violations of a `GET` of `url` against `contract`.
    private func violations(_ contract: OpenAPIContract, _ url: String) -> [ContractViolation] {
        contract.checkExchange(
            ContractRequest(method: "GET", url: url, headers: []),
            ContractResponse(status: 200, headers: [], body: ContractDataBody(text: "")), readsPathParameters: false
        ).requestViolations
    }

    private let segments = [
        "1.json", "42.json", "x.json", ".json", "1.jsonx", "1.JSON", "%31.json", "caf%C3%A9.json", "café.json",
        "1%2Fjson", "a%22b.json", "a%5Cb.json", "%00.json", "1%20.json", "%E2%9C%93", "%FF.json", "-1", "0", "12",
        "true", "null", "", String(repeating: "7", count: 100_000) + ".json", String(repeating: "é", count: 5_000),
    ]

    @Test func stringSchemasGiveTheVerdictsOfTheValueValidated() throws {
        for schema in [
            #"{type: string, pattern: '^[0-9]+\.json$'}"#, "{type: string, minLength: 2, maxLength: 6}",
            "{type: string, enum: [1.json, café.json, x.json]}", "{type: string}", "{const: 42.json}", "{}",
            "{type: [string, 'null']}", #"{type: string, pattern: '^\p{L}+\.json$'}"#,
        ] {
            let inPlace = try contract(schema)
            let evaluated = try contract("{allOf: [\(schema)]}")
            for segment in segments {
                let url = "http://h/items/\(segment)"
                let fast = violations(inPlace, url)
                let slow = violations(evaluated, url)
                #expect(fast.isEmpty == slow.isEmpty, "\(schema) on \(segment.prefix(40)): \(fast) against \(slow)")
                #expect(fast.count == slow.count, "\(schema) on \(segment.prefix(40))")
            }
        }
    }

    @Test func typedSchemasStillReadTheirValues() throws {
        // Integers, booleans and null are read from the text before validating: not a string accepted in place.
        for (schema, segment, valid) in [
            ("{type: integer, minimum: 1}", "12", true), ("{type: integer, minimum: 1}", "0", false),
            ("{type: integer}", "1.json", false), ("{type: [integer, string], pattern: '^a$'}", "7", true),
            ("{type: [integer, string], pattern: '^a$'}", "b", false), ("{type: boolean}", "true", true),
            ("{type: boolean}", "yes", false), ("{type: 'null'}", "null", true), ("{type: 'null'}", "x", false),
        ] {
            let found = violations(try contract(schema), "/items/\(segment)")
            #expect(found.isEmpty == valid, "\(schema) on \(segment): \(found)")
        }
    }

    @Test func anInvalidValueIsReportedAsBefore() throws {
        let found = violations(try contract(#"{type: string, pattern: '^[0-9]+\.json$'}"#), "/items/x.json")
        #expect(found.count == 1)
        #expect(found.first?.instancePath == "path file")
        #expect(found.first?.message.contains("must match the pattern") == true, "\(found)")
    }
}
