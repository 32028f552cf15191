import APITestSupport

/// What happens during a run, in order: the stream reporters consume (AFNetworking's task notifications).
public enum RunEvent: Sendable {
    /// The run is about to start `plan`.
    case runStarted(RunPlan)
    case testStarted(suiteName: String, testName: String)
    case testFinished(TestResult)
    /// A request body is being sent: `sent` of `total` bytes so far (only for large uploads, at most a few times a
    /// second). Reporters that show live progress use it; others ignore it.
    case uploadProgress(suiteName: String, testName: String, sent: Int64, total: Int64)
    /// Every test has finished (or been cut off); `interrupted` when Ctrl-C stopped the run.
    case runFinished(RunSummary)
}

/// What a run is going to execute.
public struct RunPlan: Sendable, Hashable {
    /// A suite and the names of its tests, in file order.
    public struct SuiteEntry: Sendable, Hashable {
        public var name: String
        public var file: String
        public var tests: [String]

        public init(name: String, file: String, tests: [String]) {
            self.name = name
            self.file = file
            self.tests = tests
        }
    }

    public var suites: [SuiteEntry]
    public var jobs: Int

    public init(suites: [SuiteEntry], jobs: Int) {
        self.suites = suites
        self.jobs = jobs
    }

    public var testCount: Int { suites.reduce(0) { $0 + $1.tests.count } }
}

/// Counts and time of a finished run.
public struct RunSummary: Sendable, Hashable, Codable {
    public var passed: Int
    public var failed: Int
    public var errored: Int
    public var skipped: Int
    public var cancelled: Int
    public var duration: Duration
    public var interrupted: Bool

    public init(
        passed: Int = 0, failed: Int = 0, errored: Int = 0, skipped: Int = 0, cancelled: Int = 0,
        duration: Duration = .zero, interrupted: Bool = false
    ) {
        self.passed = passed
        self.failed = failed
        self.errored = errored
        self.skipped = skipped
        self.cancelled = cancelled
        self.duration = duration
        self.interrupted = interrupted
    }

    public var total: Int { passed + failed + errored + skipped + cancelled }

    /// Counts one more result.
    public mutating func record(_ status: TestStatus) {
        switch status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .errored: errored += 1
        case .skipped: skipped += 1
        case .cancelled: cancelled += 1
        }
    }

    /// True when nothing failed, errored or was cut off.
    public var succeeded: Bool { failed == 0 && errored == 0 && cancelled == 0 && !interrupted }
}

/// Consumes run events. The runner delivers events one at a time, never concurrently.
public protocol Reporter: AnyObject, Sendable {
    func handle(_ event: RunEvent)
}
