import APITestJSON
import APITestJSONSchema
import Testing

/// JSON Schema compares strings and member names by code points: `"e\u0301"` (e and a combining acute) is not
/// `"\u00e9"` (é), though Swift's `String ==` says they are. On a value tree and on a tape alike.
struct CodePointSchemaTests {
    /// The result of `schemaText` on `instanceText`, on a tape and on a value tree (which must agree).
    private func validate(_ schemaText: String, _ instanceText: String) throws -> JSONSchemaValidationResult {
        let schema = try JSONSchema(JSONParser.parse(schemaText))
        let tapeResult = schema.validate(try JSONTape(parsing: Array(instanceText.utf8)))
        let treeResult = schema.validate(try JSONParser.parse(instanceText))
        #expect(tapeResult.isValid == treeResult.isValid)
        #expect(tapeResult.errors == treeResult.errors)
        return tapeResult
    }

    @Test func constAndEnumCompareCodePoints() throws {
        #expect(try !validate(#"{"const": "\u00e9"}"#, #""e\u0301""#).isValid)
        #expect(try validate(#"{"const": "\u00e9"}"#, "\"\u{E9}\"").isValid)
        #expect(try !validate(#"{"enum": ["\u2126"]}"#, #""\u03a9""#).isValid)
        #expect(try !validate(#"{"const": {"\u00e9": 1}}"#, #"{"e\u0301": 1}"#).isValid)
    }

    @Test func uniqueItemsCompareCodePoints() throws {
        #expect(try validate(#"{"uniqueItems": true}"#, #"["\u00e9", "e\u0301"]"#).isValid)
        #expect(try validate(#"{"uniqueItems": true}"#, #"[{"\u00e9": 1}, {"e\u0301": 1}]"#).isValid)
        #expect(try !validate(#"{"uniqueItems": true}"#, #"["\u00e9", "\u00e9"]"#).isValid)
    }

    @Test func memberNamesCompareCodePoints() throws {
        // `required` is not met by a canonically equivalent name.
        #expect(try !validate(#"{"required": ["\u00e9"]}"#, #"{"e\u0301": 1}"#).isValid)
        #expect(try !validate(#"{"required": ["\u00e9"]}"#, "{\"e\u{301}\": 1}").isValid)
        #expect(try validate(#"{"required": ["\u00e9"]}"#, "{\"\u{E9}\": 1}").isValid)
        // `properties` applies to the member of exactly its name.
        #expect(try validate(#"{"properties": {"\u00e9": {"type": "integer"}}}"#, #"{"e\u0301": "x"}"#).isValid)
        #expect(try !validate(#"{"properties": {"\u00e9": {"type": "integer"}}}"#, #"{"\u00e9": "x"}"#).isValid)
        // A member not named in `properties` is additional.
        #expect(
            try !validate(
                #"{"properties": {"\u00e9": {}}, "additionalProperties": false}"#, #"{"e\u0301": 1}"#
            ).isValid)
        #expect(
            try !validate(
                #"{"properties": {"\u00e9": {}}, "unevaluatedProperties": false}"#, #"{"e\u0301": 1}"#
            ).isValid)
        #expect(try !validate(#"{"dependentRequired": {"a": ["\u00e9"]}}"#, #"{"a": 1, "e\u0301": 1}"#).isValid)
    }
}
