package import APITestSupport

/// How a test ended.
package enum TestStatus: String, Sendable, Hashable, Codable {
    /// Every assertion of every step held.
    case passed
    /// An assertion did not hold.
    case failed
    /// The test could not complete: a network or TLS failure, an undefined variable at run time, a bad URL.
    case errored
    /// The test was not run, on purpose or because something it depends on failed.
    case skipped
    /// The run was interrupted (Ctrl-C) while the test was in flight.
    case cancelled
}

/// The outcome of one test: its steps, in order, and what failed.
package struct TestResult: Sendable, Hashable, Codable {
    package var suiteName: String
    package var suiteFile: String
    package var name: String
    package var location: SourceLocation
    package var status: TestStatus
    /// Wall time from the test's start to its end.
    package var duration: Duration
    package var steps: [StepResult]
    /// Why the test was skipped or cancelled, when it was.
    package var reason: String?
    /// The attempts before this one, in order, when the test was run again after it did not pass (`--retries N`,
    /// `retries:`); empty for a test run once. The result's own status, steps and duration are its last attempt's.
    package var earlierAttempts: [TestAttempt] = []

    package init(
        suiteName: String, suiteFile: String, name: String, location: SourceLocation, status: TestStatus,
        duration: Duration, steps: [StepResult], reason: String? = nil
    ) {
        self.suiteName = suiteName
        self.suiteFile = suiteFile
        self.name = name
        self.location = location
        self.status = status
        self.duration = duration
        self.steps = steps
        self.reason = reason
    }

    /// Every assertion failure of every step.
    package var failures: [AssertionFailure] { steps.flatMap(\.failures) }

    /// The first error of any step.
    package var error: TestError? { steps.lazy.compactMap(\.error).first }

    /// A test that did not pass and then passed when run again: flaky, not passed. Reports count it apart, and the
    /// run fails on it unless `--flaky pass`.
    package var isFlaky: Bool { status == .passed && !earlierAttempts.isEmpty }

    /// How many times the test was run: 1, plus one per retry.
    package var attemptCount: Int { earlierAttempts.count + 1 }

    /// Every attempt in order, the last being this result's own (without its earlier attempts).
    package var allAttempts: [TestAttempt] { earlierAttempts + [TestAttempt(self)] }
}
