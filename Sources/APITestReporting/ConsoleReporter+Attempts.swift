import APITestResults
import APITestSupport

// MARK: - Tests run more than once

extension ConsoleReporter {
    /// `, flaky: passed on run 2 of 2` for a flaky test, `, run 3 times` for one that never passed; empty for a
    /// test run once.
    func runsNote(_ result: TestResult) -> String {
        guard !result.earlierAttempts.isEmpty else { return "" }
        if result.isFlaky { return ", flaky: passed on run \(result.attemptCount) of \(result.attemptCount)" }
        return ", run \(result.attemptCount) times"
    }

    /// Each earlier run of a test run again: `run 1 of 3: failed` and that run's failures, as a failed test's
    /// details show them.
    func earlierAttemptsText(_ result: TestResult) -> String {
        var text = ""
        for (index, attempt) in result.earlierAttempts.enumerated() {
            text +=
                "    " + style.yellow("run \(index + 1) of \(result.attemptCount): \(attempt.status.rawValue)") + "\n"
            text += details(attempt.steps)
        }
        if !result.earlierAttempts.isEmpty, !result.isFlaky {
            text +=
                "    " + style.yellow("run \(result.attemptCount) of \(result.attemptCount): \(result.status.rawValue)")
                + "\n"
        }
        return text
    }
}
