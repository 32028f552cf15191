import APITestJSON
import APITestJSONSchema
import Testing

/// `pattern` and `patternProperties` are ECMA-262 patterns matched by `LinearRegex`: in linear time on any text,
/// code point by code point, with ECMA-262's meanings; what needs backtracking is a located schema error.
@Suite struct SchemaLinearPatternTests {
    // MARK: - Non-ASCII text

    /// ICU gave up on 200,000 `é` (its backtracking stack) and answered "no match": `pattern` failed a valid value,
    /// and `not: {pattern}` passed a violating one.
    @Test func aLongNonASCIIValueIsMatched() throws {
        let text = String(repeating: "é", count: 200_000)
        let instance = JSONValue.array([.string(text)])
        let matching = try JSONSchema(obj(["items": obj(["pattern": .string("^(é|ê)*$")])]))
        #expect(matching.validate(instance).isValid)
        let negated = try JSONSchema(
            obj(["items": obj(["not": obj(["pattern": .string("^(é|ê)*$")])])]))
        #expect(!negated.validate(instance).isValid)
        let tape = try JSONTape(parsing: JSONWriter.bytes(instance))
        #expect(matching.validate(tape).isValid)
        #expect(!negated.validate(tape).isValid)
    }

    /// Nested stars on a failing non-ASCII text: exponential for a backtracking engine, a bounded number of steps per
    /// character here (counted, not timed).
    @Test func nestedStarsOnNonASCIITextTakeLinearSteps() throws {
        let regex = try SchemaRegex.compile("^(é*)*b$")
        var shortSteps = 0
        var longSteps = 0
        #expect(!regex.matchesWithLinearRegex(String(repeating: "é", count: 1_000), steps: &shortSteps))
        #expect(!regex.matchesWithLinearRegex(String(repeating: "é", count: 10_000), steps: &longSteps))
        #expect(shortSteps < 100 * 1_000)
        #expect(longSteps <= 11 * shortSteps)
        #expect(regex.matches(String(repeating: "é", count: 1_000) + "b"))
        let schema = try JSONSchema(obj(["pattern": .string("^(é*)*b$")]))
        #expect(!schema.validate(.string(String(repeating: "é", count: 1_000))).isValid)
    }

    // MARK: - ECMA-262 meanings

    @Test(arguments: [
        ("^\\d$", "٣", false), ("^\\d$", "7", true), ("^\\w$", "é", false), ("^\\W$", "é", true),
        ("^\\s$", "\u{FEFF}", true), ("^\\s$", "\u{85}", false), ("^[\\S]$", "\u{85}", true),
        ("^[\\D]$", "٣", true), ("^.$", "\u{85}", true), ("^.$", "\n", false), ("^.$", "😀", true),
        ("^abc$", "abc\n", false), ("^\\u{1F600}$", "😀", true), ("^\\uD83D\\uDE00$", "😀", true),
        ("^\\u00e9$", "é", true), ("^\\u00e9$", "e\u{301}", false), ("[]", "a", false), ("^[^]$", "\n", true),
        ("^[[]$", "[", true), ("^[a&&b]+$", "&&", true), ("^\\cJ$", "\n", true), ("^[\\b]$", "\u{8}", true),
        ("^\\v$", "\u{B}", true), ("\\0", "\u{0}", true), ("^\\p{Letter}+$", "éa", true),
        ("^[\\P{gc=Nd}]$", "٣", false), ("^\\p{Lu}$", "É", true),
    ])
    func patternsReadAsECMA262(_ pattern: String, _ text: String, _ expected: Bool) throws {
        let regex = try SchemaRegex.compile(pattern)
        #expect(regex.matches(text) == expected, "\(pattern) on \(text.debugDescription)")
    }

    // MARK: - Refused at compile time

    @Test(arguments: [
        ("(?=a)a", "look-ahead", 1), ("^x(?<!a)b", "look-behind", 3), ("(a)\\1", "back-reference", 4),
        ("\\Aabc", "not ECMA-262", 1), ("a(b", "not closed", 2), ("[ab", "not closed", 1),
    ])
    func patternsThatCannotRunInLinearTimeAreLocatedSchemaErrors(
        _ pattern: String, _ phrase: String, _ character: Int
    ) {
        #expect(throws: SchemaRegex.PatternError.self) { try SchemaRegex.compile(pattern) }
        do {
            _ = try JSONSchema(obj(["properties": obj(["a": obj(["pattern": .string(pattern)])])]))
            Issue.record("\(pattern) compiled")
        } catch {
            #expect(error.kind == .invalidSchema)
            #expect(error.schemaPath == "/properties/a/pattern")
            #expect(error.reason.contains(phrase), "\(error.reason)")
            #expect(error.reason.contains("at character \(character)"), "\(error.reason)")
        }
    }

    @Test func aPatternPropertiesKeyThatCannotRunIsAnError() {
        do {
            _ = try JSONSchema(obj(["patternProperties": obj(["^(?=x)": obj([:])])]))
            Issue.record("compiled")
        } catch {
            #expect(error.kind == .invalidSchema)
            #expect(error.schemaPath.hasPrefix("/patternProperties"))
            #expect(error.reason.contains("look-ahead"), "\(error.reason)")
        }
    }
}
