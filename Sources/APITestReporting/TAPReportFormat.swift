package import APITestResults
import APITestSupport
import Foundation

/// TAP (Test Anything Protocol): TAP 13 by default, which the `prove` of Debian 12 (TAP::Harness 3.44) reads; TAP
/// 14 with a subtest per step on request.
///
/// ```
/// TAP version 13
/// 1..3
/// ok 1 - Users API › list users
/// not ok 2 - Users API › create a user
///   ---
///   message: "expected status 201, got 400"
///   severity: fail
///   expected: "201"
///   actual: "400"
///   location: "suites/users.yaml:23:17"
///   request: "POST http://127.0.0.1:8080/api/users → 400"
///   ...
/// ok 3 - Users API › export # SKIP not implemented yet
/// ```
///
/// A flaky test (failed, then passed when run again: `--retries`) is `ok` with `flaky` and its `earlier_runs` in
/// its diagnostics; a test that never passed lists its `earlier_runs` too.
///
/// Every planned test has a test point, so the plan always matches: a test cut off by Ctrl-C is
/// `not ok N - … # interrupted` (a failure for every consumer), and a planned test that never started is
/// `ok N - … # SKIP not run: the run was interrupted`. There is no `Bail out!`: it makes harnesses drop the counts.
package struct TAPReportFormat: ReportFormat {
    /// Which TAP to write.
    package enum Version: Int, Sendable, CaseIterable {
        /// `TAP version 13`: flat test points with YAML diagnostics.
        case tap13 = 13
        /// `TAP version 14`: also a subtest per step (indented four spaces). Debian 12's `prove` refuses it.
        case tap14 = 14
    }

    package var version: Version

    package init(version: Version = .tap13) {
        self.version = version
    }

    package var displayName: String { "TAP" }
    /// A passing step is named by its request line and status.
    package var resultDetail: ResultDetail { .requestLines }

    package func render(_ record: RunRecord) -> String {
        var lines = ["TAP version \(version.rawValue)"]
        let total = record.suites.reduce(0) { $0 + $1.results.count + $1.notRun.count }
        lines.append("1..\(total)")
        var number = 0
        for suite in record.suites {
            lines.append("# \(ReportText.oneLine(suite.name)) (\(ReportText.oneLine(suite.file)))")
            for entry in suite.entries {
                number += 1
                switch entry {
                case .result(let result):
                    if version == .tap14 && !result.steps.isEmpty { lines += subtest(result) }
                    lines += testPoint(result, number: number)
                case .notRun(let name):
                    lines.append(
                        "ok \(number) - \(description(suite.name, name)) # SKIP not run: the run was interrupted")
                }
            }
        }
        let summary = record.summary
        var closing =
            "# \(summary.total) tests: \(summary.passed) passed, \(summary.failed) failed, "
            + "\(summary.errored) errored, \(summary.skipped) skipped, \(summary.cancelled) cancelled"
            + (summary.flaky > 0 ? ", \(summary.flaky) flaky" : "")
        if summary.interrupted || record.notRunCount > 0 {
            closing += "; interrupted (Ctrl-C): \(record.notRunCount) not run"
        }
        lines.append(closing)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Test points

    private func testPoint(_ result: TestResult, number: Int) -> [String] {
        let name = description(result.suiteName, result.name)
        switch result.status {
        case .passed:
            // A passing test shows diagnostics only when it took retries; a flaky one says so with every run.
            let attempts = result.steps.map(\.attempts).max() ?? 1
            var fields: [(String, YAMLValue)] = attempts > 1 ? [("attempts", .integer(attempts))] : []
            if result.isFlaky {
                fields += [
                    ("flaky", .string("failed, then passed when run again")), ("runs", .integer(result.attemptCount)),
                ]
                fields += earlierRuns(result)
            }
            guard !fields.isEmpty else { return ["ok \(number) - \(name)"] }
            return ["ok \(number) - \(name)"] + yamlBlock(fields, indent: "  ")
        case .skipped:
            return ["ok \(number) - \(name) # SKIP \(ReportText.oneLine(result.reason ?? "skipped"))"]
        case .failed, .errored:
            return ["not ok \(number) - \(name)"] + yamlBlock(diagnostics(result), indent: "  ")
        case .cancelled:
            return ["not ok \(number) - \(name) # interrupted"] + yamlBlock(diagnostics(result), indent: "  ")
        }
    }

    /// TAP 14: `# Subtest: name`, then the steps as an indented document with its own plan.
    private func subtest(_ result: TestResult) -> [String] {
        let indent = "    "
        var lines = ["# Subtest: \(description(result.suiteName, result.name))", "\(indent)1..\(result.steps.count)"]
        for (offset, step) in result.steps.enumerated() {
            let number = offset + 1
            var name = step.displayName
            if let exchange = step.exchange { name += ": " + ReportText.requestSummary(exchange) }
            name = escapeDescription(name)
            if let skipped = step.skipped {
                lines.append("\(indent)ok \(number) - \(name) # SKIP \(ReportText.oneLine(skipped))")
                continue
            }
            if step.failures.isEmpty && step.error == nil {
                lines.append("\(indent)ok \(number) - \(name)")
                continue
            }
            let cancelled = result.status == .cancelled && step.error != nil
            lines.append("\(indent)not ok \(number) - \(name)\(cancelled ? " # interrupted" : "")")
            let fields = stepDiagnostics(step, cancelled: cancelled)
            lines += yamlBlock(fields, indent: indent + "  ")
        }
        return lines
    }

    private func description(_ suite: String, _ test: String) -> String {
        escapeDescription("\(suite) › \(test)")
    }

    /// One line; `\` and `#` escaped so that nothing in a name reads as a directive.
    private func escapeDescription(_ text: String) -> String {
        ReportText.oneLine(text).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "#", with: "\\#")
    }

    // MARK: - Diagnostics

    private enum YAMLValue {
        case string(String)
        case integer(Int)
        case number(Double)
        case list([[(String, YAMLValue)]])
    }

    private func diagnostics(_ result: TestResult) -> [(String, YAMLValue)] {
        var fields: [(String, YAMLValue)] = []
        let failureSteps = result.steps.filter { !$0.failures.isEmpty || $0.error != nil }
        if let step = failureSteps.first {
            fields += stepDiagnostics(step, cancelled: result.status == .cancelled)
        } else {
            fields.append(("message", .string(result.reason ?? result.status.rawValue)))
            fields.append(("severity", .string(result.status == .cancelled ? "cancelled" : "fail")))
        }
        let failures = result.failures
        if failures.count > 1 {
            fields.append(("failures", .list(failures.map(failureFields))))
        }
        // A teardown runs on after a failed step: every error is listed when there is more than the one above.
        let errors = result.steps.compactMap { step in step.error.map { (step, $0) } }
        let firstIsError = failureSteps.first.map { $0.failures.isEmpty } ?? false
        if errors.count > (firstIsError ? 1 : 0) {
            fields.append(
                (
                    "errors",
                    .list(
                        errors.map { step, error in
                            [
                                ("message", .string(error.message)), ("kind", .string(error.kind.rawValue)),
                                ("location", .string((error.location ?? step.location).description)),
                            ]
                        })
                ))
        }
        fields.append(("test", .string(result.location.description)))
        fields.append(("duration_ms", .number(ReportText.milliseconds(result.duration))))
        if !result.earlierAttempts.isEmpty { fields.append(("runs", .integer(result.attemptCount))) }
        fields += earlierRuns(result)
        return fields
    }

    /// `earlier_runs:` of a test run again (`--retries`): each earlier run's status, first failure or error and
    /// duration; nothing for a test run once.
    private func earlierRuns(_ result: TestResult) -> [(String, YAMLValue)] {
        guard !result.earlierAttempts.isEmpty else { return [] }
        let runs: [[(String, YAMLValue)]] = result.earlierAttempts.enumerated().map { index, attempt in
            var fields: [(String, YAMLValue)] = [
                ("run", .integer(index + 1)), ("status", .string(attempt.status.rawValue)),
            ]
            if let step = attempt.steps.first(where: { !$0.failures.isEmpty || $0.error != nil }) {
                fields += stepDiagnostics(step, cancelled: attempt.status == .cancelled)
            }
            fields.append(("duration_ms", .number(ReportText.milliseconds(attempt.duration))))
            return fields
        }
        return [("earlier_runs", .list(runs))]
    }

    /// message, severity, expected, actual, location and request of a step's first failure or its error.
    private func stepDiagnostics(_ step: StepResult, cancelled: Bool) -> [(String, YAMLValue)] {
        var fields: [(String, YAMLValue)] = []
        if let failure = step.failures.first {
            fields.append(("message", .string(failure.message)))
            fields.append(("severity", .string("fail")))
            fields += failureFields(failure).filter { $0.0 != "message" }
        } else if let error = step.error {
            fields.append(("message", .string(error.message)))
            fields.append(("severity", .string(cancelled ? "cancelled" : "error")))
            fields.append(("kind", .string(error.kind.rawValue)))
            fields.append(("location", .string((error.location ?? step.location).description)))
        }
        if let exchange = step.exchange {
            fields.append(("request", .string(ReportText.requestSummary(exchange))))
        }
        if step.attempts > 1 { fields.append(("attempts", .integer(step.attempts))) }
        return fields
    }

    private func failureFields(_ failure: AssertionFailure) -> [(String, YAMLValue)] {
        var fields: [(String, YAMLValue)] = [("message", .string(failure.message))]
        if let expected = failure.expected { fields.append(("expected", .string(expected))) }
        if let actual = failure.actual { fields.append(("actual", .string(actual))) }
        fields.append(("location", .string(failure.location.description)))
        return fields
    }

    // MARK: - YAML

    private func yamlBlock(_ fields: [(String, YAMLValue)], indent: String) -> [String] {
        ["\(indent)---"] + yamlMapping(fields, indent: indent) + ["\(indent)..."]
    }

    private func yamlMapping(_ fields: [(String, YAMLValue)], indent: String) -> [String] {
        var lines: [String] = []
        for (key, value) in fields {
            switch value {
            case .string(let text):
                lines.append("\(indent)\(key): \(Self.yamlQuoted(text))")
            case .integer(let number):
                lines.append("\(indent)\(key): \(number)")
            case .number(let number):
                lines.append("\(indent)\(key): \(ReportText.number(number))")
            case .list(let items):
                lines.append("\(indent)\(key):")
                for item in items {
                    let mapping = yamlMapping(item, indent: indent + "    ")
                    guard let first = mapping.first else { continue }
                    lines.append("\(indent)  - " + first.dropFirst(indent.count + 4))
                    lines += mapping.dropFirst()
                }
            }
        }
        return lines
    }

    /// A YAML double-quoted scalar on one line, with the escapes TAP::Parser's YAMLish reader understands; a line
    /// or paragraph separator, a bidirectional control or a noncharacter is shown as ``ReportText`` shows it
    /// (`\u{2028}`), never raw.
    package static func yamlQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else if ReportText.needsVisibleForm(scalar) {
                    // U+FFFE, U+FFFF, line and paragraph separators, bidirectional controls: their visible form,
                    // as the console, JUnit and HTML show them.
                    result += ReportText.visible(scalar).replacingOccurrences(of: "\\", with: "\\\\")
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
