import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// GitHub Actions: the `::error` workflow commands, in GitHub's documented format and escaping, and the Markdown
/// step summary.
@Suite struct GitHubReportTests {
    static func record(_ results: [TestResult]) -> RunRecord {
        RunRecord(plan: nil, results: results, summary: nil, startedAt: ReportFixtures.startedAt, hostname: "h")
    }

    @Test func everyFailureIsOneErrorCommandAtItsLine() {
        let format = GitHubAnnotationsFormat(root: "/repo", currentFolder: "/repo")
        let text = format.render(
            Self.record([ReportFixtures.passed, ReportFixtures.failed, ReportFixtures.errored, ReportFixtures.skipped]))
        // Format: ::error file={name},line={line},col={col},title={title}::{message}; `:` and `,` in properties
        // are %3A and %2C.
        #expect(
            text == """
                ::error file=suites/users.yaml,line=23,col=17,title=Users API › create a user::expected status 201, got 400
                ::error file=suites/users.yaml,line=26,col=9,title=Users API › create a user::$.name: expected "carol", got nothing
                ::error file=suites/users.yaml,line=32,col=14,title=Users API › connection refused::connection refused: Couldn't connect to server

                """)
    }

    @Test func nothingFromAResultCanEndACommandOrStartAnother() {
        var failed = ReportFixtures.failed
        failed.name = "a, b: c"
        failed.steps[0].change {
            $0.failures = [
                AssertionFailure(
                    location: SourceLocation(file: "/repo/suites/x,y.yaml", line: 3, column: 1), subject: "body",
                    message: "100% wrong\r\n::error::injected\u{1B}[31m")
            ]
        }
        let text = GitHubAnnotationsFormat(root: "/repo", currentFolder: "/elsewhere").render(Self.record([failed]))
        #expect(
            text
                == "::error file=suites/x%2Cy.yaml,line=3,col=1,title=Users API › a%2C b%3A c::100%25 wrong\\r%0A"
                + "::error::injected\\u{1B}[31m\n")
        #expect(text.split(separator: "\n").count == 1)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func pathsAreRelativeToTheRepositoryRootAndAnnotationsCapped() {
        let format = GitHubAnnotationsFormat(root: "/work/repo", currentFolder: "/work/repo/api")
        var result = ReportFixtures.failed
        result.steps[0].change {
            $0.failures = (1...60).map {
                AssertionFailure(
                    location: SourceLocation(file: "suites/a.yaml", line: $0, column: 1), subject: "s", message: "m")
            }
        }
        let lines = format.render(Self.record([result])).split(separator: "\n")
        // GitHub shows 10 error annotations of a step: 10, then the overflow note.
        #expect(lines.count == 11)
        #expect(lines[0].hasPrefix("::error file=api/suites/a.yaml,line=1,col=1,"))
        #expect(
            lines.last.map(String.init)
                == "::warning title=apitest::50 more failures not annotated (GitHub shows at most 10 error and 10 "
                + "warning annotations of a step); see the step summary, the job's log or the reports"
        )
    }

    @Test func theStepSummaryCountsListsFailuresAndTheSlowestTests() {
        var weird = ReportFixtures.failed
        weird.name = "<img src=x> | *bold* `code`"
        let text = GitHubStepSummaryFormat(root: "/repo", currentFolder: "/repo").render(
            Self.record([ReportFixtures.passed, weird, ReportFixtures.errored, ReportFixtures.skipped]))
        #expect(text.hasPrefix("## ❌ apitest: 4 tests\n"))
        #expect(text.contains("| 1 | 1 | 1 | 1 | 0 |"))
        #expect(text.contains("### Failures"))
        #expect(text.contains("`suites/users.yaml:23:17`: expected status 201, got 400"))
        #expect(text.contains("`suites/users.yaml:32:14`: connectionRefused: connection refused"))
        #expect(text.contains("&lt;img src=x&gt; \\| \\*bold\\* \\`code\\`"))
        #expect(!text.contains("<img"))
        #expect(text.contains("### Slowest tests"))
    }
}
