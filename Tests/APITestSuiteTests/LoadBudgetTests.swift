import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// The load budget (`LoadBudget`): hostile nesting and expansion, made in the test, end in a located error, quickly,
/// never in a crash or a hang; inputs within the limits still load.
@Suite("Load budget")
struct LoadBudgetTests {
    /// A suite of one test whose one step has `request` (a flow map's text).
    static func suite(request: String, variables: String = "", when: String? = nil) -> String {
        var text = variables.isEmpty ? "" : "variables:\n" + variables
        text += "tests:\n  - name: t\n    steps:\n      - request: \(request)\n"
        if let when { text += "        when: \(when)\n" }
        return text
    }

    /// The errors of `yaml` and how long loading it took, in seconds.
    static func timedErrors(_ yaml: String) -> (errors: [String], seconds: Double) {
        let start = Date()
        let found = errors(yaml)
        return (found, Date().timeIntervalSince(start))
    }

    // MARK: - YAML nesting

    @Test func deeplyNestedFlowCollectionsStopAtTheLimitQuickly() {
        // 100,000 levels of `[` took the system's libyaml 25 to 47 s (its key stack is checked at every token). One
        // `[` a line: on one line, the tests' own copy of libyaml (Yams') stops first, at its limit of 1,000.
        let depth = 100_000
        let (found, seconds) = Self.timedErrors(
            "tests: " + String(repeating: "[\n", count: depth) + String(repeating: "]", count: depth) + "\n")
        // The root map is level 1; the 256th `[` (line 256) opens level 257.
        #expect(
            found == [
                "suites/test.yaml:256:1: error: the YAML is nested deeper than 256 levels (a list or map opens here inside 256 others)"
            ])
        #expect(seconds < 5)
    }

    @Test func deeplyNestedBlockCollectionsStopAtTheLimit() {
        var text = "tests:\n"
        for level in 1...1_000 { text += String(repeating: " ", count: 2 * level) + "-\n" }
        // The root map is level 1, `tests` level 2: the sequence on line 257 opens level 257.
        #expect(
            errors(text) == [
                "suites/test.yaml:257:513: error: the YAML is nested deeper than 256 levels (a list or map opens here inside 256 others)"
            ])
    }

    @Test func aBodyNestedUpToTheLimitLoads() throws {
        // The body sits at level 7 (suite, tests, test, steps, step, request, json): 250 more levels reach 256.
        func body(_ levels: Int) -> String {
            "{url: 'http://127.0.0.1:1/', method: POST, json: " + String(repeating: "[", count: levels) + "1"
                + String(repeating: "]", count: levels) + "}"
        }
        #expect(errors(Self.suite(request: body(250))) == [])
        #expect(errors(Self.suite(request: body(251))).first?.contains("nested deeper than 256 levels") == true)
    }

    @Test func mapKeysMadeHugeByAliasesStopAtTheComparisonBudget() {
        // Two keys built apart by doubling an alias 40 times are equal, 2^40 nodes each: comparing them never ended.
        var text = "b0: &b0 [x, x]\nc0: &c0 [x, x]\n"
        for level in 1..<40 {
            text += "b\(level): &b\(level) [*b\(level - 1), *b\(level - 1)]\n"
            text += "c\(level): &c\(level) [*c\(level - 1), *c\(level - 1)]\n"
        }
        text += "m:\n  ? *b39\n  : 1\n  ? *c39\n  : 2\ntests: []\n"
        let (found, seconds) = Self.timedErrors(text)
        #expect(
            found == [
                "suites/test.yaml:82:3: error: the keys of this map are too large to compare once aliases are expanded "
                    + "(list and map keys nest at most 256 levels, and a file's keys may hold 1000000 lists and maps "
                    + "together)"
            ])
        #expect(seconds < 30)
        // Keys nested deeper than the limit through aliases are refused too, instead of overflowing the stack.
        var chain = "d0: &d0 [x]\ne0: &e0 [x]\n"
        for level in 1..<2_000 {
            chain += "d\(level): &d\(level) [*d\(level - 1)]\ne\(level): &e\(level) [*e\(level - 1)]\n"
        }
        chain += "m: {? *d1999 : 1, ? *e1999 : 2}\ntests: []\n"
        #expect(errors(chain).first?.contains("the keys of this map are too large to compare") == true)
        // Small list keys are still compared, and a duplicate found.
        #expect(errors("m: {? [a, [b]] : 1, ? [a, [b]] : 2}\ntests: []\n").first?.contains("duplicate key") == true)
    }

    // MARK: - Value trees

    @Test func aliasesNestingPastTheLimitAreALocatedError() {
        // Each variable nests the one before inside a list: 20,000 levels once aliases are expanded, which
        // overflowed the stack of the value builder.
        var variables = "  a0: &a0 [1]\n"
        for level in 1..<20_000 { variables += "  a\(level): &a\(level) [*a\(level - 1)]\n" }
        let found = errors(Self.suite(request: "{url: 'http://127.0.0.1:1/'}", variables: variables))
        #expect(
            found.contains {
                $0.hasPrefix("suites/test.yaml:") && $0.hasSuffix("the value is nested deeper than 256 levels")
            })
    }

    // MARK: - Expressions

    /// The first error of a `when:` condition made of `text`.
    static func conditionError(_ text: String) -> String? {
        errors(suite(request: "{url: 'http://127.0.0.1:1/'}", when: "\"\(text)\"")).first
    }

    @Test func longChainsAndDeepNestingInExpressionsAreLocatedErrors() {
        let expected = "error: the expression is nested deeper than 256 levels"
        let cases = [
            ("a + ", "sum", (0..<8_000).map { _ in "a" }.joined(separator: " + ") + " == 1"),
            ("nots", "not", String(repeating: "not ", count: 8_000) + "a"),
            ("and", "and", (0..<20_000).map { _ in "a" }.joined(separator: " and ")),
            ("parentheses", "(", String(repeating: "(", count: 200_000) + "a" + String(repeating: ")", count: 200_000)),
            ("lists", "[", String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)),
            (
                "calls", "length(",
                String(repeating: "length(", count: 200_000) + "a" + String(repeating: ")", count: 200_000)
            ),
        ]
        for (name, _, text) in cases {
            let found = Self.conditionError(text)
            #expect(found?.hasPrefix("suites/test.yaml:5:") == true, "\(name): \(found ?? "no error")")
            #expect(found?.contains(expected) == true, "\(name): \(found ?? "no error")")
        }
    }

    @Test func expressionsWithinTheLimitLoadAndEvaluate() throws {
        let sum = (0..<200).map { _ in "1" }.joined(separator: " + ")
        #expect(Self.conditionError("\(sum) == 200") == nil)
        let condition = String(repeating: "not ", count: 200) + "false"
        let parsed = try ExpressionParser.parse(condition)
        let here = SourceLocation(file: "s.yaml", line: 1, column: 1)
        #expect(try parsed.holds(TemplateContext(), source: condition, location: here) == false)
        let nested = String(repeating: "(", count: 250) + "1 + 1" + String(repeating: ")", count: 250)
        #expect(
            try ExpressionParser.parse(nested).evaluate(
                TemplateContext(), source: nested, location: here, undefinedIsNull: false)
                == .integer(2))
    }

    // MARK: - Expansion

    @Test func variablesThatDoubleAtEachLevelAreRefusedAtLoad() {
        // 60 levels were 2^60 bytes: validate never ended.
        var texts = "  a0: \"xx\"\n"
        var lists = "  b0: [1]\n"
        for level in 1...60 {
            texts += "  a\(level): \"{{a\(level - 1)}}{{a\(level - 1)}}\"\n"
            lists += "  b\(level): [\"{{b\(level - 1)}}\", \"{{b\(level - 1)}}\"]\n"
        }
        for variables in [texts, lists] {
            let (found, seconds) = Self.timedErrors(
                Self.suite(request: "{url: 'http://127.0.0.1:1/'}", variables: variables))
            #expect(found.count == 1)
            #expect(found.first?.hasPrefix("suites/test.yaml:") == true)
            #expect(found.first?.contains("error: the rendered value is too large (over 64 MiB)") == true)
            #expect(seconds < 60)
        }
    }

    @Test func urlsUsingALargeVariableAreCheckedWithoutRenderingThemWhole() {
        // A 32 MiB variable (within the budget) in 20,000 URLs: checking their schemes copied 640 GB.
        var variables = "  a0: \"xx\"\n"
        for level in 1...24 { variables += "  a\(level): \"{{a\(level - 1)}}{{a\(level - 1)}}\"\n" }
        var text = "variables:\n" + variables + "tests:\n"
        for index in 0..<20_000 { text += "  - name: t\(index)\n    request: {url: \"{{a24}}/\(index)\"}\n" }
        let (found, seconds) = Self.timedErrors(text)
        // The URLs render to text without a scheme: relative, and the suite has no base URL.
        #expect(found.count == 20_000)
        #expect(found.first?.contains("relative URL '{{a24}}/0' needs a 'baseURL' in the suite") == true)
        #expect(seconds < 60)
    }

    @Test func renderingAValueTooLargeAsTextIsAnErrorOfTheStep() throws {
        // A value that shares its elements: 2^40 numbers, small in memory.
        var value = JSONValue.integer(1)
        for _ in 0..<40 { value = .array([value, value]) }
        var context = TemplateContext()
        context.set("big", value, secret: false)
        let here = SourceLocation(file: "s.yaml", line: 3, column: 9)
        var placeholder = here
        placeholder.column += 1
        #expect(throws: TemplateError.tooLarge(at: placeholder)) {
            try Template(parsing: "x{{ big }}", location: here).render(context)
        }
        let body = TemplateValue.array([.string(try Template(parsing: "{{ big }}", location: here))])
        #expect(throws: TemplateError.tooLarge(at: here)) { try body.render(context) }
        // A value within the budget renders.
        context.set("small", .array([.integer(1), .integer(2)]), secret: false)
        #expect(try Template(parsing: "x{{ small }}", location: here).render(context) == "x[1,2]")
    }

    @Test func stepIncludesThatRepeatFilesStopAtTheIncludeBudget() throws {
        // Each file includes the next one twice: 25 files are 2^25 includes.
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for level in 0..<25 {
            try writeFile(
                "- include: f\(level + 1).yaml\n- include: f\(level + 1).yaml\n", to: "f\(level).yaml", in: directory)
        }
        try writeFile("- request: {url: 'http://127.0.0.1:1/'}\n", to: "f25.yaml", in: directory)
        let suite = try writeFile(
            "tests:\n  - name: t\n    steps:\n      - include: f0.yaml\n", to: "suite.yaml", in: directory)
        let start = Date()
        do {
            _ = try SuiteLoader(environment: [:]).load(path: suite)
            Issue.record("an include bomb loaded")
        } catch {
            let messages = error.diagnostics.map(\.message)
            #expect(
                messages == [
                    "the suite includes files too many times (over 100000 includes once includes are expanded)"
                ])
        }
        #expect(Date().timeIntervalSince(start) < 60)
    }
}
