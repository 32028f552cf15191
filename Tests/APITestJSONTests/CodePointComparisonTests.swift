import Testing

@testable import APITestJSON

/// JSON compares strings and member names by code points (RFC 8259 §8.3, RFC 9535), never by Unicode canonical
/// equivalence as Swift's `String ==` does: `"e\u0301"` (e and a combining acute) is not `"\u00e9"` (é), and
/// U+2126 OHM SIGN is not U+03A9 OMEGA. Every test here passes `==` on Swift strings of the same pairs.
@Suite struct CodePointComparisonTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    @Test func swiftStringsWouldCallThemEqual() {
        #expect(Self.composed == Self.decomposed)
        #expect("\u{2126}" == "\u{3A9}")
    }

    @Test func stringValuesCompareByCodePoints() {
        #expect(JSONValue.string(Self.composed) != .string(Self.decomposed))
        #expect(JSONValue.string("\u{2126}") != .string("\u{3A9}"))
        #expect(JSONValue.string(Self.composed) == .string("\u{E9}"))
        #expect(Set<JSONValue>([.string(Self.composed), .string(Self.decomposed)]).count == 2)
        #expect(JSONValue.array([.string(Self.composed)]) != .array([.string(Self.decomposed)]))
        #expect(Self.composed.hasSameCodePoints(as: "\u{E9}"))
        #expect(!Self.composed.hasSameCodePoints(as: Self.decomposed))
        #expect(Self.decomposed.precedesInCodePointOrder(Self.composed))
        #expect(Self.decomposed.containsCodePoints("e"))
        #expect(!("caf" + Self.decomposed).containsCodePoints("caf" + Self.composed))
        #expect(("a" + Self.decomposed + "b").containsCodePoints("\u{301}b"))
        #expect(!Self.decomposed.hasCodePointSuffix("e"))
        #expect(Self.decomposed.hasCodePointSuffix("\u{301}"))
        #expect(!Self.composed.hasCodePointPrefix("e"))
    }

    /// Two members whose names are canonically equivalent are two members, each found by its own name, in small
    /// objects (scanned) and large ones (indexed), parsed or built.
    @Test(arguments: [0, 20])
    func canonicallyEquivalentNamesAreDistinctMembers(_ padding: Int) throws {
        let others = (0..<padding).map { #""k\#($0)": 0, "# }.joined()
        let text = #"{"# + others + #""\#(Self.composed)": 1, "e\u0301": 2}"#
        let value = try JSONParser.parse(text)
        let object = try #require(value.objectValue)
        #expect(object.count == padding + 2)
        #expect(object[Self.composed] == 1)
        #expect(object[Self.decomposed] == 2)
        #expect(object["\u{2126}"] == nil)
        let built = JSONObject(object.members)
        #expect(built.count == padding + 2)
        #expect(built[Self.decomposed] == 2)
        var edited = built
        edited[Self.decomposed] = nil
        #expect(edited[Self.composed] == 1)
        #expect(edited[Self.decomposed] == nil)

        let tape = try JSONTape(parsing: Array(text.utf8))
        #expect(tape.memberCount(0) == padding + 2)
        #expect(tape.root == value)
        #expect(tape.member(named: Self.decomposed, of: 0).map(tape.value) == 2)
        #expect(tape.member(named: Self.composed, of: 0).map(tape.value) == 1)
    }

    @Test func objectsCompareNamesByCodePoints() {
        let a: JSONValue = [Self.composed: 1]
        let b: JSONValue = [Self.decomposed: 1]
        #expect(a != b)
    }

    /// A name selector selects the member of exactly that name, on a value tree and on a tape, whether the name is
    /// written in UTF-8 or with escapes.
    @Test(arguments: [#"{"e\u0301": 1}"#, "{\"e\u{301}\": 1}"])
    func nameSelectorsMatchCodePoints(_ text: String) throws {
        let value = try JSONParser.parse(text)
        let tape = try JSONTape(parsing: Array(text.utf8))
        for expression in ["$['\u{E9}']", #"$['\u00e9']"#] {
            let path = try JSONPath(expression)
            #expect(path.query(value).isEmpty, "\(expression)")
            #expect(tape.query(path).isEmpty, "\(expression)")
        }
        let exact = try JSONPath("$['e\u{301}']")
        #expect(exact.query(value) == [1])
        #expect(tape.query(exact) == [1])
    }

    /// Filter comparisons and the names of singular queries inside filters compare code points.
    @Test func filterComparisonsMatchCodePoints() throws {
        let text = #"[{"n": "e\u0301", "e\u0301": 1}, {"n": "\u00e9", "\u00e9": 2}]"#
        let value = try JSONParser.parse(text)
        let tape = try JSONTape(parsing: Array(text.utf8))
        let cases: [(String, [JSONValue])] = [
            ("$[?@.n == '\u{E9}']", [["n": .string(Self.composed), Self.composed: 2]]),
            ("$[?@['\u{E9}']]['\u{E9}']", [2]),
            ("$[?@.n < '\u{E9}']['e\u{301}']", [1]),
        ]
        for (expression, expected) in cases {
            let path = try JSONPath(expression)
            #expect(path.query(value) == expected, "\(expression)")
            #expect(tape.query(path) == expected, "\(expression) on a tape")
        }
    }

    // MARK: - Objects that differ in one member

    /// Objects that differ only in their last member (its value, or its name) are unequal, in small objects and
    /// in large (indexed) ones, whichever side is larger.
    @Test(arguments: [1, 30])
    func objectsDifferingOnlyInTheirLastMemberAreUnequal(_ size: Int) {
        let common = (0..<size).map { (key: "k\($0)", value: JSONValue.integer(Int64($0))) }
        let base = JSONObject(common + [(key: "last", value: 1)])
        let otherValue = JSONObject(common + [(key: "last", value: 2)])
        let otherName = JSONObject(common + [(key: "lasT", value: 1)])
        let same = JSONObject(([(key: "last", value: 1)] + common).reversed())
        #expect(base != otherValue)
        #expect(otherValue != base)
        #expect(base != otherName)
        #expect(otherName != base)
        #expect(base == same, "member order does not matter")
        #expect(JSONValue.object(base) != .object(otherValue))
        #expect(JSONValue.object(base).hashValue == JSONValue.object(same).hashValue)
    }
}
