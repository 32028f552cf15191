import APITestChecks
package import APITestHTTP
package import APITestResults
package import APITestSuite
import APITestSupport
import Foundation
import Synchronization

/// Runs the tests of loaded suites concurrently (at most `RunOptions.jobs` at once) and streams run events to a
/// reporter.
///
/// Each test's steps run in order and share captures; tests of a suite share its variables and cookie jar.
/// A network failure errors that test and the run goes on. Cancelling the calling task (Ctrl-C) cancels the
/// transfers in flight; their tests end as `cancelled` and the run reports what it has.
package final class Runner: Sendable {
    private let transport: any HTTPTransport
    private let options: RunOptions
    private let clock: any RunClock

    /// A runner that sends its requests through `transport` (a `SessionManager` in a real run) and times the run
    /// and its tests and waits between a step's attempts on `clock`.
    package init(transport: any HTTPTransport, options: RunOptions, clock: any RunClock = SystemClock()) {
        self.transport = transport
        self.options = options
        self.clock = clock
    }

    /// Runs every test of `suites`, in file order as far as the concurrency allows, holding each suite's requests
    /// to its policy in `policies` (those the preflight built; the ones missing are built here).
    package func run(
        _ suites: [Suite], policies: SecurityPolicies? = nil, reporter: any Reporter
    ) async -> RunSummary {
        let start = clock.now
        let sink = EventSink(reporter: reporter)
        let plan = RunPlan(
            suites: suites.map { suite in
                let hooks = (suite.setup.isEmpty ? [] : ["setup"], suite.teardown.isEmpty ? [] : ["teardown"])
                return RunPlan.SuiteEntry(
                    name: suite.name, file: suite.file, tests: hooks.0 + suite.tests.map(\.name) + hooks.1)
            },
            jobs: options.jobs)
        sink.emit(.runStarted(plan))

        let lifecycles = SuiteLifecycle.make(for: suites, options: options, policies: policies)
        let runtimes = lifecycles.map(\.runtime)
        var order: [(suite: Int, test: Int)] = []
        for (suiteIndex, suite) in suites.enumerated() {
            for testIndex in suite.tests.indices { order.append((suiteIndex, testIndex)) }
        }
        // Every contract the suites name counts in the coverage from the start, hit or not.
        let coverage = ContractCoverageRecorder(
            contracts: suites.compactMap { suite in suite.contract.map { ($0.contract, $0.displayPath) } })
        let executor = TestExecutor(
            transport: transport, options: options, events: sink,
            reachability: options.failFastUnreachable ? HostReachability() : nil, resultDetail: reporter.resultDetail,
            contracts: ContractChecker(coverage: coverage), clock: clock,
            grpcCoverage: GRPCCoverageRecorder.needed(for: suites) ? GRPCCoverageRecorder(suites: suites) : nil)

        // `jobs` workers each take the next test from one shared queue until it is empty: no task per test and no
        // hop through a coordinating task between tests.
        let tests = TestQueue(order)
        let workers = min(options.jobs, order.count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while !Task.isCancelled {
                        guard let (suiteIndex, testIndex) = tests.take() else { return }
                        let runtime = runtimes[suiteIndex]
                        let lifecycle = lifecycles[suiteIndex]
                        let test = runtime.suite.tests[testIndex]
                        // A skipped test needs no setup (a suite whose selected tests are all skipped sends nothing).
                        let setup = test.skip == nil ? await lifecycle.setup(executor, sink) : .none
                        sink.emit(.testStarted(suiteName: runtime.suite.name, testName: test.name))
                        let result = await executor.runRetrying(test, in: runtime, setup: setup)
                        sink.emit(.testFinished(result))
                        await lifecycle.testFinished(executor, sink)
                    }
                }
            }
        }
        // After an interruption, suites that started still get their teardown (each runs at most once).
        await SuiteLifecycle.finish(lifecycles, executor, sink)

        var summary = sink.summary
        summary.duration = clock.now - start
        summary.interrupted = Task.isCancelled
        summary.coverage = coverage.coverage
        summary.grpcCoverage = executor.grpcCoverage?.coverage
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
            if case .testFinished(let result) = event { summary.record(result) }
            reporter.handle(event)
        }
    }

    var summary: RunSummary { counts.withLock { $0 } }
}

/// The tests of a run in order, handed out one at a time to concurrent workers.
final class TestQueue: Sendable {
    private let items: [(suite: Int, test: Int)]
    private let next = Atomic<Int>(0)

    init(_ items: [(suite: Int, test: Int)]) {
        self.items = items
    }

    /// The next test to run, or `nil` when every test has been taken.
    func take() -> (suite: Int, test: Int)? {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < items.count ? items[index] : nil
    }
}
