import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Values that could only be sent wrong, or fail, at run time are load errors where they are written: numbers JSON
/// cannot hold, a `when:` that is never true or false, bounds in the wrong order, digests and redirect counts of
/// the wrong form, an endless timeout, and bytes that are not UTF-8.
@Suite("Load-time value checks")
struct LoadValueChecksTests {
    /// A suite of one test whose one step has `request` and `extra` lines (indented as the step's keys).
    static func suite(request: String = "{url: 'http://127.0.0.1:1/'}", step extra: String = "") -> String {
        "tests:\n  - name: t\n    steps:\n      - request: \(request)\n" + extra
    }

    // MARK: - Numbers JSON cannot hold

    @Test(arguments: [".inf", "-.inf", ".nan", ".NaN", "1e400", "-1e400"])
    func nonFiniteNumbersInAJSONBodyAreLoadErrors(_ number: String) {
        let found = errors(Self.suite(request: "{url: 'http://127.0.0.1:1/', method: POST, json: {a: [1, \(number)]}}"))
        #expect(
            found == [
                "suites/test.yaml:4:75: error: '\(number)' is not a finite number, and JSON has none (no infinity, no "
                    + "NaN) (quote it to send it as a string)"
            ])
    }

    @Test func nonFiniteNumbersInVariablesAreLoadErrorsAndQuotedOnesAreText() throws {
        let found = errors("variables:\n  big: 1e400\n" + Self.suite())
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("suites/test.yaml:2:8: error: '1e400' is not a finite number") == true)
        let suite = try loadSuite("variables:\n  big: '1e400'\n  ok: 1e300\n" + Self.suite())
        #expect(
            suite.variables.map(\.value) == [
                .string(Template(literal: "1e400", location: suite.variables[0].value.templates[0].location)),
                .double(1e300),
            ])
    }

    @Test func aNonFiniteNumberRenderedIntoAValueIsAnErrorOfTheStep() throws {
        // A value computed when the step runs (an expression, a variable made of one) can still be infinite.
        let here = SourceLocation(file: "s.yaml", line: 4, column: 20)
        var context = TemplateContext()
        context.set("x", .double(.infinity), secret: false)
        let body = TemplateValue.object([
            .init(key: "a", value: .string(try Template(parsing: "{{ x }}", location: here)))
        ])
        #expect(
            throws: TemplateError(
                kind: .evaluation,
                message:
                    "the value holds a number that is not finite (an infinity, NaN, or beyond a double's range "
                    + "such as 1e400), and JSON has none", location: here)
        ) { try body.render(context) }
        context.set("x", .double(1.5), secret: false)
        #expect(try body.render(context) == .object(JSONObject([(key: "a", value: .double(1.5))])))
    }

    // MARK: - Run-time failures found at load

    @Test func aWhenThatIsNeverTrueOrFalseIsALoadError() {
        #expect(
            errors(Self.suite(step: "        when: 5\n")) == [
                "suites/test.yaml:5:15: error: 'when' is a condition, true or false; '5' is a number"
            ])
        #expect(
            errors(Self.suite(step: "        when: \"[1, 2]\"\n")) == [
                "suites/test.yaml:5:15: error: 'when' is a condition, true or false; '[1, 2]' is a list"
            ])
        #expect(
            errors(Self.suite(step: "        when: \"'yes'\"\n")) == [
                "suites/test.yaml:5:15: error: 'when' is a condition, true or false; ''yes'' is a string"
            ])
        #expect(errors(Self.suite(step: "        when: \"'true'\"\n")) == [])
        #expect(errors(Self.suite(step: "        when: \"length([1]) > 0\"\n")) == [])
    }

    @Test func betweenTakesTheLowerBoundFirst() {
        #expect(
            errors(Self.suite(step: "        expect: {json: {$.n: {between: [10, 1]}}}\n")) == [
                "suites/test.yaml:5:40: error: 'between' takes the lower bound first, found [10, 1]"
            ])
        #expect(errors(Self.suite(step: "        expect: {json: {$.n: {between: [1, 10]}}}\n")) == [])
        #expect(errors(Self.suite(step: "        expect: {json: {$.n: {between: [5, 5]}}}\n")) == [])
    }

    @Test func digestsAndRedirectCountsHaveTheirForm() {
        #expect(
            errors(Self.suite(step: "        expect: {sha256: abc}\n")) == [
                "suites/test.yaml:5:26: error: 'sha256' is the body's digest in 64 lower-case hex digits, found 'abc'"
            ])
        let upper = String(repeating: "A", count: 32)
        #expect(
            errors(Self.suite(step: "        expect: {md5: \(upper)}\n")) == [
                "suites/test.yaml:5:23: error: 'md5' is the body's digest in 32 lower-case hex digits, found '\(upper)'"
            ])
        let digest = String(repeating: "0a", count: 32)
        #expect(
            errors(Self.suite(step: "        expect: {sha256: \(digest), md5: {notEquals: \(digest.prefix(32))}}\n"))
                == [])
        #expect(
            errors(Self.suite(step: "        expect: {sha256: \"{{ x }}\"}\n", )).allSatisfy { !$0.contains("digest") })
        #expect(
            errors(Self.suite(step: "        expect: {redirects: many}\n")) == [
                "suites/test.yaml:5:29: error: 'redirects' counts redirects: expected a whole number, found 'many'"
            ])
        #expect(errors(Self.suite(step: "        expect: {redirects: 2}\n")) == [])
        #expect(errors(Self.suite(step: "        expect: {redirects: {lessThan: 3}}\n")) == [])
    }

    @Test(arguments: [".inf", ".nan", "1e400"])
    func anEndlessTimeoutIsNotCalledNegative(_ value: String) {
        #expect(
            errors("defaults:\n  timeout: \(value)\n" + Self.suite()) == [
                "suites/test.yaml:2:12: error: 'timeout' must be a finite duration, found \(value)"
            ])
    }

    // MARK: - Bytes

    @Test func invalidUTF8IsLocatedWhereItIs() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bad.yaml"
        var bytes = Array("tests:\n  - name: é\u{1F600}x".utf8)
        bytes += [0xFF, 0x41, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try SuiteLoader(environment: [:]).load(path: path)
            Issue.record("invalid UTF-8 loaded")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["the suite file is not valid UTF-8"])
            #expect(error.diagnostics.first?.location.line == 2)
            // `  - name: é😀x` is 13 scalars: the bad byte is the 14th.
            #expect(error.diagnostics.first?.location.column == 14)
        }
    }
}
