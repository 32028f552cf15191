import APITestTestSupport
import Foundation
import Testing

@testable import APITestJSON

/// The linear-time regular expressions of suites and JSONPath: the same answers as ICU on the syntax they share,
/// a bounded number of steps on patterns that make a backtracking engine take exponential time, and a located
/// refusal of what needs backtracking.
struct LinearRegexTests {
    /// The whole match and the groups' texts, as ICU (`NSRegularExpression`) finds them; nil without a match.
    static func icu(_ pattern: String, _ text: String) -> [String?]? {
        let regex = try! NSRegularExpression(pattern: pattern)
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (0..<match.numberOfRanges).map { index in
            let range = match.range(at: index)
            return range.location == NSNotFound ? nil : (text as NSString).substring(with: range)
        }
    }

    /// The same from ``LinearRegex``.
    static func linear(_ pattern: String, _ text: String) throws -> [String?]? {
        let regex = try LinearRegex(pattern)
        guard let match = try regex.firstMatch(in: text) else { return nil }
        return match.map { $0.map { String(text.unicodeScalars[$0]) } }
    }

    // MARK: - The same answers as ICU

    /// Patterns with a group repeated inside a repetition of something that can match nothing: a backtracking engine
    /// runs one more, empty, iteration and captures "" where this one keeps the last non-empty iteration. The whole
    /// match is the same.
    static let emptyIterations: Set<String> = ["(a*)*", "(a?)*", "(x?)+y"]

    @Test func answersAsICUDoes() throws {
        let patterns = [
            "a", "abc", "a|b", "ab|a", "a|ab", "(a|ab)(c|bcd)", "a*", "a+", "a?", "a*?", "a+?b", "(a+)(a*)",
            "(a*)+b", "(a|b)*c", "x{2}", "x{2,}", "x{1,3}", "x{1,3}?", "^abc$", "^", "$", "\\d+", "\\D+", "\\w+",
            "\\W", "\\s+", "\\S+", "[a-c]+", "[^a-c]+", "[\\d.]+", "[-a]", "[a-]", "\\bfoo\\b", "\\Bo", "(?i)HeLLo",
            "(?i:b)B", "a.c", "(?s)a.c", "(?m)^b$", "^b$", "a$", "a\\Z", "a\\z", "\\Aa", "(?<year>\\d{4})-(\\d\\d)",
            "\\x41\\u00e9", "\\Qa.b\\E+", "(a)|(b)", "((a)|b)+", "(a?)*", "(a*)*", "v(\\d+)\\.(\\d+)", "é+",
            "[à-ÿ]+", "\\p{L}+", "\\P{L}+", "\\p{Lu}", "\\t\\n", "(?:ab)+", "a(?#comment)b", "[\\w-]+@[\\w.]+",
            "(?i)[a-z]+", "(?i)É", "\\.", "\\$\\d", "(a|b|c|d)*d", "(a|ab)*c", "(a*)b(a*)", "(x?)+y", "((a)|(b))*",
            "a\\b", "b\\B", "c$", "ab\\b|ba",
        ]
        let texts = [
            "", "a", "ab", "abc", "abcd", "aab", "aaab", "xxxx", "x", "foo bar", "foobar", "HELLO hello", "Bb",
            "a\nc", "a\nb\nc", "b", "b\n", "a\n", "a\r\n", "2024-05 rest", "Aé", "a.ba.b", "v12.7", "ééé", "Ünïcödé x",
            "\t\n", "abab", "x-y_z@host.example", "café", "$5", "1.5.3", "cbad", "xxy", "abac", "ba", "xx abc", "aab a",
            "abc\nc", "bab ab",
        ]
        for pattern in patterns {
            for text in texts {
                var (ours, theirs) = (try Self.linear(pattern, text), Self.icu(pattern, text))
                if Self.emptyIterations.contains(pattern) {
                    (ours, theirs) = (ours.map { [$0[0]] }, theirs.map { [$0[0]] })
                }
                #expect(
                    try LinearRegex(pattern).matches(text) == (theirs != nil), "\(pattern) on \(text.debugDescription)")
                #expect(
                    ours == theirs,
                    "\(pattern) on \(text.debugDescription): \(String(describing: ours)) vs \(String(describing: theirs))"
                )
            }
        }
    }

    // MARK: - Linear time

    /// Steps to search `text` for `pattern`.
    static func steps(_ pattern: String, _ text: String) throws -> Int {
        var steps = 0
        _ = try LinearRegex(pattern).firstMatch(in: text, steps: &steps)
        var recognizerSteps = 0
        _ = try LinearRegex(pattern).matches(text, steps: &recognizerSteps)
        return max(steps, recognizerSteps)
    }

    @Test func pathologicalPatternsTakeLinearSteps() throws {
        // Each of these takes a backtracking engine (ICU's) exponential time on a run of `a`s without a match:
        // `(a*)*b` on 40 characters took 18.5 s and on 60 never ended.
        for pattern in ["(a*)*b", "(a+)+b", "(a|a)*b", "(a|aa)+$b", "(.*a){12}b", "^(\\w+\\s?)*$!", "(a?){30}a{30}b"] {
            let counts = try [1000, 2000, 3000].map { try Self.steps(pattern, String(repeating: "a", count: $0)) }
            let program = try LinearRegex(pattern).program.count
            // Each thousand more characters costs the same: linear, not exponential or quadratic.
            let (first, second) = (counts[1] - counts[0], counts[2] - counts[1])
            #expect(second <= first + first / 50 + program, "\(pattern): \(counts) steps")
            // And never more than twice the program's size per scalar (each instruction once per position, each
            // thread once).
            #expect(counts[2] <= 2 * program * 3001, "\(pattern): \(counts[2]) steps for \(program) instructions")
        }
        // And a long text ends, whatever the pattern.
        let cpuStart = threadCPUTime()
        #expect(try LinearRegex("(a*)*b").firstMatch(in: String(repeating: "a", count: 100_000)) == nil)
        #expect(threadCPUTime() - cpuStart < 20)
    }

    @Test func cancellationStopsAMatch() async throws {
        let regex = try LinearRegex("(a|aa|aaa|aaaa)*(x|y|z){1,50}b")
        let text = String(repeating: "a", count: 2_000_000)
        let task = Task { () throws -> Bool in
            withUnsafeCurrentTask { $0?.cancel() }
            return try regex.firstMatch(in: text) != nil
        }
        await #expect(throws: LinearRegex.Interruption.cancelled) { try await task.value }
    }

    // MARK: - Refused at compile time

    @Test func refusesWhatNeedsBacktrackingWithItsPlace() {
        let refused: [(String, LinearRegex.SyntaxError.Kind, Int)] = [
            ("(a)\\1", .unsupported("a back-reference '\\1'"), 3),
            ("x(?=y)", .unsupported("a look-ahead '(?='"), 1),
            ("x(?!y)", .unsupported("a look-ahead '(?!'"), 1),
            ("(?<=y)x", .unsupported("a look-behind '(?<='"), 0),
            ("(?>a)", .unsupported("an atomic group '(?>'"), 0),
            ("a*+", .unsupported("a possessive quantifier"), 1),
            ("[a[b]]", .unsupported("a nested class or a set operation '['"), 2),
            ("(a", .unclosedGroup, 0),
            ("a)", .unmatchedParenthesis, 1),
            ("[ab", .unclosedClass, 0),
            ("*a", .nothingToRepeat, 0),
            ("a{3,2}", .badRepetition, 1),
            ("a{1001}", .badRepetition, 1),
            ("\\y", .badEscape("\\y"), 0),
            ("\\p{Foo}", .badEscape("\\p{Foo}"), 0),
            ("[z-a]", .badRange, 1),
            ("(?x)a", .badGroup, 2),
            ("(a{1000}){1000}", .tooLarge, 0),
        ]
        for (pattern, kind, offset) in refused {
            #expect(throws: LinearRegex.SyntaxError(kind: kind, offset: offset), "\(pattern)") {
                try LinearRegex(pattern)
            }
        }
    }

    @Test func replacementWalkMatchesICU() throws {
        for (pattern, text) in [("a*", "baaac"), ("x*", "abc"), ("\\d", "a1b22"), ("x*", ""), ("(?m)^", "a\nb")] {
            var ours: [String] = []
            var steps = 0
            try LinearRegex(pattern).forEachMatch(in: text, steps: &steps) { match in
                ours.append(
                    String(text[match[0]!]) + "@"
                        + String(text.distance(from: text.startIndex, to: match[0]!.lowerBound)))
                return true
            }
            let regex = try NSRegularExpression(pattern: pattern)
            let theirs = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                let range = Range(match.range, in: text)!
                return String(text[range]) + "@" + String(text.distance(from: text.startIndex, to: range.lowerBound))
            }
            #expect(ours == theirs, "\(pattern) on \(text)")
        }
    }
}
