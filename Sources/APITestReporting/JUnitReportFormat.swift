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
/// A test run more than once (`--retries`, `retries:`) is one `testcase` as Surefire writes a rerun test: its last
/// attempt as above, and each earlier attempt as a `flakyFailure`/`flakyError` when it passed in the end (a flaky
/// test, which Jenkins and GitLab show as such) or a `rerunFailure`/`rerunError` when it never did, each with its
/// message, type, failures (`stackTrace`) and steps (`system-out`).
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
        xml += outcome(TestAttempt(result))
        // Each attempt before the last: flaky when the test then passed, a rerun failure when it never did.
        for (number, attempt) in result.earlierAttempts.enumerated() {
            xml += rerun(attempt, number: number + 1, of: result.attemptCount, flaky: result.isFlaky)
        }
        xml += element("system-out", [], text: systemOut(result.location, result.steps, attempts: result.attemptCount))
        xml += "    </testcase>\n"
        return xml
    }

    /// The `failure`, `error` or `skipped` element of how `attempt` (the test's last) ended; none when it passed.
    private func outcome(_ attempt: TestAttempt) -> String {
        switch attempt.status {
        case .passed:
            return ""
        case .failed:
            // A teardown runs on after a failed step, so a failed test may hold errors as well, and the reverse.
            return element(
                "failure", [("message", failureMessage(attempt)), ("type", "assertion")],
                text: failureText(attempt.steps) + errorText(attempt.steps))
        case .errored:
            let error = attempt.error
            return element(
                "error", [("message", error?.message ?? "errored"), ("type", error?.kind.rawValue ?? "error")],
                text: errorText(attempt.steps) + failureText(attempt.steps))
        case .cancelled:
            return element(
                "error", [("message", attempt.reason ?? "interrupted"), ("type", "cancelled")],
                text: "cut off: the run was interrupted (Ctrl-C) while this test was running\n"
                    + errorText(attempt.steps))
        case .skipped:
            return "      <skipped" + ReportText.xmlAttributes([("message", attempt.reason ?? "skipped")]) + "/>\n"
        }
    }

    /// An earlier attempt as Surefire writes a rerun: `flakyFailure`/`flakyError` when the test passed in the end,
    /// `rerunFailure`/`rerunError` when it never did, with the message, type, the failures as `stackTrace` and the
    /// attempt's steps as `system-out`.
    private func rerun(_ attempt: TestAttempt, number: Int, of count: Int, flaky: Bool) -> String {
        let failed = attempt.status == .failed
        let name = (flaky ? "flaky" : "rerun") + (failed ? "Failure" : "Error")
        let message: String
        let type: String
        if failed {
            (message, type) = (failureMessage(attempt), "assertion")
        } else {
            let error = attempt.error
            (message, type) = (error?.message ?? attempt.reason ?? "errored", error?.kind.rawValue ?? "error")
        }
        let trace =
            "attempt \(number) of \(count)\n"
            + (failed
                ? failureText(attempt.steps) + errorText(attempt.steps)
                : errorText(attempt.steps) + failureText(attempt.steps))
        return "      <\(name)\(ReportText.xmlAttributes([("message", message), ("type", type)]))>\n"
            + "        <stackTrace>\(ReportText.xmlText(trace))</stackTrace>\n"
            + "        <system-out>\(ReportText.xmlText(systemOut(nil, attempt.steps, attempts: nil)))</system-out>\n"
            + "      </\(name)>\n"
    }

    /// The first failed assertion's message, with how many more there are.
    private func failureMessage(_ attempt: TestAttempt) -> String {
        let failures = attempt.failures
        var message = failures.first?.message ?? "failed"
        if failures.count > 1 { message += " (and \(failures.count - 1) more)" }
        return message
    }

    // MARK: - Texts

    private func failureText(_ steps: [StepResult]) -> String { StepText.failures(steps) }

    private func errorText(_ steps: [StepResult]) -> String { StepText.errors(steps) }

    private func systemOut(_ location: SourceLocation?, _ steps: [StepResult], attempts: Int?) -> String {
        StepText.requests(location, steps, attempts: attempts)
    }

    // MARK: - XML

    private func element(_ name: String, _ pairs: [(String, String)], text: String) -> String {
        "      <\(name)\(ReportText.xmlAttributes(pairs))>\(ReportText.xmlText(text))</\(name)>\n"
    }
}
