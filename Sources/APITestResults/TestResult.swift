import APITestSupport

/// How a test ended.
public enum TestStatus: String, Sendable, Hashable, Codable {
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
public struct TestResult: Sendable, Hashable, Codable {
    public var suiteName: String
    public var suiteFile: String
    public var name: String
    public var location: SourceLocation
    public var status: TestStatus
    /// Wall time from the test's start to its end.
    public var duration: Duration
    public var steps: [StepResult]
    /// Why the test was skipped or cancelled, when it was.
    public var reason: String?

    public init(
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
    public var failures: [AssertionFailure] { steps.flatMap(\.failures) }

    /// The first error of any step.
    public var error: TestError? { steps.lazy.compactMap(\.error).first }
}

/// The outcome of one step: its request, the response facts, and its failed assertions.
public struct StepResult: Sendable, Hashable, Codable {
    public var index: Int
    public var location: SourceLocation
    /// What was sent and received; `nil` when the request could not be built.
    public var exchange: Exchange?
    public var failures: [AssertionFailure]
    /// Every assertion the step checked, passed or not, in the order they were checked.
    public var checks: [AssertionCheck]
    public var error: TestError?
    /// Names of the values this step captured.
    public var captured: [String]
    /// How many times the request was sent (more than 1 when the step has `retry`); the result is the last one's.
    public var attempts: Int

    public init(
        index: Int, location: SourceLocation, exchange: Exchange?, failures: [AssertionFailure] = [],
        checks: [AssertionCheck] = [], error: TestError? = nil, captured: [String] = [], attempts: Int = 1
    ) {
        self.attempts = attempts
        self.index = index
        self.location = location
        self.exchange = exchange
        self.failures = failures
        self.checks = checks
        self.error = error
        self.captured = captured
    }
}

/// An assertion that did not hold: where it is written, what it checked, what it expected and what it got.
public struct AssertionFailure: Sendable, Hashable, Codable {
    public var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `jsonpath $.users[0].name`.
    public var subject: String
    /// A one-line summary, e.g. `expected status 201, got 400`.
    public var message: String
    public var expected: String?
    public var actual: String?

    public init(
        location: SourceLocation, subject: String, message: String, expected: String? = nil, actual: String? = nil
    ) {
        self.location = location
        self.subject = subject
        self.message = message
        self.expected = expected
        self.actual = actual
    }
}

/// One assertion as checked: where it is written, what it checked, what it expected, and whether it held.
public struct AssertionCheck: Sendable, Hashable, Codable {
    public var location: SourceLocation
    /// What was checked, e.g. `status`, `header Content-Type`, `$.users[0].name`.
    public var subject: String
    /// What it had to be, e.g. `200`, `to contain "json"`.
    public var expected: String
    public var passed: Bool

    public init(location: SourceLocation, subject: String, expected: String, passed: Bool) {
        self.location = location
        self.subject = subject
        self.expected = expected
        self.passed = passed
    }
}

/// Why a step could not complete.
public struct TestError: Error, Sendable, Hashable, Codable {
    /// A short machine-readable kind (`connectionRefused`, `timedOut`, `template`, ...).
    public var kind: String
    public var message: String
    public var location: SourceLocation?

    public init(kind: String, message: String, location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }
}
