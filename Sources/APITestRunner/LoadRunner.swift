package import APITestHTTP
package import APITestResults
package import APITestSuite
package import APITestSupport
import Foundation
import Synchronization

/// How a load run drives its iterations.
package struct LoadOptions: Sendable {
    /// Open (a schedule of arrivals) or closed (virtual users).
    package enum Model: Sendable {
        case open(LoadSchedule)
        case closed(virtualUsers: Int, duration: Duration)
    }

    package var model: Model
    /// At most this many iterations at once (open model); an arrival finding every slot busy waits for one and
    /// counts as late if it waits longer than `lateAfter`.
    package var maxInFlight: Int
    /// An iteration counts as late when it starts more than this after its intended start.
    package var lateAfter: Duration = .milliseconds(10)
    package var thresholds: [LoadThreshold] = []
    /// Stop as soon as a threshold fails (checked once a second; rate thresholds only at the end).
    package var abortOnFail = false
    /// `--shard K/N`, for the report (the caller divides the rate or the virtual users).
    package var shard: LoadResult.Model.Shard?
    /// How each request is sent and checked, as in `apitest run`.
    package var run: RunOptions

    /// Options for `model`, with `run`'s request settings.
    package init(model: Model, maxInFlight: Int, run: RunOptions) {
        self.model = model
        self.maxInFlight = maxInFlight
        self.run = run
    }

    /// The thresholds of a load of `suites`: `given` (the command line's), then each suite's `load: thresholds`
    /// not already there; with none at all, `errors<=0`: every iteration must pass, so a load whose requests all
    /// failed is not a success.
    package static func thresholds(given: [LoadThreshold], suites: [Suite]) -> [LoadThreshold] {
        var thresholds = given
        for rule in suites.flatMap(\.loadThresholds) where !thresholds.contains(where: { $0.text == rule.text }) {
            thresholds.append(rule)
        }
        if thresholds.isEmpty, let everyIteration = try? LoadThreshold(parsing: "errors<=0") {
            thresholds = [everyIteration]
        }
        return thresholds
    }
}

extension LoadOptions.Model {
    /// Shard `index` of `count` of this load: 1/`count` of every stage's rate, or of the virtual users (the first
    /// `users % count` shards get one more); `nil` for a shard left without a user.
    package func shard(_ index: Int, of count: Int) -> Self? {
        switch self {
        case .open(let schedule):
            let share = 1.0 / Double(count)
            return .open(
                LoadSchedule(
                    stages: schedule.stages.map { .init(duration: $0.duration, target: $0.target * share) },
                    startRate: schedule.startRate * share))
        case .closed(let users, let duration):
            let dealt = users / count + (index <= users % count ? 1 : 0)
            return dealt > 0 ? .closed(virtualUsers: dealt, duration: duration) : nil
        }
    }
}

/// Runs a load test: the selected tests of the suites, picked by weight, run as `apitest run` runs them (steps,
/// captures, checks, auth) over and over, either arriving on a schedule (open model) or by virtual users (closed
/// model), with each suite's `setup` run once before and its `teardown` once after. What each iteration measured
/// goes into HDR histograms; ``LoadProgress`` reports each second.
package final class LoadRunner: Sendable {
    private let transport: any HTTPTransport
    private let options: LoadOptions

    /// A runner sending through `transport`.
    package init(transport: any HTTPTransport, options: LoadOptions) {
        self.transport = transport
        self.options = options
    }

    /// One second of a running load test, for a live line.
    package struct Progress: Sendable {
        package var elapsed: Duration
        package var planned: Duration
        package var second: LoadResult.Second
        package var counts: LoadResult.Counts
    }

    /// The tests of `suites` a load picks from, each with its weight (`load: {weight: N}`): not skipped, weight
    /// above 0.
    package static func pickable(_ suites: [Suite]) -> [(suite: Int, test: Int, weight: Int)] {
        var picks: [(suite: Int, test: Int, weight: Int)] = []
        for (suiteIndex, suite) in suites.enumerated() {
            for (testIndex, test) in suite.tests.enumerated() where test.skip == nil && test.loadWeight > 0 {
                picks.append((suiteIndex, testIndex, test.loadWeight))
            }
        }
        return picks
    }

    /// Runs the ``pickable(_:)`` tests of `suites`, each as often as its weight, and returns what was measured;
    /// `progress` hears each second. Cancelling the calling task (Ctrl-C) stops the arrivals and cancels the
    /// iterations in flight; teardown still runs.
    package func run(
        _ suites: [Suite], policies: SecurityPolicies? = nil,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async -> LoadResult {
        var policies = policies ?? SecurityPolicies(overrides: options.run.security)
        policies.build(for: suites)
        let runtimes = suites.map {
            SuiteRuntime(suite: $0, userAgent: options.run.userAgent, security: policies.policy(of: $0))
        }
        let lifecycles = runtimes.map(SuiteLifecycle.init)
        let hooks = HookCollector()
        let sink = EventSink(reporter: hooks)
        let executor = TestExecutor(
            transport: transport, options: options.run, events: sink, reachability: nil,
            resultDetail: .requestLines, contracts: ContractChecker(coverage: ContractCoverageRecorder()))

        let entries = Self.pickable(suites)
        var result = LoadResult(
            model: modelDescription, startedAt: Date(), lateAfterMs: options.lateAfter.inSeconds * 1000)
        result.tests = entries.map { entry in
            let suite = suites[entry.suite]
            return LoadResult.TestStats(
                suite: suite.name, file: suite.file, name: suite.tests[entry.test].name, weight: entry.weight)
        }
        let recorder = LoadRecorder(result)
        guard !entries.isEmpty else { return recorder.result }

        // Setup once per suite that has tests to pick, before the clock starts.
        var setups: [SetupOutcome] = Array(repeating: .none, count: suites.count)
        for suiteIndex in Set(entries.map(\.suite)).sorted() where !Task.isCancelled {
            setups[suiteIndex] = await lifecycles[suiteIndex].setup(executor, sink)
        }
        let picker = WeightedPicker(weights: entries.map(\.weight))
        let picks = entries
        let setupOutcomes = setups
        let clock = ContinuousClock()
        let start = clock.now
        let control = LoadControl()
        let planned = plannedDuration
        let thresholds = options.thresholds
        let abortOnFail = options.abortOnFail

        await withDiscardingTaskGroup { group in
            // Once a second: the timeline, the live line, and --abort-on-fail.
            group.addTask {
                var second = 0
                while !control.stopped && !Task.isCancelled {
                    let next = start + .seconds(second + 1)
                    while clock.now < next && !control.stopped && !Task.isCancelled {
                        try? await Task.sleep(until: min(next, clock.now + .milliseconds(50)), clock: clock)
                    }
                    guard !control.stopped, !Task.isCancelled else { return }
                    second += 1
                    let line = recorder.tick(second: second)
                    let elapsed = clock.now - start
                    progress(Progress(elapsed: elapsed, planned: planned, second: line, counts: recorder.counts))
                    if abortOnFail,
                        let failed = recorder.evaluate(
                            thresholds.filter { $0.metric != .rate }, seconds: elapsed.inSeconds
                        ).first(where: { !$0.holds })
                    {
                        control.abort(because: failed.threshold.text)
                    }
                }
            }
            let run: @Sendable (Int, ContinuousClock.Instant) async -> Void = { pick, intended in
                let entry = picks[pick]
                let began = clock.now
                recorder.started(test: pick, late: began - intended > self.options.lateAfter)
                let runtime = runtimes[entry.suite]
                let outcome = await executor.run(
                    runtime.suite.tests[entry.test], in: runtime, setup: setupOutcomes[entry.suite])
                recorder.finished(test: pick, result: outcome, latency: clock.now - intended)
            }
            switch options.model {
            case .open(let schedule):
                let slots = AsyncSlots(options.maxInFlight)
                var next = 0
                let total = schedule.totalIterations
                while next < total && !control.stopped && !Task.isCancelled {
                    let due = schedule.iterationsDue(by: clock.now - start)
                    while next < due && !control.stopped && !Task.isCancelled {
                        let intended = start + (schedule.startOffset(ofIteration: next) ?? .zero)
                        let pick = picker.next()
                        await slots.acquire()
                        group.addTask {
                            await run(pick, intended)
                            slots.release()
                        }
                        next += 1
                    }
                    guard next < total, let offset = schedule.startOffset(ofIteration: next) else { break }
                    // At high rates the arrivals of a quarter of a millisecond start together: a wake-up per
                    // arrival would cost more than the arrivals (their latency still counts from their own time).
                    let wake = max(start + offset, clock.now + .microseconds(250))
                    try? await Task.sleep(until: wake, tolerance: .microseconds(50), clock: clock)
                }
            case .closed(let virtualUsers, let duration):
                let end = start + duration
                for _ in 0..<virtualUsers {
                    group.addTask {
                        while clock.now < end && !control.stopped && !Task.isCancelled {
                            await run(picker.next(), clock.now)
                        }
                    }
                }
                while clock.now < end && !control.stopped && !Task.isCancelled {
                    try? await Task.sleep(until: min(end, clock.now + .milliseconds(50)), clock: clock)
                }
            }
            control.stop()
        }
        let elapsed = clock.now - start
        recorder.closeTimeline()
        // Teardown once per suite that ran setup, also after Ctrl-C.
        for lifecycle in lifecycles { await lifecycle.teardown(executor, sink) }
        for runtime in runtimes { transport.close(runtime.cookieJar) }
        let interrupted = Task.isCancelled
        let abortedBy = control.abortedBy
        recorder.update { result in
            result.seconds = elapsed.inSeconds
            result.interrupted = interrupted
            result.abortedBy = abortedBy
            result.hooks = hooks.results
            result.thresholds = result.evaluate(thresholds)
        }
        return recorder.result
    }

    /// The model as the report describes it.
    private var modelDescription: LoadResult.Model {
        switch options.model {
        case .open(let schedule):
            return LoadResult.Model(
                kind: "open", startRate: schedule.startRate,
                stages: schedule.stages.map {
                    LoadResult.Model.Stage(seconds: $0.duration.inSeconds, target: $0.target)
                }, shard: options.shard, plannedSeconds: schedule.duration.inSeconds)
        case .closed(let virtualUsers, let duration):
            return LoadResult.Model(
                kind: "closed", virtualUsers: virtualUsers, shard: options.shard,
                plannedSeconds: duration.inSeconds)
        }
    }

    private var plannedDuration: Duration {
        switch options.model {
        case .open(let schedule): schedule.duration
        case .closed(_, let duration): duration
        }
    }

}

// MARK: - Helpers

/// Picks tests by weight, smoothly (nginx's smooth weighted round robin): weights 3 and 1 give A A B A, A A B A...,
/// deterministic and spread out rather than in runs.
final class WeightedPicker: Sendable {
    private let weights: [Int]
    private let total: Int
    private let current: Mutex<[Int]>

    init(weights: [Int]) {
        self.weights = weights
        total = weights.reduce(0, +)
        current = Mutex(Array(repeating: 0, count: weights.count))
    }

    /// The index of the next pick.
    func next() -> Int {
        current.withLock { current in
            var best = 0
            for index in current.indices {
                current[index] += weights[index]
                if current[index] > current[best] { best = index }
            }
            current[best] -= total
            return best
        }
    }
}

/// At most `count` holders at once; `acquire` waits (in order) for a free slot.
final class AsyncSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    func acquire() async {
        let acquired = state.withLock { state -> Bool in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
        if acquired { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume()
    }
}

/// Whether a load run is to stop, and the threshold that stopped it.
final class LoadControl: Sendable {
    private let flag = Atomic<Bool>(false)
    private let reason = Mutex<String?>(nil)

    var stopped: Bool { flag.load(ordering: .relaxed) }

    func stop() { flag.store(true, ordering: .relaxed) }

    /// Stops the run because `threshold` failed (the first reason given is kept).
    func abort(because threshold: String) {
        reason.withLock { $0 = $0 ?? threshold }
        stop()
    }

    var abortedBy: String? { reason.withLock { $0 } }
}

/// Keeps the results of the suites' setup and teardown, the only events of a load run.
final class HookCollector: Reporter, Sendable {
    private let collected = Mutex<[TestResult]>([])

    func handle(_ event: RunEvent) {
        if case .testFinished(let result) = event { collected.withLock { $0.append(result) } }
    }

    var resultDetail: ResultDetail { .failures }

    var results: [TestResult] { collected.withLock { $0 } }
}

// MARK: - Service

/// The entry point of a load run, as `RunService` is of a run: the session made from the options in one place,
/// the run, and the session shut down.
package enum LoadService {
    /// Runs `suites` under `options` on a new session manager (or on `transport`); `started` receives a closure that
    /// interrupts the run (Ctrl-C).
    package static func run(
        _ suites: [Suite], options: LoadOptions, policies: SecurityPolicies? = nil,
        transport: (any HTTPTransport)? = nil,
        progress: @escaping @Sendable (LoadRunner.Progress) -> Void = { _ in },
        started: @Sendable (@escaping @Sendable () -> Void) -> Void = { _ in }
    ) async -> LoadResult {
        var session: SessionManager?
        if transport == nil {
            session = SessionManager(configuration: RunService.sessionConfiguration(for: options.run))
        }
        defer { session?.shutdown() }
        let runner = LoadRunner(transport: transport ?? session!, options: options)
        let task = Task {
            await runner.run(suites, policies: policies, progress: progress)
        }
        started { task.cancel() }
        return await task.value
    }
}
