import APITestJSON
import APITestJSONSchema
import Foundation
import Testing

/// Verdicts of the quick check over a tape's bytes (`TapeText`, `ScalarPlan`, the deterministic pattern automaton) on
/// texts whose values do not start where a plain reader would look: leading whitespace, whitespace around members
/// and elements, a number at the end of the text, and ECMA-262 pattern features on plain ASCII strings.
struct SchemaTapeTextEdgeTests {
    /// Holds the full evaluation of `instanceText` as a tape to `expected`; the quick check may decline.
    private func expectVerdict(
        _ schemaText: String, _ instanceText: String, _ expected: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectTapeVerdict(schemaText, instanceText, expected, quick: .mayDecline, sourceLocation: sourceLocation)
    }

    @Test func valuesAfterWhitespaceAreReadWhereTheyStart() throws {
        let schema =
            #"{"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$", "enum": ["ab", "abc"]}"#
        try expectVerdict(schema, "  \"ab\"", true)
        try expectVerdict(schema, "\n\t \"abc\"  \n", true)
        try expectVerdict(schema, "  \"a\"", false)
        try expectVerdict(schema, "\r\n\"abcd\"", false)
        let object =
            #"{"properties": {"id": {"type": "integer", "maximum": 9}, "n": {"const": "x"}}, "required": ["id"]}"#
        try expectVerdict(object, "{ \"id\" :\n 9 , \"n\"  :  \"x\" }", true)
        try expectVerdict(object, "{ \"id\" :\n 10 , \"n\"  :  \"x\" }", false)
        try expectVerdict(object, "{ \"id\" :\n 9 , \"n\"  :  \"y\" }", false)
        try expectVerdict(object, "  {\"id\":9}", true)
        try expectVerdict(#"{"type": "integer", "minimum": 5}"#, "   7", true)
        try expectVerdict(#"{"type": "integer", "minimum": 5}"#, "4", false)
        try expectVerdict(#"{"minimum": 5}"#, "[ 4 ,7 ]", true)
        try expectVerdict(#"{"items": {"type": "integer", "minimum": 5}}"#, "[ 4 ,7 ]", false)
        try expectVerdict(#"{"items": {"type": "integer", "maximum": 5}}"#, "[5,\n-5 , 5.0,50e-1]", true)
        try expectVerdict(#"{"items": {"type": "integer", "maximum": 5}}"#, "[5,6]", false)
    }

    @Test func aTextWithAByteOrderMarkIsReadAfterIt() throws {
        let text = Array("\u{FEFF}\"ab\"".utf8)
        let tape = try JSONTape(parsing: text)
        let schema = try JSONSchema(JSONParser.parse(#"{"type": "string", "maxLength": 2, "enum": ["ab"]}"#))
        #expect(schema.validate(tape).isValid)
        #expect(schema.quickVerdict(tape) != false)
        let longer = try JSONTape(parsing: Array("\u{FEFF}\"abc\"".utf8))
        #expect(!schema.validate(longer).isValid)
        #expect(schema.quickVerdict(longer) != true)
    }

    @Test func eCMAPatternsOnPlainASCIIStrings() throws {
        for (pattern, instance, valid) in [
            (#"^\w+$"#, "a_9", true), (#"^\w+$"#, "a-9", false), (#"^\d{3}$"#, "123", true),
            (#"^\d{3}$"#, "1234", false), (#"\bcat\b"#, "a cat!", true), (#"\bcat\b"#, "concat", false),
            (#"^\S+$"#, "a b", false), (#"^[^a-c]*$"#, "xyz", true), (#"^[^a-c]*$"#, "xbz", false),
            ("^a.c$", "a~c", true), ("^a$", "A", false), ("abc", "xxabcxx", true), ("^$", "", true),
            (#"^\x41$"#, "A", true), (#"^\u0041$"#, "A", true), (#"^[\u0041-\u0043]+$"#, "ABCA", true),
            ("^é?a$", "a", true), ("^[^é]+$", "abc", true), (#"^\p{L}+$"#, "abc", true), (#"^\p{L}+$"#, "ab1", false),
            ("^(?:ab|cd)+$", "abcdab", true), ("^(?:ab|cd)+$", "abcda", false), ("^a{2,3}$", "aaaa", false),
        ] {
            try expectVerdict(
                #"{"type": "string", "pattern": "\#(pattern.replacingOccurrences(of: "\\", with: "\\\\"))"}"#,
                "\"\(instance)\"", valid)
        }
    }
}
