import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// The load errors a new user meets first point at the right place and say how to fix the problem.
@Suite("Load messages")
struct LoadMessageTests {
    @Test func aDashedNameAfterADotSuggestsBracketNotation() {
        #expect(
            errors(
                """
                tests:
                  - name: t
                    request: {url: "http://h/"}
                    expect:
                      json:
                        $.headers.Content-Type: text/plain
                """) == [
                    "suites/test.yaml:6:26: error: invalid JSONPath '$.headers.Content-Type': unexpected '-' after "
                        + "the query; did you mean '$.headers['Content-Type']'?"
                ])
    }

    @Test(arguments: [
        ("$.headers.Content-Type", "$.headers['Content-Type']"),
        ("$.a.b-c.d", "$.a['b-c'].d"),
        ("$.a.x-1[0].y", "$.a['x-1'][0].y"),
        ("$.it's-x", "$['it\\'s-x']"),
        ("$.a[?@.b == 'x-y'].c-d", "$.a[?@.b == 'x-y']['c-d']"),
    ])
    func bracketNotationRewritesOnlyTheNamesThatNeedIt(_ expression: String, _ suggestion: String) {
        #expect(JSONPath.bracketNotation(for: expression) == suggestion)
    }

    @Test func noSuggestionWhenBracketsDoNotHelp() {
        #expect(JSONPath.bracketNotation(for: "$.a[") == nil)
        #expect(JSONPath.bracketNotation(for: "$.a.b") == nil)
    }

    @Test func anUnclosedCSVQuoteIsLocatedWhereItOpens() {
        guard case .failure(let problem) = CSVReader.records(in: "a,b\n1,2\n3,\"4\n") else {
            Issue.record("an unclosed quote must fail")
            return
        }
        #expect((problem.line, problem.column) == (3, 3))
        #expect(problem.message == "a quoted field is not closed")
    }

    @Test func dotenvErrorsPointAtTheQuoteAndMaskTheValues() throws {
        let text = "A=1\nAPI_TOKEN =    \"s3cr3t value\nexport  B = 'x\nhunter2\n"
        #expect(throws: SuiteLoadError.self) { try VariablesFile.dotenv(text, file: "bad.env") }
        do {
            _ = try VariablesFile.dotenv(text, file: "bad.env")
        } catch {
            #expect(
                error.diagnostics.map(DiagnosticRenderer.oneLine) == [
                    "bad.env:2:16: error: a double-quoted value is not closed",
                    "bad.env:3:13: error: a single-quoted value is not closed",
                    "bad.env:4:1: error: expected NAME=value",
                ])
            let rendered = error.render()
            #expect(rendered.contains("2 | API_TOKEN =    \"****** *****\n"), "\(rendered)")
            #expect(rendered.contains("3 | export  B = '*\n"), "\(rendered)")
            for secret in ["s3cr3t", "hunter2"] { #expect(!rendered.contains(secret)) }
        }
    }
}
