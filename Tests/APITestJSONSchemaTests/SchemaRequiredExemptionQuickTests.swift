import APITestJSON
import APITestJSONSchema
import Testing

/// A schema read for one direction (`exemptingRequired(annotatedWith:)`: a request need not send its `readOnly`
/// properties) gives the same verdict from the quick check as from the full evaluation, where an object plan
/// decides `required` and a `not` or a `oneOf` turns a failing subschema into a pass.
struct SchemaRequiredExemptionQuickTests {
    private func expectVerdict(
        _ schemaText: String, _ instanceText: String, _ expected: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let schema = try JSONSchema(JSONParser.parse(schemaText)).exemptingRequired(annotatedWith: ["readOnly"])
        let tape = try JSONTape(parsing: Array(instanceText.utf8))
        let value = try JSONParser.parse(instanceText)
        #expect(schema.validate(tape).isValid == expected, "tape \(instanceText)", sourceLocation: sourceLocation)
        #expect(schema.validate(value).isValid == expected, "value \(instanceText)", sourceLocation: sourceLocation)
        let quick = schema.quickVerdict(tape)
        #expect(quick == nil || quick == expected, "quick check of \(instanceText)", sourceLocation: sourceLocation)
    }

    @Test func anExemptRequiredPropertyUnderNotOrOneOf() throws {
        let inner = #"{"required": ["id"], "properties": {"id": {"readOnly": true}}}"#
        // The exempt `id` need not be there: the inner schema holds for {}, so `not` fails.
        try expectVerdict(#"{"not": \#(inner)}"#, "{}", false)
        try expectVerdict(#"{"not": \#(inner)}"#, #"{"id": 1}"#, false)
        try expectVerdict(inner, "{}", true)
        // Both branches hold for {} once `id` is exempt: not exactly one.
        try expectVerdict(#"{"oneOf": [\#(inner), {"type": "object"}]}"#, "{}", false)
    }
}
