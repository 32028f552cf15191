import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// The loader's shortcuts (status codes without trimming, quoted widths from libyaml's marks, literal templates,
/// ASCII name checks, cached JSONPaths, the `://` test) give what the general code gives.
@Suite("Loader fast paths")
struct LoaderFastPathTests {
    /// One test whose request and expectations are `request` and `expect` (flow-style YAML).
    private func suite(request: String = "{url: a}", expect: String = "{}") -> String {
        "baseURL: http://h/\ntests:\n  - name: t\n    request: \(request)\n    expect: \(expect)\n"
    }

    private let statusHint = "use a code like 200, a class like 2xx, or a list of them"

    // MARK: - Status codes

    @Test func statusCodesAndClasses() throws {
        let loaded = try loadSuite(suite(expect: "{status: [200, 2XX, 5xx, \"599\", ' 201 ', 100]}"))
        let patterns = loaded.tests[0].steps[0].expect.status?.patterns
        #expect(patterns == [.code(200), .codeClass(2), .codeClass(5), .code(599), .code(201), .code(100)])
    }

    @Test func invalidStatusCodes() {
        #expect(
            errors(suite(expect: "{status: [600, 099, 6xx, abc, 20, 2000, x2x]}")) == [
                "suites/test.yaml:5:23: error: invalid status '600'; \(statusHint)",
                "suites/test.yaml:5:28: error: invalid status '099'; \(statusHint)",
                "suites/test.yaml:5:33: error: invalid status '6xx'; \(statusHint)",
                "suites/test.yaml:5:38: error: invalid status 'abc'; \(statusHint)",
                "suites/test.yaml:5:43: error: invalid status '20'; \(statusHint)",
                "suites/test.yaml:5:47: error: invalid status '2000'; \(statusHint)",
                "suites/test.yaml:5:53: error: invalid status 'x2x'; \(statusHint)",
            ])
        #expect(
            errors(suite(expect: "{status: !!null 200}")) == [
                "suites/test.yaml:5:22: error: invalid status '200'; \(statusHint)"
            ])
    }

    // MARK: - Caret widths of quoted values

    @Test func quotedValueWidths() {
        let found = diagnostics(suite(request: "{url: a, method: \"G ET\", headers: {'X A': 'it''s', \"Y\\\"\": 1}}"))
        #expect(
            found.map(\.message) == [
                "invalid HTTP method 'G ET'", "invalid header name 'X A'", "invalid header name 'Y\"'",
            ])
        #expect(found.map(\.length) == [6, 5, 5])
    }

    /// libyaml's width starts at an anchor written before the quote; the record keeps widths past 16 bits aside.
    @Test func quotedWidthsWithAnAnchorAndPast16Bits() {
        let wide = "G E" + String(repeating: "x", count: 70_000)
        let found = diagnostics(suite(request: "{url: a, method: &m \"\(wide)\", headers: {X-A: &h \"G ET\"}}"))
        #expect(found.map(\.message) == ["invalid HTTP method '\(wide)'"])
        #expect(found.map(\.length) == [3 + 1 + 70_003 + 1])
        let short = diagnostics(suite(request: "{url: a, method: &m \"G ET\"}"))
        #expect(short.map(\.length) == [3 + 1 + 4 + 1])
    }

    @Test func quotedWidthsWhereLibyamlCountsLinesDifferently() {
        // A quoted value over two lines is underlined to the end of its first line.
        let twoLines = suite(request: "{url: a, method: \"G\n      ET\"}")
        #expect(diagnostics(twoLines).map(\.message) == ["invalid HTTP method 'G ET'"])
        #expect(diagnostics(twoLines).map(\.length) == [2])
        // A lone carriage return breaks lines for libyaml but not for the source text, so libyaml's line 4 is the
        // empty last source line: the width is measured there, as it always was, not taken from libyaml's marks.
        let loneReturn = "baseURL: http://h/\rtests:\n  - name: t\n    request: {url: a, method: \"G ET\"}\n"
        #expect(diagnostics(loneReturn).map(\.message) == ["invalid HTTP method 'G ET'"])
        #expect(diagnostics(loneReturn).map(\.length) == [1])
    }

    @Test func byteOrderMarkDetection() {
        #expect(SourceText.marksMatchLibyaml(in: "a: 1\r\nb: 'x'\n"))
        #expect(!SourceText.marksMatchLibyaml(in: "\u{feff}a: 1\n"))
        #expect(!SourceText.marksMatchLibyaml(in: "a: 1\rb: 2\n"))
        #expect(!SourceText.marksMatchLibyaml(in: "a: 1\u{85}b: 2\n"))
        #expect(!SourceText.marksMatchLibyaml(in: "a: 1\u{2028}b: 2\n"))
        #expect(!SourceText.marksMatchLibyaml(in: "a: 1\u{2029}b: 2\n"))
        #expect(SourceText.marksMatchLibyaml(in: "caf\u{e9} \u{2615} \u{2027}\n"))
    }

    // MARK: - Templates and names

    @Test func literalTemplates() throws {
        for text in ["", "plain", "a { b } c", "}} and {", "{ {x} }"] {
            #expect(try TemplateScanner.scan(text) == (text.isEmpty ? [] : [.literal(text)]))
        }
        #expect(try TemplateScanner.scan("a{{ b }}") == [.literal("a"), .placeholder(name: "b", offset: 1, length: 7)])
        #expect(TemplateScanner.mayHavePlaceholders("x{{"))
        #expect(!TemplateScanner.mayHavePlaceholders("x{ {"))
    }

    @Test func asciiNamesAndTokens() {
        #expect(TemplateScanner.isValidName("a_b.c-1"))
        #expect(TemplateScanner.isValidName("Z9"))
        for name in ["", "1a", "-a", "é", "aé", "a b", "a[0]", "a\u{301}"] {
            #expect(!TemplateScanner.isValidName(name), "\(name)")
        }
        #expect(SuiteParseContext.isToken("X-Request-ID"))
        #expect(SuiteParseContext.isToken("!#$%&'*+-.^_`|~09azAZ"))
        for token in ["", "X A", "X:A", "É", "X\u{301}", "a(b)", "a\"b"] {
            #expect(!SuiteParseContext.isToken(token), "\(token)")
        }
    }

    @Test func headerValueLineBreaks() {
        #expect(
            errors(suite(request: "{url: a, headers: {X-A: \"a\\nb\", X-B: \"a\\rb\"}}")) == [
                "suites/test.yaml:4:38: error: the value of header 'X-A' cannot contain a line break",
                "suites/test.yaml:4:51: error: the value of header 'X-B' cannot contain a line break",
            ])
    }

    // MARK: - JSONPaths and URLs

    @Test func repeatedJSONPaths() {
        let test = "  - name: t%d\n    request: {url: a}\n    expect: {json: {$.a: 1, \"$[\": 2}}\n"
        let yaml = "baseURL: http://h/\ntests:\n" + String(format: test, 1) + String(format: test, 2)
        #expect(
            errors(yaml) == [
                "suites/test.yaml:5:31: error: invalid JSONPath '$[': expected a selector, found end of expression",
                "suites/test.yaml:8:31: error: invalid JSONPath '$[': expected a selector, found end of expression",
            ])
    }

    @Test func schemes() {
        #expect(ScopeChecker.scheme(of: "https://h/") == "https")
        #expect(ScopeChecker.scheme(of: "items/1.json") == nil)
        #expect(ScopeChecker.scheme(of: "a:/b://c") == nil)
        #expect(ScopeChecker.scheme(of: "::://") == nil)
        #expect(ScopeChecker.scheme(of: "x+y.z-1://h") == "x+y.z-1")
        #expect(
            errors("tests:\n  - name: t\n    request: {url: \"ftp://h/a\"}\n") == [
                "suites/test.yaml:3:20: error: unsupported URL scheme 'ftp' in 'ftp://h/a'; use http or https"
            ])
    }

    /// In a suite with a base URL, literal URLs are checked as they are parsed; the others (placeholders) after
    /// parsing. Both give the same errors, in source order with the other errors of their lines.
    @Test func literalURLsOfASuiteWithABaseURL() {
        #expect(
            errors(
                """
                baseURL: http://h/
                variables: {scheme: ftp}
                tests:
                  - {name: a, request: {url: "ftp://h/a"}, expect: {status: 999}}
                  - {name: b, request: {url: ""}}
                  - {name: c, request: {url: "{{ scheme }}://h/c"}}
                  - {name: d, request: {url: relative}}
                  - {name: e, request: {url: "HTTPS://h/e", method: "a b"}}
                """) == [
                    "suites/test.yaml:4:30: error: unsupported URL scheme 'ftp' in 'ftp://h/a'; use http or https",
                    "suites/test.yaml:4:61: error: invalid status '999'; \(statusHint)",
                    "suites/test.yaml:5:30: error: 'url' is empty (\(ScopeChecker.emptyURLNote(true)))",
                    "suites/test.yaml:6:30: error: unsupported URL scheme 'ftp' in '{{ scheme }}://h/c'; use http or "
                        + "https",
                    "suites/test.yaml:8:53: error: invalid HTTP method 'a b'",
                ])
    }

    /// The steps of an included settings file are parsed before the suite's base URL is known: their relative
    /// URLs are checked against the suite's base URL once it is.
    @Test func relativeURLsOfIncludedSetupNeedTheSuitesBaseURL() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("setup:\n  - request: {url: login}\n", to: "shared.yaml", in: directory)
        let tests = "include: shared.yaml\ntests: [{name: t, request: {url: \"http://h/t\"}}]\n"
        #expect(
            errors(tests, file: directory + "/suite.yaml") == [
                "\(directory)/shared.yaml:2:20: error: relative URL 'login' needs a 'baseURL' in the suite (add "
                    + "'baseURL: http://host:port/' at the top level, or write an absolute http(s) URL)"
            ])
        #expect(errors("baseURL: http://h/\n" + tests, file: directory + "/suite.yaml").isEmpty)
    }
}
