import APITestSupport

/// What happens during a run, in order: the stream reporters consume (AFNetworking's task notifications).
package enum RunEvent: Sendable {
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
package struct RunPlan: Sendable, Hashable {
    /// A suite and the names of its tests, in file order.
    package struct SuiteEntry: Sendable, Hashable {
        package var name: String
        package var file: String
        package var tests: [String]

        package init(name: String, file: String, tests: [String]) {
            self.name = name
            self.file = file
            self.tests = tests
        }
    }

    package var suites: [SuiteEntry]
    package var jobs: Int

    package init(suites: [SuiteEntry], jobs: Int) {
        self.suites = suites
        self.jobs = jobs
    }

    package var testCount: Int { suites.reduce(0) { $0 + $1.tests.count } }
}

/// Counts and time of a finished run.
package struct RunSummary: Sendable, Hashable, Codable {
    package var passed: Int
    package var failed: Int
    package var errored: Int
    package var skipped: Int
    package var cancelled: Int
    /// Tests that did not pass and then passed when run again (``TestResult/isFlaky``): not among `passed`.
    package var flaky = 0
    package var duration: Duration
    package var interrupted: Bool
    /// What the run covered of the OpenAPI documents its suites name; `nil` when none names one.
    package var coverage: OpenAPICoverage?
    /// What the run called of the gRPC methods its suites' descriptors declare; `nil` when no suite has a `grpc:`
    /// step.
    package var grpcCoverage: GRPCCoverage?

    package init(
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

    package var total: Int { passed + failed + errored + skipped + cancelled + flaky }

    /// Counts one more test: a flaky one as `flaky`, any other by its status.
    package mutating func record(_ result: TestResult) {
        if result.isFlaky {
            flaky += 1
        } else {
            record(result.status)
        }
    }

    /// Counts one more result.
    package mutating func record(_ status: TestStatus) {
        switch status {
        case .passed: passed += 1
        case .failed: failed += 1
        case .errored: errored += 1
        case .skipped: skipped += 1
        case .cancelled: cancelled += 1
        }
    }

    /// True when nothing failed, errored, was flaky or was cut off.
    package var succeeded: Bool { succeeded(flakyFails: true) }

    /// True when nothing failed, errored or was cut off, and, when `flakyFails` (`--flaky fail`, the default),
    /// nothing was flaky.
    package func succeeded(flakyFails: Bool) -> Bool {
        failed == 0 && errored == 0 && cancelled == 0 && !interrupted && (!flakyFails || flaky == 0)
    }
}

/// Consumes run events. The runner delivers events one at a time, never concurrently.
package protocol Reporter: AnyObject, Sendable {
    func handle(_ event: RunEvent)
    /// What the reporter reads of the results it is handed; the runner records no more than its reporter reads.
    var resultDetail: ResultDetail { get }
}

extension Reporter {
    /// Every step's whole exchange and checks, for a reporter that does not say what it reads.
    package var resultDetail: ResultDetail { .everyStep }
}
