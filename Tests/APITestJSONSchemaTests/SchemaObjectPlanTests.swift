import APITestJSON
import APITestJSONSchema
import Testing

/// The quick check reads an object schema's `properties`, `additionalProperties` and `required` in one pass over
/// the members (`ObjectPlan`): every verdict it gives is the full evaluation's, on a tape and on a value tree,
/// for the cases where the three keywords meet (a required name `properties` does not declare, a repeated member,
/// other keywords beside them, the keywords on a value that is not an object).
struct SchemaObjectPlanTests {
    /// The quick verdicts on a tape and on a value, and the full evaluation's verdict.
    private func verdicts(
        _ schemaText: String, _ instanceText: String
    ) throws -> (
        tape: Bool?, value: Bool?, evaluated: Bool
    ) {
        let schema = try JSONSchema(JSONParser.parse(schemaText))
        let value = try JSONParser.parse(instanceText)
        return (
            schema.quickVerdict(try JSONTape(parsing: Array(instanceText.utf8))), schema.quickVerdict(value),
            schema.validate(value).isValid
        )
    }

    /// Checks that both quick verdicts are `expected`, and that the evaluator agrees.
    private func expectVerdict(
        _ schemaText: String, _ instanceText: String, _ expected: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let found = try verdicts(schemaText, instanceText)
        #expect(found.evaluated == expected, "evaluator on \(instanceText)", sourceLocation: sourceLocation)
        #expect(found.tape == expected, "quick check of a tape on \(instanceText)", sourceLocation: sourceLocation)
        #expect(found.value == expected, "quick check of a value on \(instanceText)", sourceLocation: sourceLocation)
    }

    @Test func aRequiredNameThatPropertiesDoesNotDeclareIsStillAdditional() throws {
        let schema = #"""
            {"properties": {"a": {"type": "integer"}}, "required": ["a", "b"], "additionalProperties": false}
            """#
        try expectVerdict(schema, #"{"a": 1}"#, false)
        try expectVerdict(schema, #"{"a": 1, "b": 2}"#, false)
        let typed = #"""
            {"properties": {"a": {"type": "integer"}}, "required": ["b"], "additionalProperties": {"type": "string"}}
            """#
        try expectVerdict(typed, #"{"b": "x"}"#, true)
        try expectVerdict(typed, #"{"b": 2}"#, false)
        try expectVerdict(typed, #"{"a": 1, "b": "x", "c": "y"}"#, true)
        try expectVerdict(typed, #"{"a": "1", "b": "x"}"#, false)
    }

    @Test func requiredAloneAndRepeatedNames() throws {
        try expectVerdict(#"{"required": ["a", "a", "b"]}"#, #"{"b": 1, "a": null}"#, true)
        try expectVerdict(#"{"required": ["a", "a", "b"]}"#, #"{"b": 1}"#, false)
        try expectVerdict(#"{"required": []}"#, "{}", true)
        // A repeated member counts once, with its last value.
        let schema = #"{"properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false}"#
        try expectVerdict(schema, #"{"a": "x", "a": 1}"#, true)
        try expectVerdict(schema, #"{"a": 1, "a": "x"}"#, false)
    }

    @Test func theKeywordsHoldForAValueThatIsNotAnObject() throws {
        let schema = #"{"properties": {"a": false}, "required": ["a"], "additionalProperties": false}"#
        for instance in ["1", #""a""#, "[1]", "null", "true"] { try expectVerdict(schema, instance, true) }
        try expectVerdict(schema, "{}", false)
        try expectVerdict(schema, #"{"a": 1}"#, false)
    }

    @Test func otherKeywordsBesideThePlanStillCount() throws {
        let schema = #"""
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "maxProperties": 2,
             "propertyNames": {"maxLength": 1}, "patternProperties": {"^x": {"type": "string"}}}
            """#
        try expectVerdict(schema, #"{"a": 1, "x": "s"}"#, true)
        try expectVerdict(schema, #"{"a": 1, "x": 2}"#, false)
        try expectVerdict(schema, #"{"a": 1, "b": 2, "c": 3}"#, false)
        try expectVerdict(schema, #"{"a": 1, "bb": 2}"#, false)
        try expectVerdict(schema, #"{"x": "s"}"#, false)
        // `additionalProperties` beside `patternProperties` is left to the keywords one by one.
        let patterned = #"""
            {"properties": {"a": {}}, "patternProperties": {"^x": {}}, "additionalProperties": false, "required": ["a"]}
            """#
        try expectVerdict(patterned, #"{"a": 1, "x1": 2}"#, true)
        try expectVerdict(patterned, #"{"a": 1, "y": 2}"#, false)
    }

    @Test func namesCompareByCodePoints() throws {
        // `é` precomposed and decomposed are different names; a longer or shorter name is another name.
        let schema = #"""
            {"properties": {"caf\u00e9": {"type": "integer"}, "ab": {"type": "string"}}, "additionalProperties": false}
            """#
        try expectVerdict(schema, #"{"caf\u00e9": 1}"#, true)
        try expectVerdict(schema, #"{"cafe\u0301": 1}"#, false)
        try expectVerdict(schema, #"{"ab": "x", "a": "x"}"#, false)
        try expectVerdict(schema, #"{"abc": "x"}"#, false)
    }

    @Test func aSchemaWithMoreNamesThanThePlanHoldsIsCheckedAllTheSame() throws {
        let names = (0..<70).map { "p\($0)" }
        let properties = names.map { #""\#($0)": {"type": "integer"}"# }.joined(separator: ", ")
        let required = names.map { #""\#($0)""# }.joined(separator: ", ")
        let schema = #"{"properties": {\#(properties)}, "required": [\#(required)], "additionalProperties": false}"#
        let all = "{" + names.map { #""\#($0)": 1"# }.joined(separator: ", ") + "}"
        try expectVerdict(schema, all, true)
        try expectVerdict(schema, #"{"p0": 1}"#, false)
    }

    @Test func stringLengthsCountCodePointsNotBytes() throws {
        // Four bytes, one code point; two bytes, one code point.
        try expectVerdict(#"{"maxLength": 1}"#, #""😀""#, true)
        try expectVerdict(#"{"minLength": 2}"#, #""😀""#, false)
        try expectVerdict(#"{"minLength": 2}"#, #""éé""#, true)
        try expectVerdict(#"{"minLength": 3}"#, #""éé""#, false)
        try expectVerdict(#"{"maxLength": 2}"#, #""ééé""#, false)
        try expectVerdict(#"{"minLength": 1}"#, #""""#, false)
    }
}
