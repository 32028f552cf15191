import APITestChecks
package import APITestHTTP
package import APITestResults
package import APITestSuite
import Synchronization

/// The tests of suites run as iterations, any number of times and concurrently, between each suite's setup (run
/// once, before its first iteration) and its teardown (once, after the last): what a load run drives
/// (`APITestLoad`'s `LoadRunner`). One executor with the run's options; an iteration's result keeps only its
/// requests' lines, and the setup and teardown steps are collected as hooks.
package final class SuiteIterations: Sendable {
    private let lifecycles: [SuiteLifecycle]
    private let executor: TestExecutor
    private let sink: EventSink
    private let hooks: HookCollector
    /// What each suite's setup left, by suite index; `.none` until it ran.
    private let setups: Mutex<[SetupOutcome]>

    /// Iterations of the tests of `suites`, sent through `transport` under `options`, each suite held to its
    /// policy in `policies` (built here when `nil`).
    package init(
        suites: [Suite], transport: any HTTPTransport, options: RunOptions, policies: SecurityPolicies? = nil
    ) {
        let hooks = HookCollector()
        let sink = EventSink(reporter: hooks)
        self.hooks = hooks
        self.sink = sink
        lifecycles = SuiteLifecycle.make(for: suites, options: options, policies: policies)
        executor = TestExecutor(
            transport: transport, options: options, events: sink, reachability: nil,
            resultDetail: .requestLines, contracts: ContractChecker(coverage: ContractCoverageRecorder()))
        setups = Mutex(Array(repeating: .none, count: suites.count))
    }

    /// Runs the setup of suite `index`; its iterations start from what it left.
    package func setUp(suite index: Int) async {
        let outcome = await lifecycles[index].setup(executor, sink)
        setups.withLock { $0[index] = outcome }
    }

    /// Runs test `test` of suite `suite` once, after its suite's setup.
    package func run(suite: Int, test: Int) async -> TestResult {
        let runtime = lifecycles[suite].runtime
        let setup = setups.withLock { $0[suite] }
        return await executor.run(runtime.suite.tests[test], in: runtime, setup: setup)
    }

    /// Runs the teardown of every suite whose setup ran (also after an interruption).
    package func tearDown() async {
        await SuiteLifecycle.finish(lifecycles, executor, sink)
    }

    /// The results of the setup and teardown steps run so far.
    package var hookResults: [TestResult] { hooks.results }
}
