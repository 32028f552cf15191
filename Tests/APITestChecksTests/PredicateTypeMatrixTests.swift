import APITestJSON
import APITestSuite
import Testing

@testable import APITestChecks

/// Every predicate over the JSON type matrix, from a JSON source and from a text source, one pinned verdict a cell.
///
/// A JSON value compares by its JSON type: the string `"5"` is not the number `5`, `"true"` is not `true`, and a
/// string never orders against a number, at the top level as nested. Text (a header, a regex group) may stand for
/// the number or boolean it spells. Strings compare by code points.
@Suite struct PredicateTypeMatrixTests {
    /// The subjects, one column each, in the order of a row's verdicts.
    static let columns: [(name: String, value: JSONValue)] = [
        ("\"5\"", "5"),
        ("5", 5),
        ("big", .number(JSONNumber(text: "12345678901234567890")!)),
        ("\"big\"", "12345678901234567890"),
        ("5.5", 5.5),
        ("\"5.5\"", "5.5"),
        ("true", true),
        ("\"true\"", "true"),
        ("null", .null),
        ("\"null\"", "null"),
        ("\"\"", ""),
        ("[5]", [5]),
        ("[\"5\"]", ["5"]),
        ("{n:5}", ["n": 5]),
        ("{n:\"5\"}", ["n": "5"]),
        ("[]", []),
    ]

    /// One predicate and argument: the verdict for each column from a JSON source and from a text source, `P`
    /// for a pass and `F` for a failure, in column order (spaces only group the columns).
    struct Row: CustomTestStringConvertible, Sendable {
        var predicate: APITestSuite.Predicate
        var argument: JSONValue
        var json: String
        var text: String

        init(_ predicate: APITestSuite.Predicate, _ argument: JSONValue, json: String, text: String? = nil) {
            self.predicate = predicate
            self.argument = argument
            self.json = json
            self.text = text ?? json
        }

        var testDescription: String { "\(predicate): \(JSONWriter.string(argument))" }
    }

    //                                      "5" 5 big "big" 5.5 "5.5" true "true" null "null" "" [5] ["5"] {5} {"5"} []
    static let rows: [Row] = [
        // Equality: JSON types exactly; text equals the number or boolean JSON writes with its text.
        Row(.equals, 5, json: "FPFF FFFF FFF FFFF F", text: "PPFF FFFF FFF FFFF F"),
        Row(.equals, "5", json: "PFFF FFFF FFF FFFF F"),
        Row(
            .equals, .number(JSONNumber(text: "12345678901234567890")!), json: "FFPF FFFF FFF FFFF F",
            text: "FFPP FFFF FFF FFFF F"),
        Row(.equals, .number(JSONNumber(text: "12345678901234567891")!), json: "FFFF FFFF FFF FFFF F"),
        Row(.equals, 5.5, json: "FFFF PFFF FFF FFFF F", text: "FFFF PPFF FFF FFFF F"),
        Row(.equals, true, json: "FFFF FFPF FFF FFFF F", text: "FFFF FFPP FFF FFFF F"),
        Row(.equals, .null, json: "FFFF FFFF PFF FFFF F"),
        Row(.equals, [5], json: "FFFF FFFF FFF PFFF F"),
        Row(.equals, ["5"], json: "FFFF FFFF FFF FPFF F"),
        Row(.equals, ["n": 5], json: "FFFF FFFF FFF FFPF F"),
        Row(.equals, ["n": "5"], json: "FFFF FFFF FFF FFFP F"),
        Row(.notEquals, 5, json: "PFPP PPPP PPP PPPP P", text: "FFPP PPPP PPP PPPP P"),
        Row(.notEquals, true, json: "PPPP PPFP PPP PPPP P", text: "PPPP PPFF PPP PPPP P"),
        Row(.oneOf, [5, 6], json: "FPFF FFFF FFF FFFF F", text: "PPFF FFFF FFF FFFF F"),
        Row(.oneOf, ["5", true], json: "PFFF FFPF FFF FFFF F", text: "PFFF FFPP FFF FFFF F"),
        Row(.oneOf, [[5], ["n": 5]], json: "FFFF FFFF FFF PFPF F"),
        // Containment: a string holds the argument's text, an array an equal element, an object the key.
        Row(.contains, 5, json: "PFFP FPFF FFF PFFF F", text: "PFFP FPFF FFF PPFF F"),
        Row(.contains, "5", json: "PFFP FPFF FFF FPFF F"),
        Row(.contains, "n", json: "FFFF FFFF FPF FFPP F"),
        Row(.notContains, 5, json: "FPPF PFPP PPP FPPP P", text: "FPPF PFPP PPP FFPP P"),
        // Text predicates read a number or boolean as the text JSON writes for it.
        Row(.startsWith, "5", json: "PPFF PPFF FFF FFFF F"),
        Row(.startsWith, "1", json: "FFPP FFFF FFF FFFF F"),
        Row(.endsWith, "5", json: "PPFF PPFF FFF FFFF F"),
        Row(.endsWith, "ue", json: "FFFF FFPP FFF FFFF F"),
        Row(.matches, #"^\d+$"#, json: "PPPP FFFF FFF FFFF F"),
        // Emptiness, presence and types.
        Row(.isEmpty, true, json: "FFFF FFFF FFP FFFF P"),
        Row(.isEmpty, false, json: "PFFP FPFP FPF PPPP F"),
        Row(.exists, true, json: "PPPP PPPP PPP PPPP P"),
        Row(.notExists, true, json: "FFFF FFFF FFF FFFF F"),
        Row(.type, "integer", json: "FPPF FFFF FFF FFFF F"),
        Row(.type, "number", json: "FPPF PFFF FFF FFFF F"),
        Row(.type, "string", json: "PFFP FPFP FPP FFFF F"),
        Row(.type, "boolean", json: "FFFF FFPF FFF FFFF F"),
        Row(.type, "null", json: "FFFF FFFF PFF FFFF F"),
        Row(.type, ["array", "object"], json: "FFFF FFFF FFF PPPP P"),
        // Order: numbers against numbers, strings against strings (by code points); text reads as a number.
        Row(.greaterThan, 4, json: "FPPF PFFF FFF FFFF F", text: "PPPP PPFF FFF FFFF F"),
        Row(.greaterThan, 5, json: "FFPF PFFF FFF FFFF F", text: "FFPP PPFF FFF FFFF F"),
        Row(.greaterThanOrEqual, 5, json: "FPPF PFFF FFF FFFF F", text: "PPPP PPFF FFF FFFF F"),
        Row(.lessThan, 6, json: "FPFF PFFF FFF FFFF F", text: "PPFF PPFF FFF FFFF F"),
        Row(.lessThan, 5, json: "FFFF FFFF FFF FFFF F"),
        Row(.lessThanOrEqual, 5, json: "FPFF FFFF FFF FFFF F", text: "PPFF FFFF FFF FFFF F"),
        Row(.between, [5, 6], json: "FPFF PFFF FFF FFFF F", text: "PPFF PPFF FFF FFFF F"),
        Row(.greaterThan, "4", json: "PFFF FPFP FPF FFFF F", text: "PPPP PPFP FPF FFFF F"),
        Row(.lessThan, "5.0", json: "PFFP FFFF FFP FFFF F", text: "FFFF FFFF FFP FFFF F"),
    ]

    @Test(arguments: rows)
    func verdicts(_ row: Row) {
        let evaluator = PredicateEvaluator()
        for (source, verdicts) in [(PredicateEvaluator.Source.json, row.json), (.text, row.text)] {
            let expected = verdicts.filter { $0 != " " }
            #expect(expected.count == Self.columns.count, "a row has one verdict a column")
            for (column, verdict) in zip(Self.columns, expected) {
                let passed = evaluator.evaluate(
                    row.predicate, subject: column.value, from: source, argument: row.argument
                ).passed
                #expect(
                    passed == (verdict == "P"),
                    "\(row.predicate) \(JSONWriter.string(row.argument)) on \(column.name) from \(source)")
            }
        }
    }

    /// Nested inside an object or an array, a value compares by its type from either source (a text source's
    /// leniency is for its own text only).
    @Test func nestedValuesCompareByTypeFromEverySource() {
        let evaluator = PredicateEvaluator()
        for source in [PredicateEvaluator.Source.json, .text] {
            for (subject, argument) in [("5", 5), ("true", true), ("5.5", 5.5)] as [(JSONValue, JSONValue)] {
                #expect(
                    !evaluator.evaluate(.equals, subject: ["n": subject], from: source, argument: ["n": argument])
                        .passed)
                #expect(!evaluator.evaluate(.equals, subject: [[subject]], from: source, argument: [[argument]]).passed)
                #expect(
                    evaluator.evaluate(.equals, subject: ["n": argument], from: source, argument: ["n": argument])
                        .passed)
            }
        }
    }

    /// Strings compare by code points: canonically equivalent strings (a precomposed letter and its decomposition,
    /// the ohm sign and omega) are different JSON strings.
    @Test func stringsCompareByCodePoints() {
        let evaluator = PredicateEvaluator()
        let composed: JSONValue = "\u{E9}"
        let decomposed: JSONValue = "e\u{301}"
        for source in [PredicateEvaluator.Source.json, .text] {
            #expect(!evaluator.evaluate(.equals, subject: decomposed, from: source, argument: composed).passed)
            #expect(evaluator.evaluate(.notEquals, subject: decomposed, from: source, argument: composed).passed)
            #expect(!evaluator.evaluate(.equals, subject: "\u{2126}", from: source, argument: "\u{3A9}").passed)
            #expect(!evaluator.evaluate(.oneOf, subject: decomposed, from: source, argument: [composed]).passed)
            #expect(
                !evaluator.evaluate(.contains, subject: "cafe\u{301}", from: source, argument: "caf\u{E9}").passed)
            #expect(!evaluator.evaluate(.contains, subject: [decomposed], from: source, argument: composed).passed)
            #expect(!evaluator.evaluate(.contains, subject: ["e\u{301}": 1], from: source, argument: composed).passed)
            #expect(
                !evaluator.evaluate(.startsWith, subject: "e\u{301}t\u{E9}", from: source, argument: "\u{E9}").passed)
            #expect(!evaluator.evaluate(.endsWith, subject: "caf\u{E9}", from: source, argument: "e\u{301}").passed)
            // A decomposed character's base letter is a code point of its own.
            #expect(evaluator.evaluate(.startsWith, subject: decomposed, from: source, argument: "e").passed)
            #expect(evaluator.evaluate(.contains, subject: "cafe\u{301}", from: source, argument: "cafe").passed)
            // Code-point order: U+00E9 sorts after "f"; "e\u{301}" before it.
            #expect(evaluator.evaluate(.greaterThan, subject: composed, from: source, argument: "f").passed)
            #expect(evaluator.evaluate(.lessThan, subject: decomposed, from: source, argument: "f").passed)
            #expect(
                !evaluator.evaluate(.greaterThanOrEqual, subject: decomposed, from: source, argument: composed).passed)
        }
    }
}
