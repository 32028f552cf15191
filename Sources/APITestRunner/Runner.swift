import APITestHTTP
import APITestResults
import APITestSuite
import Foundation
import Synchronization

/// Runs the tests of loaded suites concurrently (at most `RunOptions.jobs` at once) and streams run events to a
/// reporter.
///
/// Each test's steps run in order and share captures; tests of a suite share its variables and cookie jar.
/// A network failure errors that test and the run goes on. Cancelling the calling task (Ctrl-C) cancels the
/// transfers in flight; their tests end as `cancelled` and the run reports what it has.
public final class Runner: Sendable {
    private let session: SessionManager
    private let options: RunOptions

    public init(session: SessionManager, options: RunOptions) {
        self.session = session
        self.options = options
    }

    /// Runs every test of `suites`, in file order as far as the concurrency allows.
    public func run(_ suites: [Suite], reporter: any Reporter) async -> RunSummary {
        let clock = ContinuousClock()
        let start = clock.now
        let sink = EventSink(reporter: reporter)
        let plan = RunPlan(
            suites: suites.map { RunPlan.SuiteEntry(name: $0.name, file: $0.file, tests: $0.tests.map(\.name)) },
            jobs: options.jobs)
        sink.emit(.runStarted(plan))

        let runtimes = suites.map { SuiteRuntime(suite: $0, userAgent: options.userAgent) }
        var queue: [(suite: Int, test: Int)] = []
        for (suiteIndex, suite) in suites.enumerated() {
            for testIndex in suite.tests.indices { queue.append((suiteIndex, testIndex)) }
        }
        let executor = TestExecutor(session: session, options: options, events: sink)

        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func startNext() -> Bool {
                guard next < queue.count, !Task.isCancelled else { return false }
                let (suiteIndex, testIndex) = queue[next]
                next += 1
                let runtime = runtimes[suiteIndex]
                let test = runtime.suite.tests[testIndex]
                sink.emit(.testStarted(suiteName: runtime.suite.name, testName: test.name))
                group.addTask {
                    let result = await executor.run(test, in: runtime)
                    sink.emit(.testFinished(result))
                }
                return true
            }
            for _ in 0..<options.jobs where startNext() {}
            while await group.next() != nil {
                _ = startNext()
            }
        }
        for runtime in runtimes { session.close(runtime.cookieJar) }

        var summary = sink.summary
        summary.duration = clock.now - start
        summary.interrupted = Task.isCancelled
        sink.emit(.runFinished(summary))
        return summary
    }
}

/// Delivers events to a reporter one at a time and counts results.
final class EventSink: Sendable {
    private let reporter: any Reporter
    private let counts = Mutex(RunSummary())

    init(reporter: any Reporter) {
        self.reporter = reporter
    }

    func emit(_ event: RunEvent) {
        counts.withLock { summary in
            if case .testFinished(let result) = event { summary.record(result.status) }
            reporter.handle(event)
        }
    }

    var summary: RunSummary { counts.withLock { $0 } }
}
