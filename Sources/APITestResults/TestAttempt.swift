/// One run of a test that was run again (`--retries N`, a test's `retries:`): what that attempt ended with. The
/// test's own result is its last attempt; ``TestResult/earlierAttempts`` holds the ones before it, in order.
///
/// Not a step's `retry:`, which sends one request again inside a single attempt of its test
/// (``StepResult/attempts``): a test's attempt is a fresh run of every step of the test.
package struct TestAttempt: Sendable, Hashable, Codable {
    /// How the attempt ended: never `passed` for an earlier attempt (a test is run again only when it did not pass).
    package var status: TestStatus
    /// Wall time of the attempt.
    package var duration: Duration
    /// The attempt's steps, sealed as every step is.
    package var steps: [StepResult]
    /// Why the attempt ended without running (cancelled), when it did.
    package var reason: String?

    /// The attempt that ended with `status` after `duration`, with `steps`.
    package init(status: TestStatus, duration: Duration, steps: [StepResult], reason: String? = nil) {
        self.status = status
        self.duration = duration
        self.steps = steps
        self.reason = reason
    }

    /// The attempt `result` was (its earlier attempts left out).
    package init(_ result: TestResult) {
        self.init(status: result.status, duration: result.duration, steps: result.steps, reason: result.reason)
    }

    /// Every assertion failure of every step.
    package var failures: [AssertionFailure] { steps.flatMap(\.failures) }

    /// The first error of any step.
    package var error: TestError? { steps.lazy.compactMap(\.error).first }
}
