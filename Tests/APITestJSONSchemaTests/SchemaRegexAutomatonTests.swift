import APITestJSONSchema
import APITestTestSupport
import Foundation
import Testing

/// `SchemaRegex` answers printable ASCII text with its own automaton when the pattern is in the common subset, and
/// with `LinearRegex` (the pattern translated from ECMA-262) otherwise. These tests hold the two to the same answers
/// on hand-written and generated patterns and inputs, and check what is left to `LinearRegex`.
@Suite struct SchemaRegexAutomatonTests {
    // MARK: - Same answers as LinearRegex

    /// Patterns that exercise each construct of the subset.
    static let handWritten = [
        "^[0-9]+\\.json$", "^[a-z]+$", "abc", "^$", "a|b|", "^(foo|bar)baz$", "colou?r", "^\\d{3}-\\d{4}$",
        "^[A-Za-z0-9_-]{1,64}$", "^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
        "^\\d{4}-\\d{2}-\\d{2}$", "\\s", "\\S+", "^\\w+@\\w+\\.\\w{2,}$", "^[^\\s]+$", "[\\d.]+", "^(?:a|bc)*$",
        "a{2,}", "a{0}", "x{1,3}?y", "^.*$", ".", "^a.c$", "(a*)*b", "(a|ab)(c|bcd)(d*)", "^[-a]+$", "^[a-]+$",
        "[\\-\\]]", "^\\$\\d+(\\.\\d\\d)?$", "^\\/api\\/v[12]\\/", "[\\W]", "[\\D]", "\\W\\D", "^(a|b)+?$",
        "^[ -~]*$", "^[!-/]+$", "^a{3}$", "^(ab){2,3}$", "((a|b)c|d)+e", "^[.]+$", "[|]", "a\\|b", "\\(\\)",
        "^\\t?$", "\\^", "^a$|^b$", "$a", "a^", "(^a)", "(a$)", "^(\\d+)(,\\d+)*$",
    ]

    @Test(arguments: handWritten)
    func handWrittenPatternsAnswerAsLinearRegexDoes(_ pattern: String) throws {
        let regex = try #require(SchemaRegex(pattern))
        #expect(regex.hasASCIIProgram, "\(pattern) should be in the subset")
        var random = SplitMix64(seed: UInt64(pattern.utf8.count) &* 7919 &+ 17)
        let mismatches = Self.mismatches(regex, inputs: Self.inputs(for: pattern, count: 400, &random))
        #expect(mismatches.isEmpty, "\(pattern): \(mismatches.prefix(5))")
    }

    /// Generated patterns against Python's `re` (the same language as ECMA-262 for this subset on printable ASCII),
    /// not ICU: ICU misses matches when a loop's body can match empty (`(?:\\.*?)*? +?[abc]??` does not find
    /// `"x "`; Python, Node and the automaton do). The automaton must agree with Python on every input.
    @Test func generatedPatternsAnswerAsPythonDoes() throws {
        var random = SplitMix64(seed: 20_261_123)
        var cases: [(pattern: String, regex: SchemaRegex, input: String)] = []
        for _ in 0..<300 {
            let pattern = Self.generatedPattern(&random)
            guard let regex = SchemaRegex(pattern), regex.hasASCIIProgram else { continue }
            for input in Self.inputs(for: pattern, count: 60, &random) { cases.append((pattern, regex, input)) }
        }
        // The generator writes only the subset, so nearly every pattern must reach the automaton.
        #expect(cases.count > 250 * 60)
        let verdicts = try PythonRegexOracle.search(cases.map { ($0.pattern, $0.input) })
        var failures: [String] = []
        for (item, verdict) in zip(cases, verdicts) {
            guard let verdict else { continue } // a pattern Python itself rejects
            let automaton = item.regex.matches(item.input)
            if automaton != verdict {
                failures.append(
                    "\(item.pattern) on \(item.input.debugDescription): automaton \(automaton), Python \(verdict)")
            }
        }
        #expect(verdicts.compactMap { $0 }.count > cases.count * 9 / 10)
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    /// The ICU failure above, kept as a case: the automaton finds the match, as ECMA-262 requires.
    @Test func anEmptyMatchingLoopDoesNotHideAMatch() throws {
        let regex = try #require(SchemaRegex("(?:\\.*?)*? +?[abc]??"))
        #expect(regex.hasASCIIProgram)
        #expect(regex.matches("x "))
        #expect(!regex.matches("xy"))
    }

    // MARK: - What is left to LinearRegex

    @Test(arguments: [
        "\\bword\\b", "(?=a)a", "(?!a)b", "(?<=a)b", "(a)\\1", "[[a-z]]", "[a&&b]", "[a--b]", "\\u0041", "\\p{L}",
        "\\x41", "a*+", "a++", "[]a]", "[^]", "[:alpha:]", "é+", "a{2000}", "(?i)a", "\\k<name>", "\\0", "a{",
        "[a-z-0]", "[\\S]",
    ])
    func patternsOutsideTheSubsetHaveNoAutomaton(_ pattern: String) {
        // Some of these are refused; those that compile must answer through LinearRegex alone.
        guard let regex = SchemaRegex(pattern) else { return }
        #expect(!regex.hasASCIIProgram, "\(pattern) should be left to LinearRegex")
    }

    @Test func textOutsidePrintableASCIIIsLeftToLinearRegex() throws {
        let regex = try #require(SchemaRegex("^a.c$"))
        #expect(regex.usesASCIIProgram(for: "abc"))
        for text in ["a\nc", "a\tc", "aéc", "a\u{0}c", "a\u{7F}c", "abc\n"] {
            #expect(!regex.usesASCIIProgram(for: text), "\(text.debugDescription)")
            #expect(regex.matches(text) == regex.matchesWithLinearRegex(text), "\(text.debugDescription)")
        }
        // ECMA-262's `$` matches only at the end (ICU's also matched before a final line feed).
        let anchored = try #require(SchemaRegex("^abc$"))
        #expect(!anchored.matches("abc\n"))
    }

    @Test func aHugeCountedRepetitionIsLeftToLinearRegex() throws {
        let regex = try #require(SchemaRegex("^(abcdefghij){1,999}$"))
        #expect(!regex.hasASCIIProgram)
        #expect(regex.matches("abcdefghij"))
    }

    @Test func nestedStarsDoNotBlowUp() throws {
        // Exponential for a backtracking matcher on a failing input; linear here.
        let regex = try #require(SchemaRegex("^(a*)*$"))
        #expect(regex.hasASCIIProgram)
        #expect(!regex.matches(String(repeating: "a", count: 5_000) + "b"))
        #expect(regex.matches(String(repeating: "a", count: 5_000)))
    }

    // MARK: - Helpers

    /// The inputs on which the automaton and LinearRegex disagree.
    static func mismatches(_ regex: SchemaRegex, inputs: [String]) -> [String] {
        inputs.filter { input in
            regex.usesASCIIProgram(for: input) && regex.matches(input) != regex.matchesWithLinearRegex(input)
        }.map {
            "\($0.debugDescription) automaton \(regex.matches($0)), LinearRegex \(regex.matchesWithLinearRegex($0))"
        }
    }

    /// Random printable text, mostly made of the pattern's own characters so that matches happen.
    static func inputs(for pattern: String, count: Int, _ random: inout SplitMix64) -> [String] {
        let own = Array(Set(pattern.unicodeScalars.filter { $0.value >= 0x20 && $0.value <= 0x7E }))
        let common = Array("abcxyz0129 -_.@/$^|()[]{}ABZ".unicodeScalars)
        var result = ["", " "]
        for _ in 0..<count {
            var text = String.UnicodeScalarView()
            for _ in 0..<random.below(12) {
                switch random.below(10) {
                case 0..<5 where !own.isEmpty: text.append(own[random.below(own.count)])
                case 5..<8: text.append(common[random.below(common.count)])
                default: text.append(Unicode.Scalar(UInt8(0x20 + random.below(95))))
                }
            }
            result.append(String(text))
        }
        return result
    }

    /// A random pattern of the subset.
    static func generatedPattern(_ random: inout SplitMix64) -> String {
        var pattern = random.below(2) == 0 ? "^" : ""
        pattern += sequence(&random, depth: 0)
        if random.below(2) == 0 { pattern += "$" }
        return pattern
    }

    private static func sequence(_ random: inout SplitMix64, depth: Int) -> String {
        var text = ""
        for _ in 0..<(1 + random.below(4)) {
            text += atom(&random, depth: depth) + quantifier(&random)
        }
        return text
    }

    private static func atom(_ random: inout SplitMix64, depth: Int) -> String {
        let atoms = [
            "a", "b", "c", "0", "1", "-", "_", " ", "\\.", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "[abc]",
            "[^a-c]", "[a-z0-9]", "[\\d_]", "[ab.-]", "[^\\w]", "\\-", "\\$", "x", "[A-Z]",
        ]
        if depth < 2, random.below(6) == 0 {
            let open = random.below(2) == 0 ? "(" : "(?:"
            var branches = [sequence(&random, depth: depth + 1)]
            if random.below(2) == 0 { branches.append(sequence(&random, depth: depth + 1)) }
            if random.below(8) == 0 { branches.append("") }
            return open + branches.joined(separator: "|") + ")"
        }
        return atoms[random.below(atoms.count)]
    }

    private static func quantifier(_ random: inout SplitMix64) -> String {
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}", "*?", "+?", "??", "{2,3}?"]
        return quantifiers[random.below(quantifiers.count)]
    }
}

/// Python's `re.search`, run once over many pairs: an independent implementation to hold the automaton to.
enum PythonRegexOracle {
    /// Whether each pattern finds a match in its input; nil where Python rejects the pattern.
    static func search(_ pairs: [(pattern: String, input: String)]) throws -> [Bool?] {
        let script = """
            import json, re, sys
            cache = {}
            for line in sys.stdin:
                pattern, text = json.loads(line)
                try:
                    compiled = cache.get(pattern) or cache.setdefault(pattern, re.compile(pattern))
                    print("1" if compiled.search(text) else "0")
                except re.error:
                    print("E")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var lines = Data()
        for pair in pairs {
            lines.append(try JSONSerialization.data(withJSONObject: [pair.pattern, pair.input]))
            lines.append(0x0A)
        }
        // Written from another thread: Python answers as it reads, and a full pipe would stall both.
        let payload = lines
        let writer = Thread {
            input.fileHandleForWriting.write(payload)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let answers = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let verdicts = String(decoding: answers, as: UTF8.self).split(separator: "\n").map { line -> Bool? in
            line == "E" ? nil : line == "1"
        }
        guard process.terminationStatus == 0, verdicts.count == pairs.count else {
            throw OracleError(message: "python3 exited \(process.terminationStatus) with \(verdicts.count) answers")
        }
        return verdicts
    }

    /// The oracle could not run.
    struct OracleError: Error {
        let message: String
    }
}
