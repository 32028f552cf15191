import APITestSupport
import Testing

@testable import APITestSuite

@Suite("Diagnostic rendering")
struct DiagnosticRendererTests {
    static let usersSuite = """
        name: Users API
        baseURL: http://127.0.0.1:8080/api/
        defaults:
          headers: {Accept: application/json}
        tests:
          - name: list users
            request:
              url: users
            expect:
              headers:
                Content-Type: {contains: json}
              stauts: 200
        """

    @Test func rendersLikeRustc() throws {
        do {
            _ = try loadSuite(Self.usersSuite, file: "suites/users.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.render() == """
                    error: unknown key 'stauts' in expect; did you mean 'status'?
                      --> suites/users.yaml:12:7
                       |
                    12 |       stauts: 200
                       |       ^^^^^^

                    """)
            #expect(
                error.oneLineSummary
                    == "suites/users.yaml:12:7: error: unknown key 'stauts' in expect; did you mean 'status'?")
        }
    }

    @Test func rendersNotesAndSeveralDiagnostics() {
        let source = "a: 1\nbb: 2\n"
        let diagnostics = [
            Diagnostic.error("first", at: SourceLocation(file: "x.yaml", line: 1, column: 4), length: 1),
            Diagnostic.warning(
                "second", at: SourceLocation(file: "x.yaml", line: 2, column: 1), length: 2, note: "a note"),
        ]
        #expect(
            DiagnosticRenderer().render(diagnostics, source: source) == """
                error: first
                 --> x.yaml:1:4
                  |
                1 | a: 1
                  |    ^

                warning: second
                 --> x.yaml:2:1
                  |
                2 | bb: 2
                  | ^^
                  = note: a note

                """)
    }

    @Test func rendersWithoutSource() {
        let diagnostic = Diagnostic.error(
            "suite file not found", at: SourceLocation(file: "x.yaml", line: 1, column: 1))
        #expect(
            DiagnosticRenderer().render(diagnostic, source: nil) == """
                error: suite file not found
                 --> x.yaml:1:1

                """)
        #expect(diagnostic.description == "x.yaml:1:1: error: suite file not found")
    }

    @Test func keepsTabsAndClampsCarets() {
        let diagnostic = Diagnostic.error("here", at: SourceLocation(file: "t", line: 1, column: 5), length: 50)
        #expect(
            DiagnosticRenderer().render(diagnostic, source: "\tab cd\r\nnext") == """
                error: here
                 --> t:1:5
                  |
                1 | \tab cd
                  | \t   ^^

                """)
        let past = Diagnostic.error("end", at: SourceLocation(file: "t", line: 1, column: 9), length: 0)
        // Past the end of the line: the caret sits just after the last character.
        #expect(DiagnosticRenderer().render(past, source: "abc").hasSuffix("  |    ^\n"))
    }

    @Test func countsColumnsInUnicodeScalars() {
        // libyaml counts "é" (one scalar) and "👍" (one scalar) as one column each.
        let diagnostic = Diagnostic.error("x", at: SourceLocation(file: "t", line: 1, column: 5), length: 3)
        #expect(DiagnosticRenderer().render(diagnostic, source: "é👍: bad").hasSuffix("  |     ^^^\n"))
    }

    @Test func colours() {
        let diagnostic = Diagnostic.error("boom", at: SourceLocation(file: "t", line: 1, column: 1), length: 2)
        let text = DiagnosticRenderer(colored: true).render(diagnostic, source: "ab")
        #expect(text.hasPrefix("\u{1B}[1;31merror\u{1B}[0m\u{1B}[1m: boom\u{1B}[0m\n"))
        #expect(text.contains("\u{1B}[1;31m^^\u{1B}[0m"))
        #expect(!DiagnosticRenderer().render(diagnostic, source: "ab").contains("\u{1B}"))
    }

    /// The one rendering of a file's diagnostics (a suite's load errors and an OpenAPI document's): each diagnostic
    /// shows the line of its own file, an included file's from `includedSources`, any other from `source`.
    @Test func eachDiagnosticShowsTheLineOfItsFile() {
        let diagnostics: [Diagnostic] = [
            .error("in main", at: SourceLocation(file: "main.yaml", line: 2, column: 1)),
            .error("in part", at: SourceLocation(file: "part.yaml", line: 1, column: 3)),
        ]
        let text = DiagnosticRenderer().render(
            diagnostics, source: "a: 1\nb: 2\n", includedSources: ["part.yaml": "x: yes\n"])
        #expect(text.contains("2 | b: 2"), "\(text)")
        #expect(text.contains("1 | x: yes"), "\(text)")
        let error = SuiteLoadError(
            diagnostics: diagnostics, source: "a: 1\nb: 2\n", includedSources: ["part.yaml": "x: yes\n"])
        #expect(error.render() == text)
        #expect(error.oneLineSummary == "main.yaml:2:1: error: in main\npart.yaml:1:3: error: in part")
    }
}
