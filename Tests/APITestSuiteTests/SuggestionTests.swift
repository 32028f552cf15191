import APITestSupport
import Testing

@Suite("Did-you-mean suggestions")
struct SuggestionTests {
    @Test func levenshtein() {
        #expect(Suggestion.levenshtein("stauts", "status") == 2)
        #expect(Suggestion.levenshtein("", "abc") == 3)
        #expect(Suggestion.levenshtein("kitten", "sitting") == 3)
        #expect(Suggestion.levenshtein("same", "same") == 0)
    }

    @Test func suggestsCloseAndPrefixMatches() {
        let keys = ["method", "url", "query", "headers", "basicAuth", "json", "form", "body", "bodyFile"]
        #expect(Suggestion.closest(to: "metod", in: keys) == "method")
        #expect(Suggestion.closest(to: "Headers", in: keys) == "headers")
        #expect(Suggestion.closest(to: "basic", in: keys) == "basicAuth")
        #expect(Suggestion.closest(to: "bodyfil", in: keys) == "bodyFile")
        #expect(Suggestion.closest(to: "urll", in: keys) == "url")
        #expect(Suggestion.closest(to: "xyz", in: keys) == nil)
        #expect(Suggestion.closest(to: "timeout", in: keys) == nil)
        // Short words need a closer match: "foo" is 2 edits from "form" but is not suggested.
        #expect(Suggestion.closest(to: "foo", in: keys) == nil)
        #expect(Suggestion.didYouMean("stauts", in: ["status", "headers"]) == "; did you mean 'status'?")
        #expect(Suggestion.didYouMean("zzz", in: ["status"]) == "")
    }
}
