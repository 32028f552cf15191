import APITestReporting
import APITestResults
import APITestSupport
import Testing

/// A test's console line, built as bytes (issue 38): the same text as the strings it replaced, with and without
/// colour, names escaped as `ReportText.terminalLine` escapes them.
@Suite("Console line")
struct ConsoleLineTests {
    private func line(_ result: TestResult, colored: Bool, verbosity: ConsoleReporter.Verbosity = .normal) -> String {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: colored, verbosity: verbosity)
        console.handle(.testFinished(result))
        return output.text
    }

    @Test func aPassingTestsLine() {
        #expect(line(ReportFixtures.passed, colored: false) == "✔ Users API › list users (12 ms)\n")
        #expect(
            line(ReportFixtures.passed, colored: true)
                == "\u{1B}[32m✔\u{1B}[0m Users API › list users \u{1B}[2m(12 ms)\u{1B}[0m\n")
        #expect(line(ReportFixtures.passed, colored: false, verbosity: .quiet) == "")
    }

    @Test func namesAreEscapedForOneTerminalLine() {
        for name in [
            "tab\there", "line\nbreak", "caf\u{E9} \u{2713}", "bidi \u{202E}txt", "del\u{7F}", "esc\u{1B}[31m",
        ] {
            let result = ReportFixtures.result(name, .passed, line: 3)
            #expect(
                line(result, colored: false)
                    == "✔ Users API › \(ReportText.terminalLine(name)) (12 ms)\n", "\(name)")
        }
        #expect(line(ReportFixtures.result("a\tb", .passed, line: 3), colored: false).contains(#"a\tb"#))
    }

    @Test func otherStatusesKeepTheirMarksAndNotes() {
        let skipped = ReportFixtures.result("later", .skipped, line: 4, reason: "needs\tsetup")
        #expect(line(skipped, colored: false) == "- Users API › later (12 ms) - needs\\tsetup\n")
        #expect(
            line(skipped, colored: true)
                == "\u{1B}[33m-\u{1B}[0m Users API › later \u{1B}[2m(12 ms)\u{1B}[0m\u{1B}[2m - needs\\tsetup\u{1B}[0m\n"
        )
        let failed = line(ReportFixtures.failed, colored: false)
        #expect(failed.hasPrefix("✘ Users API › create a user (8.0 ms)\n    POST "), "\(failed)")
        #expect(failed.contains("expected status 201, got 400\n"))
    }
}
