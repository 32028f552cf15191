import APITestJSON
import Testing

@testable import APITestChecks

/// JSONDiff finds a difference in an object's last member, and compares names and strings by code points.
@Suite struct JSONDiffMemberTests {
    @Test(arguments: [1, 30])
    func aDifferenceInTheLastMemberIsFound(_ size: Int) {
        let common = (0..<size).map { (key: "k\($0)", value: JSONValue.integer(Int64($0))) }
        let expected = JSONValue.object(JSONObject(common + [(key: "last", value: 1)]))
        let changed = JSONValue.object(JSONObject(common + [(key: "last", value: 2)]))
        let renamed = JSONValue.object(JSONObject(common + [(key: "other", value: 1)]))
        #expect(
            JSONDiff.firstDifference(expected: expected, actual: changed)
                == .init(path: ".last", description: "expected 1, got 2"))
        #expect(
            JSONDiff.firstDifference(expected: expected, actual: renamed)
                == .init(path: ".last", description: "missing (expected 1)"))
        #expect(JSONDiff.firstDifference(expected: expected, actual: expected) == nil)
    }

    @Test func namesAndStringsCompareByCodePoints() {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(
            JSONDiff.firstDifference(expected: [.string(composed)], actual: [.string(decomposed)])
                == .init(path: "[0]", description: #"expected "\u00e9", got "e\u0301""#),
            "strings that look the same are shown with escapes")
        #expect(
            JSONDiff.firstDifference(expected: [composed: 1], actual: [decomposed: 1])
                == .init(path: "['\(composed)']", description: "missing (expected 1)"))
    }

    @Test func onlyTextsThatLookTheSameAreEscaped() {
        #expect(PredicateEvaluator.distinguishable("\"\u{E9}\"", "\"e\u{301}\"") == (#""\u00e9""#, #""e\u0301""#))
        #expect(PredicateEvaluator.distinguishable("\"\u{E9}\"", "\"f\"") == ("\"\u{E9}\"", "\"f\""))
        #expect(PredicateEvaluator.escapingNonASCII("a\u{1F600}") == #"a\ud83d\ude00"#)
    }
}
