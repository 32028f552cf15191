package import APITestHTTP
package import APITestResults
package import APITestRunner
package import APITestSuite
import APITestSupport
import Foundation
import Synchronization

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
        let iterations = SuiteIterations(
            suites: suites, transport: transport, options: options.run, policies: policies)

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
        for suiteIndex in Set(entries.map(\.suite)).sorted() where !Task.isCancelled {
            await iterations.setUp(suite: suiteIndex)
        }
        let picker = WeightedPicker(weights: entries.map(\.weight))
        let clock = ContinuousClock()
        let start = clock.now
        let control = LoadControl()
        let planned = plannedDuration
        let thresholds = options.thresholds
        // Checked once a second; a rate threshold only at the end (the rate so far is no measure of the run's).
        let liveThresholds = thresholds.filter { $0.metric != .rate }
        let abortOnFail = options.abortOnFail

        // The run lasts until its arrivals and iterations are done: measured there, not when the once-a-second task
        // (which sleeps up to 50 ms at a time) notices the end, which made the achieved rate up to 1.7 % low at 3 s.
        let elapsed = await withTaskGroup(of: Void.self, returning: Duration.self) { ticking in
            // Once a second: the timeline, the live line, and --abort-on-fail; cancelled when the work is done.
            ticking.addTask {
                var second = 0
                while !control.stopped && !Task.isCancelled {
                    let next = start + .seconds(second + 1)
                    while clock.now < next && !control.stopped && !Task.isCancelled {
                        try? await Task.sleep(until: min(next, clock.now + .milliseconds(50)), clock: clock)
                    }
                    guard !control.stopped, !Task.isCancelled else { return }
                    second += 1
                    let line = recorder.tick()
                    let elapsed = clock.now - start
                    progress(Progress(elapsed: elapsed, planned: planned, second: line, counts: recorder.counts))
                    if abortOnFail, let failed = recorder.evaluate(liveThresholds).first(where: { !$0.holds }) {
                        control.abort(because: failed.threshold.text)
                    }
                }
            }
            await withDiscardingTaskGroup { group in
                // The iterations, and the arrivals that start them, run on the transport's event-loop threads when it
                // offers them: an iteration's transfers then start and complete on its thread with no hand-off between
                // threads, and the schedule's waits are that loop's own timer (no timer thread). Each loop has its share
                // of the arrivals (every n-th) and of the virtual users. Without loops (a scripted transport), on the
                // global executor.
                let executors = transport.transferExecutors
                let loops = max(1, executors.count)
                let executor: @Sendable (Int) -> (any TransferExecutor)? = { index in
                    executors.isEmpty ? nil : executors[index % executors.count]
                }
                let run: @Sendable (Int, ContinuousClock.Instant) async -> Void = { pick, intended in
                    let entry = entries[pick]
                    let began = clock.now
                    recorder.started(test: pick, late: began - intended > self.options.lateAfter)
                    let outcome = await iterations.run(suite: entry.suite, test: entry.test)
                    recorder.finished(test: pick, result: outcome, latency: clock.now - intended)
                }
                switch options.model {
                case .open(let schedule):
                    let slots = AsyncSlots(options.maxInFlight)
                    let crew = ArrivalCrew(shards: loops, limit: options.maxInFlight)
                    let arriving = Countdown(loops)
                    for shard in 0..<loops {
                        let loop = executor(shard)
                        group.addTask(executorPreference: loop) {
                            await self.arrive(
                                schedule, shard: shard, of: loops, start: start, slots: slots, crew: crew,
                                picker: picker,
                                sleep: { deadline in
                                    if let loop {
                                        await loop.sleep(until: deadline)
                                    } else {
                                        try? await Task.sleep(
                                            until: deadline, tolerance: .microseconds(50), clock: clock)
                                    }
                                }, control: control, run: run,
                                waitedOut: {
                                    // The planned duration is over once every shard has waited it out: the timeline
                                    // stops now, and the iterations still running finish (each shard waits for its).
                                    if arriving.countDown() { control.stop() }
                                })
                        }
                    }
                case .closed(let virtualUsers, let duration):
                    let end = start + duration
                    for user in 0..<virtualUsers {
                        group.addTask(executorPreference: executor(user)) {
                            while clock.now < end && !control.stopped && !Task.isCancelled {
                                await run(picker.next(), clock.now)
                            }
                        }
                    }
                    while clock.now < end && !control.stopped && !Task.isCancelled {
                        try? await Task.sleep(until: min(end, clock.now + .milliseconds(50)), clock: clock)
                    }
                    control.stop()
                }
            }
            let elapsed = clock.now - start
            ticking.cancelAll()
            return elapsed
        }
        recorder.closeTimeline()
        // Teardown once per suite that ran setup, also after Ctrl-C.
        await iterations.tearDown()
        let interrupted = Task.isCancelled
        let abortedBy = control.abortedBy
        recorder.update { result in
            result.seconds = elapsed.inSeconds
            result.interrupted = interrupted
            result.abortedBy = abortedBy
            result.hooks = iterations.hookResults
            result.thresholds = result.evaluate(thresholds)
        }
        return recorder.result
    }

    /// The open model's arrivals of one shard (iterations `shard`, `shard + shards`, ...): starts each when `schedule`
    /// says (at most `maxInFlight` at once over every shard, `slots`) on a task that waits for one (``ArrivalCrew``:
    /// one of the shard's, else a new task while the shards have fewer than `maxInFlight`, else one of another
    /// shard's; so no task is made per iteration, nor more tasks than iterations in flight), until the schedule's
    /// end, a stop or cancellation; then waits out the planned duration and returns once its iterations have
    /// finished; `waitedOut` hears when the planned duration is over. Runs on one of the transport's event loops when
    /// it has them (see `run`), sleeping with `sleep`.
    private func arrive(
        _ schedule: LoadSchedule, shard: Int, of shards: Int, start: ContinuousClock.Instant, slots: AsyncSlots,
        crew: ArrivalCrew, picker: WeightedPicker, sleep: @escaping @Sendable (ContinuousClock.Instant) async -> Void,
        control: LoadControl, run: @escaping @Sendable (Int, ContinuousClock.Instant) async -> Void,
        waitedOut: @Sendable () -> Void
    ) async {
        let clock = ContinuousClock()
        let workers = crew.shards[shard]
        await withDiscardingTaskGroup { group in
            var next = shard
            // When iteration `next` is meant to start: worked out once, for its arrival and the wait before it.
            var nextOffset = schedule.startOffset(ofIteration: next)
            let total = schedule.totalIterations
            while next < total && !control.stopped && !Task.isCancelled {
                let due = schedule.iterationsDue(by: clock.now - start)
                while next < due && !control.stopped && !Task.isCancelled {
                    let intended = start + (nextOffset ?? .zero)
                    let arrival = ArrivalWorkers.Arrival(pick: picker.next(), intended: intended)
                    await slots.acquire()
                    // A task that ran an earlier iteration runs this one; a new task only when none waits (and the
                    // shards have fewer than the in-flight limit).
                    if !crew.assign(arrival, shard: shard) {
                        group.addTask {
                            var current: ArrivalWorkers.Arrival? = arrival
                            while let iteration = current {
                                await run(iteration.pick, iteration.intended)
                                current = await workers.park(thenRelease: slots.release)
                            }
                            crew.taskEnded()
                        }
                    }
                    next += shards
                    nextOffset = schedule.startOffset(ofIteration: next)
                }
                guard next < total, let offset = nextOffset else { break }
                // At high rates the arrivals of a tenth of a millisecond start together: a wake-up per arrival
                // would cost more than the arrivals (their latency still counts from their own time). At most 50 ms
                // at a time, so that a stop is noticed.
                let now = clock.now
                await sleep(min(max(start + offset, now + .microseconds(100)), now + .milliseconds(50)))
            }
            // No more arrivals: the tasks waiting for one end, the others once their iteration has finished.
            workers.close()
            // The schedule lasts its whole duration, after its last arrival too: the rate is measured over the
            // time the load was planned for, never over the instant a lone iteration took.
            let end = start + schedule.duration
            while clock.now < end && !control.stopped && !Task.isCancelled {
                await sleep(min(end, clock.now + .milliseconds(50)))
            }
            waitedOut()
        }
    }

    /// The model as the report describes it.
    private var modelDescription: LoadResult.Model {
        switch options.model {
        case .open(let schedule):
            return LoadResult.Model(
                kind: .open, startRate: schedule.startRate,
                stages: schedule.stages.map {
                    LoadResult.Model.Stage(seconds: $0.duration.inSeconds, target: $0.target)
                }, shard: options.shard, plannedSeconds: schedule.duration.inSeconds)
        case .closed(let virtualUsers, let duration):
            return LoadResult.Model(
                kind: .closed, virtualUsers: virtualUsers, shard: options.shard,
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

// MARK: - Countdown

/// A count shared by tasks, each of which counts down once; the last one learns it was the last.
private final class Countdown: Sendable {
    private let left: Atomic<Int>

    init(_ count: Int) {
        left = Atomic(count)
    }

    /// Counts down one; true for the call that reaches 0.
    func countDown() -> Bool {
        left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
    }
}
