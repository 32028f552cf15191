import APITestResults
import APITestSuite

// MARK: - TestRetry

/// When a test that did not pass is run again (`--retries N`, a test's `retries:`): the whole test, afresh, with
/// what the suite's `setup` left (the setup is not run again) and a new copy of its cookies, until it passes or its
/// retries are spent. A test that fails and then passes is flaky (``TestResult/isFlaky``); every attempt is kept.
///
/// Distinct from a step's `retry:` (``RetrySpec``), which sends one request again inside one run of the test.
enum TestRetry {
    /// How many times `test` may be run again: its own `retries:`, else the run's `--retries`.
    static func retries(of test: TestCase, options: RunOptions) -> Int {
        max(0, test.retries ?? options.retries)
    }

    /// Whether a test that ended as `result` after `setup` is worth running again: it failed or errored (not
    /// skipped, cancelled or passed), and not because the suite's setup failed (which running the test again
    /// cannot change), and the run goes on.
    static func runsAgain(_ result: TestResult, setup: SetupOutcome, runtime: SuiteRuntime) -> Bool {
        guard result.status == .failed || result.status == .errored, !Task.isCancelled else { return false }
        guard runtime.setupError == nil else { return false }
        switch setup {
        case .none, .passed: return true
        case .failed, .cancelled: return false
        }
    }
}

// MARK: - Running a test with its retries

extension TestExecutor {
    /// Runs `test`, and again while it fails or errors and it has retries left (``TestRetry``); the result is the
    /// last attempt's, holding the earlier ones.
    func runRetrying(_ test: TestCase, in runtime: SuiteRuntime, setup: SetupOutcome = .none) async -> TestResult {
        var result = await run(test, in: runtime, setup: setup)
        let retries = TestRetry.retries(of: test, options: options)
        var earlier: [TestAttempt] = []
        while earlier.count < retries, TestRetry.runsAgain(result, setup: setup, runtime: runtime) {
            earlier.append(TestAttempt(result))
            result = await run(test, in: runtime, setup: setup)
        }
        result.earlierAttempts = earlier
        return result
    }
}
