import APITestJSON
import APITestJSONSchema
import APITestTestSupport
import Testing

/// The quick check of a tape reads member names, strings and plain integers over the text's bytes as written
/// (`TapeText`), and a pattern's automaton runs in a deterministic form (`ASCIIPattern.DFA`). Every verdict stays
/// the full evaluation's: names and strings with escapes or beyond ASCII, repeated names, numbers that are not plain
/// integers, and text outside printable ASCII all take the decoding path, and the deterministic automaton answers as
/// the one it was made from.
struct SchemaTapeTextTests {
    /// Holds the full evaluation of `instanceText` as a tape and the quick check's answer (which must be given) to `expected`.
    private func expectVerdict(
        _ schemaText: String, _ instanceText: String, _ expected: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectTapeVerdict(schemaText, instanceText, expected, quick: .answers, sourceLocation: sourceLocation)
    }

    private static let item = #"""
        {"type": "object", "required": ["id", "name"], "additionalProperties": false,
         "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string", "minLength": 2,
         "maxLength": 4, "pattern": "^[a-z]+$"}, "role": {"enum": ["admin", "user", 3]}, "tag": {"const": "x"}}}
        """#

    @Test func namesAsWrittenAreComparedByteForByte() throws {
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab"}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "extra": 1}"#, false)
        try expectVerdict(Self.item, #"{"id": 1}"#, false)
        // An escaped name is the same name: decoded, not compared as written.
        try expectVerdict(Self.item, #"{"\u0069d": 1, "name": "ab"}"#, true)
        try expectVerdict(Self.item, #"{"i\u0064": 0, "name": "ab"}"#, false)
        // A name beyond ASCII is another name (no normalization).
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "nämé": 1}"#, false)
    }

    @Test func aRepeatedNameCountsOnceWithItsLastValue() throws {
        // The first value is invalid and the last is valid: the names are read to the end before the verdict.
        try expectVerdict(Self.item, #"{"id": 0, "name": "ab", "id": 2}"#, true)
        try expectVerdict(Self.item, #"{"id": 2, "name": "ab", "id": 0}"#, false)
        try expectVerdict(Self.item, #"{"id": 2, "name": "ab", "i\u0064": 0}"#, false)
        let open = #"{"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string"}}"#
        try expectVerdict(open, #"{"b": 1, "b": "x"}"#, true)
        try expectVerdict(open, #"{"b": "x", "b": 1}"#, false)
    }

    @Test func stringsAsWrittenAndDecoded() throws {
        try expectVerdict(Self.item, #"{"id": 1, "name": "a"}"#, false)
        try expectVerdict(Self.item, #"{"id": 1, "name": "abcde"}"#, false)
        try expectVerdict(Self.item, #"{"id": 1, "name": "aB"}"#, false)
        // Escapes and code points beyond ASCII: the length counts code points, the pattern reads the decoded text.
        try expectVerdict(Self.item, #"{"id": 1, "name": "\u0061b"}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "a\nb"}"#, false)
        try expectVerdict(#"{"maxLength": 2}"#, #""éé""#, true)
        try expectVerdict(#"{"minLength": 3}"#, #""éé""#, false)
        try expectVerdict(#"{"minLength": 2}"#, #""\u00e9\u00e9""#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "role": "user"}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "role": "us\u0065r"}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "role": "users"}"#, false)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "role": 3}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "role": "3"}"#, false)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "tag": "x"}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "tag": "\u0078"}"#, true)
        try expectVerdict(Self.item, #"{"id": 1, "name": "ab", "tag": "y"}"#, false)
    }

    @Test func numbersThatAreNotPlainIntegersAreDecoded() throws {
        for (number, valid) in [
            ("1", true), ("0", false), ("-0", false), ("-5", false), ("2.0", true), ("1e1", true), ("1.5", false),
            ("0.5e1", true), ("123456789012345678", true), ("1234567890123456789", true),
            ("99999999999999999999", true), ("-99999999999999999999", false), ("1E2", true),
        ] {
            try expectVerdict(Self.item, #"{"id": \#(number), "name": "ab"}"#, valid)
        }
        try expectVerdict(#"{"maximum": 9223372036854775807}"#, "9223372036854775808", false)
        try expectVerdict(#"{"type": "integer"}"#, "-123456789012345678", true)
    }

    @Test func scalarNodesAreDecidedAsTheirKeywordsDecide() throws {
        let bounded = #"{"type": ["integer", "null"], "exclusiveMinimum": 1, "exclusiveMaximum": 5}"#
        for (instance, valid) in [
            ("1", false), ("2", true), ("4", true), ("5", false), ("null", true), ("4.0", true), ("4.5", false),
            (#""3""#, false), ("true", false), ("[]", false),
        ] {
            try expectVerdict(bounded, instance, valid)
            try expectValueVerdict(bounded, instance, valid)
        }
        let both = #"{"minimum": 2, "maximum": 2, "minLength": 2}"#
        for (instance, valid) in [
            ("2", true), ("3", false), ("2e0", true), (#""ab""#, true), (#""a""#, false), ("{}", true), ("null", true),
        ] {
            try expectVerdict(both, instance, valid)
            try expectValueVerdict(both, instance, valid)
        }
        // An enum with other values than strings, a limit that is not an integer: decided keyword by keyword.
        let mixed = #"{"enum": ["a", 1, null], "maximum": 1.5}"#
        for (instance, valid) in [(#""a""#, true), ("1", true), ("null", true), ("2", false), (#""b""#, false)] {
            try expectVerdict(mixed, instance, valid)
            try expectValueVerdict(mixed, instance, valid)
        }
        let strings = #"{"type": "string", "enum": ["a", "\u00e9"], "pattern": "^.$"}"#
        for (instance, valid) in [
            (#""a""#, true), (#""\u00e9""#, true), (#""é""#, true), (#""b""#, false), ("1", false),
            (#""\u007f""#, false),
        ] {
            try expectVerdict(strings, instance, valid)
            try expectValueVerdict(strings, instance, valid)
        }
        // DEL may be written as it is in JSON, but is outside the pattern automaton's text: LinearRegex answers.
        try expectVerdict(#"{"pattern": "^a.$"}"#, "\"a\u{7F}\"", true)
        try expectVerdict(#"{"pattern": "^a.$", "minLength": 3}"#, "\"a\u{7F}\"", false)
    }

    /// The quick verdict of `instanceText` as a value tree, and the full evaluation's verdict.
    private func expectValueVerdict(
        _ schemaText: String, _ instanceText: String, _ expected: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let schema = try JSONSchema(JSONParser.parse(schemaText))
        let value = try JSONParser.parse(instanceText)
        #expect(
            schema.validate(value).isValid == expected, "evaluator on \(instanceText)", sourceLocation: sourceLocation)
        #expect(
            schema.quickVerdict(value) == expected, "quick check of a value on \(instanceText)",
            sourceLocation: sourceLocation)
    }

    // MARK: - The deterministic automaton

    @Test func aPathParameterPatternRunsDeterministically() throws {
        let regex = try #require(SchemaRegex(#"^[0-9]+\.json$"#))
        #expect(regex.hasDeterministicAutomaton)
        #expect(regex.matches("123.json"))
        #expect(!regex.matches("123.jsonx"))
        #expect(!regex.matches(".json"))
    }

    @Test func aPatternWhoseDeterministicFormWouldExplodeIsSimulated() throws {
        // The 10th character from the end is an `a`: 2^10 subsets, past the 256 states a deterministic form may have.
        let regex = try #require(SchemaRegex("(a|b)*a(a|b){9}$"))
        #expect(regex.hasASCIIProgram)
        #expect(!regex.hasDeterministicAutomaton)
        #expect(regex.matches("bba" + String(repeating: "b", count: 9)))
        #expect(!regex.matches("bbbb" + String(repeating: "b", count: 9)))
    }

    @Test func theDeterministicAutomatonAnswersAsTheSimulatedOne() throws {
        var random = SplitMix64(seed: 20_261_130)
        var compared = 0
        var failures: [String] = []
        let patterns =
            SchemaRegexAutomatonTests.handWritten
            + (0..<300).map { _ in
                SchemaRegexAutomatonTests.generatedPattern(&random)
            }
        for pattern in patterns {
            guard let regex = SchemaRegex(pattern), regex.hasDeterministicAutomaton else { continue }
            for input in SchemaRegexAutomatonTests.inputs(for: pattern, count: 60, &random) {
                guard let simulated = regex.matchesBySimulation(input) else { continue }
                compared += 1
                if regex.matches(input) != simulated {
                    failures.append("\(pattern) on \(input.debugDescription): simulated \(simulated)")
                }
            }
        }
        #expect(compared > 250 * 60)
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }
}
