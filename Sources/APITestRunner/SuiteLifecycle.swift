import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import Synchronization

/// What a suite's `setup` leaves for its tests.
enum SetupOutcome: Sendable {
    /// The suite has no setup.
    case none
    /// The setup passed; its context holds the suite's variables and the setup's captures.
    case passed(TemplateContext)
    /// The setup failed: the suite's tests are not run, with this reason.
    case failed(TestError)
    /// The run was interrupted during the setup: the suite's tests are cancelled.
    case cancelled(TestError)
}

/// Runs a suite's `setup` once, before its first test, and its `teardown` once, after its last test (or when the
/// run is interrupted). Setup and teardown are reported as tests named `setup` and `teardown`.
final class SuiteLifecycle: Sendable {
    let runtime: SuiteRuntime

    private struct State {
        var setup: Phase = .notStarted
        /// Tests not finished yet.
        var remaining: Int
        var started = false
        var tornDown = false
    }

    private enum Phase {
        case notStarted
        case running([CheckedContinuation<SetupOutcome, Never>])
        case done(SetupOutcome, TemplateContext)
    }

    private let state: Mutex<State>

    init(runtime: SuiteRuntime) {
        self.runtime = runtime
        state = Mutex(State(remaining: runtime.suite.tests.count))
    }

    // MARK: - Setup

    /// The setup's outcome: the first caller runs it while later callers wait for it.
    func setup(_ executor: TestExecutor, _ sink: EventSink) async -> SetupOutcome {
        enum Next {
            case run
            case wait
            case done(SetupOutcome)
        }
        let next: Next = state.withLock { state in
            state.started = true
            switch state.setup {
            case .notStarted:
                guard !runtime.suite.setup.isEmpty else {
                    state.setup = .done(.none, runtime.context)
                    return .done(.none)
                }
                state.setup = .running([])
                return .run
            case .running: return .wait
            case .done(let outcome, _): return .done(outcome)
            }
        }
        switch next {
        case .done(let outcome): return outcome
        case .wait:
            return await withCheckedContinuation { continuation in
                let ready: SetupOutcome? = state.withLock { state in
                    switch state.setup {
                    case .running(var waiters):
                        waiters.append(continuation)
                        state.setup = .running(waiters)
                        return nil
                    case .done(let outcome, _): return outcome
                    case .notStarted: return SetupOutcome.none
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        case .run:
            let (outcome, context) = await runHook(runtime.suite.setup, named: "setup", executor, sink)
            let waiters: [CheckedContinuation<SetupOutcome, Never>] = state.withLock { state in
                defer { state.setup = .done(outcome, context) }
                if case .running(let waiters) = state.setup { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
            return outcome
        }
    }

    // MARK: - Teardown

    /// Counts a finished test; after the suite's last one, runs the teardown.
    func testFinished(_ executor: TestExecutor, _ sink: EventSink) async {
        let last = state.withLock { state in
            state.remaining -= 1
            return state.remaining == 0
        }
        if last { await teardown(executor, sink) }
    }

    /// Runs the teardown once, if the suite started and has one; used after the last test and after an
    /// interrupted run. Runs in a task of its own so that an interruption does not cancel it.
    func teardown(_ executor: TestExecutor, _ sink: EventSink) async {
        let suite = runtime.suite
        let initial = runtime.context
        let (context, setupIncomplete): (TemplateContext?, Bool) = state.withLock { state in
            guard state.started, !state.tornDown, !suite.teardown.isEmpty else { return (nil, false) }
            // A setup interrupted or failed half-way may lack captures teardown uses; still tear down what exists.
            state.tornDown = true
            guard case .done(let outcome, let context) = state.setup else { return (initial, !suite.setup.isEmpty) }
            switch outcome {
            case .none, .passed: return (context, false)
            case .failed, .cancelled: return (context, true)
            }
        }
        // Without its variables (a template error) or security policy, the suite could not send teardown safely.
        guard let context, runtime.setupError == nil else { return }
        let steps = suite.teardown
        let runtime = self.runtime
        await Task {
            var context = context
            context.setBuiltins()
            // The captures a setup that did not finish never made, to say so where teardown uses one.
            let missing: Set<String> =
                setupIncomplete
                ? Set(suite.setup.flatMap { $0.captures.map(\.name) }.filter { !context.contains($0) }) : []
            _ = await Self.run(
                steps, named: "teardown", runtime: runtime, context: &context, executor, sink, runsEveryStep: true,
                missingSetupCaptures: missing)
        }.value
    }

    // MARK: - Running hooks

    private func runHook(
        _ steps: [Step], named name: String, _ executor: TestExecutor, _ sink: EventSink
    ) async -> (SetupOutcome, TemplateContext) {
        if let error = runtime.setupError { return (.failed(error), runtime.context) }
        var context = runtime.context
        context.setBuiltins()
        let result = await Self.run(steps, named: name, runtime: runtime, context: &context, executor, sink)
        if result.status == .cancelled {
            return (.cancelled(TestError(.interruptedDuringSetup, location: nil)), context)
        }
        guard result.status == .passed else {
            return (.failed(TestError(.setupNotPassed(result), location: result.location)), context)
        }
        return (.passed(context), context)
    }

    /// Runs hook steps as a test named `name` and reports it. A step that fails on one of `missingSetupCaptures`
    /// (captures of a setup that did not finish) says so.
    private static func run(
        _ steps: [Step], named name: String, runtime: SuiteRuntime, context: inout TemplateContext,
        _ executor: TestExecutor, _ sink: EventSink, runsEveryStep: Bool = false,
        missingSetupCaptures: Set<String> = []
    ) async -> TestResult {
        let start = executor.clock.now
        sink.emit(.testStarted(suiteName: runtime.suite.name, testName: name))
        var outcome = await executor.run(
            steps, testName: name, runtime: runtime, context: &context, runsEveryStep: runsEveryStep)
        for index in outcome.steps.indices {
            guard let name = outcome.steps[index].error?.undefinedVariable, missingSetupCaptures.contains(name)
            else { continue }
            outcome.steps[index].amendError(sealedBy: runtime.masker) { $0 = $0.notingUnfinishedSetup() }
        }
        var result = TestResult(
            suiteName: runtime.suite.name, suiteFile: runtime.suite.file, name: name,
            location: steps.first?.location ?? SourceLocation(file: runtime.suite.file, line: 1, column: 1),
            status: outcome.status, duration: executor.clock.now - start, steps: outcome.steps)
        if outcome.status == .cancelled { result.reason = "interrupted" }
        sink.emit(.testFinished(result))
        return result
    }
}

// MARK: - A run's suites

extension SuiteLifecycle {
    /// The runtime and lifecycle of each of `suites`, holding each suite's requests to its policy in `policies`
    /// (the preflight's; those missing are built from `options`' TLS flags): how a run and a load begin.
    static func make(
        for suites: [Suite], options: RunOptions, policies: SecurityPolicies?
    ) -> [SuiteLifecycle] {
        var policies = policies ?? SecurityPolicies(overrides: options.security)
        policies.build(for: suites)
        return suites.map {
            SuiteLifecycle(
                runtime: SuiteRuntime(suite: $0, userAgent: options.userAgent, security: policies.policy(of: $0)))
        }
    }

    /// Tears down every suite of `lifecycles` that started (also after an interruption), then closes their cookie
    /// jars: how a run and a load end.
    static func finish(_ lifecycles: [SuiteLifecycle], _ executor: TestExecutor, _ sink: EventSink) async {
        for lifecycle in lifecycles { await lifecycle.teardown(executor, sink) }
        for lifecycle in lifecycles { executor.transport.close(lifecycle.runtime.cookieJar) }
    }
}
