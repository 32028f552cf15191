package import APITestResults
import APITestSupport
import Foundation

/// JUnit XML as Jenkins, GitLab, GitHub test-report actions and Azure DevOps read it, valid against the
/// Surefire/Ant schema (`junit-10.xsd`).
///
/// ```xml
/// <testsuites name="apitest" tests="2" failures="1" errors="0" time="0.031">
///   <testsuite name="Users API" tests="2" failures="1" errors="0" skipped="0" time="0.020"
///              timestamp="2025-05-01T12:00:00Z" hostname="ci-7" file="suites/users.yaml">
///     <testcase name="list users" classname="Users API" time="0.012">
///       <system-out>…the steps' requests…</system-out>
///     </testcase>
///     <testcase name="create a user" classname="Users API" time="0.008">
///       <failure message="expected status 201, got 400" type="assertion">…</failure>
///       <system-out>…</system-out>
///     </testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// Mapping: a failed test has one `failure` (its message is the first failed assertion's; the text lists every
/// one with location, expected, actual and the request line, and each failed step's `reproduce:` curl command); an errored test has one `error` whose type is the
/// error kind (`connectionRefused`, `timedOut`, `tls`, ...); a cancelled test (cut off by Ctrl-C) is an `error` of
/// type `cancelled`; a skipped test is `skipped`, and so is a planned test that never started because the run was
/// interrupted (message `not run: the run was interrupted`). The suite file is on `testsuite`, the test's
/// `file:line:column` opens its `system-out`.
///
/// Each `testcase` also has `file` and `line` (where the test is declared), which GitLab's test report shows and
/// GitHub's JUnit report actions annotate; `junit-10.xsd` has no such attributes on `testcase`, so
/// `locations: false` leaves them out for consumers that validate against it strictly.
package struct JUnitReportFormat: ReportFormat {
    package var displayName: String { "JUnit XML" }
    /// A passing step shows its request line, status, HTTP version and timings in `system-out`.
    package var resultDetail: ResultDetail { .requestLines }
    /// Whether each `testcase` has `file` and `line` attributes.
    package var locations: Bool

    /// The format; `locations` adds `file` and `line` to each `testcase`.
    package init(locations: Bool = true) {
        self.locations = locations
    }

    package func render(_ record: RunRecord) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let summary = record.summary
        let totals = record.suites.reduce(into: (tests: 0, failures: 0, errors: 0)) { totals, suite in
            totals.tests += suite.results.count + suite.notRun.count
            totals.failures += suite.count(.failed)
            totals.errors += suite.count(.errored) + suite.count(.cancelled)
        }
        xml +=
            "<testsuites"
            + ReportText.xmlAttributes([
                ("name", "apitest"), ("tests", "\(totals.tests)"), ("failures", "\(totals.failures)"),
                ("errors", "\(totals.errors)"), ("time", ReportText.secondsText(summary.duration)),
            ]) + ">\n"
        for suite in record.suites { xml += render(suite, record: record) }
        xml += "</testsuites>\n"
        return xml
    }

    // MARK: - Suites and cases

    private func render(_ suite: RunRecord.Suite, record: RunRecord) -> String {
        let skipped = suite.count(.skipped) + suite.notRun.count
        var xml =
            "  <testsuite"
            + ReportText.xmlAttributes([
                ("name", suite.name), ("tests", "\(suite.results.count + suite.notRun.count)"),
                ("failures", "\(suite.count(.failed))"),
                ("errors", "\(suite.count(.errored) + suite.count(.cancelled))"), ("skipped", "\(skipped)"),
                ("time", ReportText.secondsText(suite.testTime)), ("timestamp", ReportText.iso8601(record.startedAt)),
                ("hostname", record.hostname), ("file", suite.file),
            ]) + ">\n"
        for entry in suite.entries {
            switch entry {
            case .result(let result):
                xml += render(result)
            case .notRun(let name):
                xml +=
                    "    <testcase"
                    + ReportText.xmlAttributes([("name", name), ("classname", suite.name), ("time", "0.000")])
                    + ">\n"
                xml +=
                    "      <skipped" + ReportText.xmlAttributes([("message", "not run: the run was interrupted")])
                    + "/>\n"
                xml += "    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n"
        return xml
    }

    private func render(_ result: TestResult) -> String {
        var xml =
            "    <testcase"
            + ReportText.xmlAttributes(
                [
                    ("name", result.name), ("classname", result.suiteName),
                    ("time", ReportText.secondsText(result.duration)),
                ]
                    + (locations && !result.location.file.isEmpty
                        ? [("file", result.location.file), ("line", "\(result.location.line)")] : [])) + ">\n"
        switch result.status {
        case .passed:
            break
        case .failed:
            let failures = result.failures
            var message = failures.first?.message ?? "failed"
            if failures.count > 1 { message += " (and \(failures.count - 1) more)" }
            // A teardown runs on after a failed step, so a failed test may hold errors as well, and the reverse.
            xml += element(
                "failure", [("message", message), ("type", "assertion")],
                text: failureText(result) + errorText(result))
        case .errored:
            let error = result.error
            xml += element(
                "error", [("message", error?.message ?? "errored"), ("type", error?.kind.rawValue ?? "error")],
                text: errorText(result) + failureText(result))
        case .cancelled:
            xml += element(
                "error", [("message", result.reason ?? "interrupted"), ("type", "cancelled")],
                text: "cut off: the run was interrupted (Ctrl-C) while this test was running\n" + errorText(result))
        case .skipped:
            xml += "      <skipped" + ReportText.xmlAttributes([("message", result.reason ?? "skipped")]) + "/>\n"
        }
        xml += element("system-out", [], text: systemOut(result))
        xml += "    </testcase>\n"
        return xml
    }

    // MARK: - Texts

    /// Every failed assertion: `file:line:column: message`, expected, actual and the request line.
    private func failureText(_ result: TestResult) -> String {
        var text = ""
        for step in result.steps {
            for failure in step.failures {
                text += "\(failure.location): \(ReportText.terminalLine(failure.message))\n"
                if let expected = failure.expected { text += "  expected: \(indented(expected))\n" }
                if let actual = failure.actual { text += "  actual:   \(indented(actual))\n" }
                if let exchange = step.exchange { text += "  request:  \(ReportText.requestSummary(exchange))\n" }
            }
            if !step.failures.isEmpty { text += reproduceText(step) }
        }
        return text
    }

    /// `  reproduce: curl ...` and the command's notes, for a step that did not pass.
    private func reproduceText(_ step: StepResult) -> String {
        guard let command = step.reproduce else { return "" }
        var text = "  reproduce: \(command.line)\n"
        for note in command.notes { text += "  note: \(note)\n" }
        return text
    }

    private func errorText(_ result: TestResult) -> String {
        var text = ""
        for step in result.steps {
            guard let error = step.error else { continue }
            text +=
                "\(error.location ?? step.location): \(ReportText.terminalLine(error.message)) [\(error.kind.rawValue)]\n"
            if let exchange = step.exchange { text += "  request:  \(ReportText.requestSummary(exchange))\n" }
            text += reproduceText(step)
        }
        return text
    }

    /// The test's location and each step's request line, status and timings.
    private func systemOut(_ result: TestResult) -> String {
        var text = "test at \(result.location)\n"
        for step in result.steps {
            // A step's name may hold a server's text (a `forEach` item): one line, like every line of this text.
            text += "\(ReportText.terminalLine(step.displayName)) at \(step.location): "
            if let skipped = step.skipped {
                text += "skipped: \(skipped)\n"
                continue
            }
            if let exchange = step.exchange {
                text += ReportText.requestSummary(exchange)
                if let version = exchange.httpVersion { text += " \(version)" }
                text += "\n"
                if let timings = exchange.timings { text += "  \(ReportText.timingsLine(timings))\n" }
            } else {
                text += "no request was sent\n"
            }
            if step.attempts > 1 { text += "  attempts: \(step.attempts)\n" }
            if !step.captured.isEmpty { text += "  captured: \(step.captured.joined(separator: ", "))\n" }
        }
        return text
    }

    private func indented(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\n            ")
    }

    // MARK: - XML

    private func element(_ name: String, _ pairs: [(String, String)], text: String) -> String {
        "      <\(name)\(ReportText.xmlAttributes(pairs))>\(ReportText.xmlText(text))</\(name)>\n"
    }
}
