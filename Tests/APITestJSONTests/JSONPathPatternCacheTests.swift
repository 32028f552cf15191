import Testing

@testable import APITestJSON

/// JSONPath compares and selects by code points (RFC 9535), including the patterns `match` and `search` read from
/// the document: those are compiled once per query and were kept in a `[String: IRegexp]`, so a second pattern
/// canonically equal to the first (`"e\u0301"` after `"\u00e9"`) was matched as the first.
@Suite struct JSONPathPatternCacheTests {
    @Test func patternsFromTheDocumentAreCompiledByCodePoints() throws {
        let document = try JSONParser.parse(
            #"[{"s": "\u00e9", "p": "\u00e9"}, {"s": "\u00e9", "p": "e\u0301"}, {"s": "e\u0301", "p": "e\u0301"}]"#)
        let matched = try JSONPath("$[?match(@.s, @.p)].p").query(document)
        #expect(matched == [.string("\u{E9}"), .string("e\u{301}")])
        let searched = try JSONPath("$[?search(@.s, @.p)].s").query(document)
        #expect(searched == [.string("\u{E9}"), .string("e\u{301}")])
    }

    /// The audit's cases: a member named with one spelling is not the other's, in a name selector and a filter.
    @Test func namesAndFiltersSelectByCodePoints() throws {
        let body = try JSONParser.parse(#"{"e\u0301": 1}"#)
        #expect(try JSONPath(#"$['\u00e9']"#).query(body) == [])
        #expect(try JSONPath(#"$['e\u0301']"#).query(body) == [1])
        let items = try JSONParser.parse(#"[{"k": "e\u0301"}, {"k": "\u00e9"}]"#)
        #expect(try JSONPath(#"$[?@.k == '\u00e9']"#).query(items) == [["k": "\u{E9}"]])
        #expect(try JSONPath(#"$[?@.k == 'e\u0301']"#).query(items) == [["k": "e\u{301}"]])
    }
}
