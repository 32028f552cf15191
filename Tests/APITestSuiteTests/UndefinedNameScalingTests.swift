import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Undefined-variable errors cost linear work: each error's note ("defined later", "captured by a later step") was
/// worked out from a set of every name after the current one, and its did-you-mean compared the name with every
/// visible name (sorted again for each error), so n errors among n names took n² steps (8,000 undefined names took
/// more than 100 s, a chain of 8,000 forward references 9.6 s).
@Suite struct UndefinedNameScalingTests {
    static let count = 20_000
    static let oneTest = "tests:\n  - name: t\n    request: {url: 'http://h/'}\n"

    /// The errors of `yaml` and how long loading it took, in seconds.
    static func timedErrors(_ yaml: String) -> (errors: [String], seconds: Double) {
        let start = Date()
        let found = errors(yaml)
        return (found, Date().timeIntervalSince(start))
    }

    @Test func manyUndefinedNamesAmongManyVariables() {
        let yaml = "variables:\n" + (0..<Self.count).map { "  w\($0): \"{{ u\($0) }}\"\n" }.joined() + Self.oneTest
        let (found, seconds) = Self.timedErrors(yaml)
        #expect(found.count == Self.count)
        #expect(found.first == "suites/test.yaml:2:8: error: undefined variable 'u0'")
        // The first errors keep their did-you-mean ('u1234' is two edits from 'w1224'); later ones, past the
        // comparison budget, have none.
        #expect(found.contains { $0.contains("did you mean") })
        #expect(!found.suffix(100).contains { $0.contains("did you mean") })
        #expect(found.last?.hasPrefix("suites/test.yaml:\(Self.count + 1):") == true)
        #expect(seconds < 10, "\(seconds) s")
    }

    @Test func aLongChainOfForwardReferences() {
        let yaml =
            "variables:\n" + (0..<Self.count).map { "  w\($0): \"{{ w\($0 + 1) }}\"\n" }.joined()
            + "  w\(Self.count): end\n" + Self.oneTest
        let (found, seconds) = Self.timedErrors(yaml)
        #expect(found.count == Self.count)
        #expect(
            found.first
                == "suites/test.yaml:2:8: error: undefined variable 'w1' ('w1' is defined later in 'variables'; a variable can use only those before it)"
        )
        #expect(seconds < 10, "\(seconds) s")
    }

    @Test func manyStepsUsingCapturesOfLaterSteps() {
        var yaml = "baseURL: http://h/\ntests:\n  - name: t\n    steps:\n"
        for index in 0..<5_000 {
            yaml +=
                "      - request: {url: \"a/{{ c\(index + 1) }}\"}\n        capture: {c\(index): {jsonpath: $.id}}\n"
        }
        let (found, seconds) = Self.timedErrors(yaml)
        #expect(found.count == 5_000)
        #expect(found.first?.contains("'c1' is captured by a later step") == true)
        #expect(found.last?.contains("undefined variable 'c5000'") == true)
        #expect(seconds < 10, "\(seconds) s")
    }

    /// Without sorting, the suggestion is the one the sorted candidates give.
    @Test func unorderedCandidatesSuggestAsSortedOnesDo() {
        let words = [
            "tokn", "token", "toke", "Token", "tokens", "id", "ids", "i", "bearer", "bear", "x", "usr", "userId",
        ]
        let candidates: Set<String> = [
            "token", "tokens", "Token", "taken", "id", "idx", "bearerToken", "user", "users",
        ]
        for word in words {
            #expect(
                Suggestion.closest(to: word, amongUnordered: candidates)
                    == Suggestion.closest(to: word, in: candidates.sorted()), "\(word)")
        }
    }
}
