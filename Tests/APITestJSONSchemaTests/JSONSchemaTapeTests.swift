import APITestJSON
import APITestJSONSchema
import Testing

/// A schema checks a document read in place (a `JSONTape`) exactly as it checks the same document's value tree,
/// including what a tree settles on its own: repeated member names, exact numbers, member order.
struct JSONSchemaTapeTests {
    /// The result of `schemaText` on `instanceText` as a tape, after checking that the tree gives the same.
    private func validate(_ schemaText: String, _ instanceText: String) throws -> JSONSchemaValidationResult {
        let schema = try JSONSchema(JSONParser.parse(schemaText))
        let tapeResult = schema.validate(try JSONTape(parsing: Array(instanceText.utf8)))
        let treeResult = schema.validate(try JSONParser.parse(instanceText))
        #expect(tapeResult.isValid == treeResult.isValid)
        #expect(tapeResult.errors == treeResult.errors)
        return tapeResult
    }

    @Test func aRepeatedMemberNameCountsOnceWithItsLastValue() throws {
        let typed = try validate(#"{"properties": {"a": {"type": "integer"}}}"#, #"{"a": 1, "a": "x"}"#)
        #expect(typed.errors.map(\.message) == ["must be integer, got string"])
        let counted = try validate(#"{"minProperties": 2}"#, #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(counted.isValid)
        let tooFew = try validate(#"{"minProperties": 3}"#, #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(tooFew.errors.map(\.message) == ["must have at least 3 properties, got 2"])
        // A large object takes the hashed path to find its repeated names.
        let members = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let large = try validate(
            #"{"properties": {"k7": {"const": "last"}}, "maxProperties": 40}"#, "{\(members), \"k7\": \"last\"}")
        #expect(large.isValid)
    }

    @Test func uniqueItemsComparesExactValuesWhateverTheOrderOfMembers() throws {
        let schema = #"{"uniqueItems": true}"#
        #expect(try validate(schema, "[12345678901234567890, 12345678901234567891]").isValid)
        #expect(
            try validate(schema, "[3, 1, 1.0]").errors.map(\.message) == [
                "must not contain duplicates: items 1 and 2 are equal"
            ])
        #expect(
            try validate(schema, #"[{"a": 1, "b": [2]}, 3, {"b": [2.0], "a": 1}, 3]"#).errors.map(\.message) == [
                "must not contain duplicates: items 0 and 2 are equal"
            ])
        // Code points, not canonical equivalence: é and e + U+0301 differ.
        #expect(try validate(schema, #"["\u00e9", "e\u0301"]"#).isValid)
        let many = (0..<5000).map(String.init).joined(separator: ",")
        #expect(try validate(schema, "[\(many)]").isValid)
        #expect(
            try validate(schema, "[\(many),4999,17]").errors.map(\.message) == [
                "must not contain duplicates: items 4999 and 5000 are equal"
            ])
    }

    @Test func aFailureShowsAShortFormOfALargeValue() throws {
        let items = (0..<100_000).map(String.init).joined(separator: ",")
        let result = try validate(#"{"const": [1, 2]}"#, "[\(items)]")
        let message = try #require(result.errors.first?.message)
        #expect(message.hasPrefix("must be equal to [1,2], got [0,1,2,3,4,5,"))
        #expect(message.hasSuffix("..."))
        #expect(message.count < 120)
    }

    @Test func propertyNamesAreCheckedAsStrings() throws {
        let result = try validate(#"{"propertyNames": {"maxLength": 3}}"#, #"{"abc": 1, "abcd": 2, "a\u0062cde": 3}"#)
        #expect(
            result.errors.map(\.message) == [
                #"property name "abcd": must be at most 3 characters long, got 4"#,
                #"property name "abcde": must be at most 3 characters long, got 5"#,
            ])
    }

    @Test func aTapeWithoutNullMembersIsTheTreeWithoutThem() throws {
        let text = #"{"a": null, "b": [{"c": null, "d": 1}, null], "e": {"f": null}, "g": null}"#
        let tape = try JSONTape(parsing: Array(text.utf8), droppingNullMembers: true)
        #expect(tape.root == (try JSONParser.parse(#"{"b": [{"d": 1}, null], "e": {}}"#)))
        let schema = try JSONSchema(JSONParser.parse(#"{"required": ["a"]}"#))
        #expect(schema.validate(tape).errors.map(\.message) == [#"missing required property "a""#])
        #expect(schema.validate(try JSONTape(parsing: Array(text.utf8))).isValid)
    }
}
