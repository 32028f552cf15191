import Testing

@testable import APITestJSONSchema

/// JSON Pointer tokens are escaped and unescaped scalar by scalar (RFC 6901 speaks of characters as code points): a
/// `/` or `~` followed by a combining mark is one Swift `Character` that is neither `/` nor `~`, and must still be
/// escaped, and a pointer splits at every `/` scalar.
struct JSONPointerScalarTests {
    @Test func aSlashOrTildeFollowedByACombiningMarkIsEscaped() {
        #expect(JSONPointer.escape("a/\u{301}b") == "a~1\u{301}b")
        #expect(JSONPointer.escape("~\u{301}") == "~0\u{301}")
        #expect(JSONPointer.text(["p/\u{301}", "x"]) == "/p~1\u{301}/x")
    }

    @Test func escapingAndSplittingRoundTrip() throws {
        for tokens in [["a/\u{301}b", "~\u{301}1", "plain"], ["~01", "/"], [""], []] {
            let text = JSONPointer.text(tokens)
            #expect(JSONPointer.referenceTokens(text) == tokens, "\(text)")
        }
    }

    @Test func unescapingLeavesOtherTildesAlone() {
        #expect(JSONPointer.unescape("~1\u{301}") == "/\u{301}")
        #expect(JSONPointer.unescape("a~2~") == "a~2~")
        #expect(JSONPointer.unescape("~01") == "~1")
        #expect(JSONPointer.referenceTokens("no-slash") == nil)
    }
}
