import APITestResults
import APITestSupport
import Synchronization

/// What the iterations of a load run measured, added up as they finish: shared by every iteration, behind one lock
/// held for a few histogram updates at a time. ``tick()`` closes one second of the timeline.
final class LoadRecorder: Sendable {
    private struct State {
        var result: LoadResult
        /// The iterations completed since the last tick (its count is how many), and how many of them did not pass.
        var interval = LatencyHistogram()
        var intervalNotPassed = 0
        var failureIndex: [[String: Int]]
    }

    private let state: Mutex<State>

    /// A recorder for `result` (its model and tests set, nothing counted).
    init(_ result: LoadResult) {
        state = Mutex(State(result: result, failureIndex: result.tests.map { _ in [:] }))
    }

    /// An iteration of test `test` started; `late` when after its intended start by more than the run allows.
    func started(test: Int, late: Bool) {
        state.withLock { state in
            state.result.counts.started += 1
            state.result.tests[test].counts.started += 1
            if late {
                state.result.counts.late += 1
                state.result.tests[test].counts.late += 1
            }
        }
    }

    /// An iteration of test `test` ended with `result`, `latency` after its intended start. A cancelled iteration
    /// (Ctrl-C, or the run's end) is not a completed one.
    func finished(test: Int, result: TestResult, latency: Duration) {
        let micros = LatencyHistogram.microseconds(latency)
        state.withLock { state in
            guard result.status != .cancelled else { return }
            // Everything is changed in place: a copy of a test's stats would copy its histograms' buckets.
            state.result.tests[test].counts.completed += 1
            state.result.counts.completed += 1
            switch result.status {
            case .passed, .skipped:
                state.result.tests[test].counts.passed += 1
                state.result.counts.passed += 1
            case .failed:
                state.result.tests[test].counts.failed += 1
                state.result.counts.failed += 1
                state.intervalNotPassed += 1
            case .errored, .cancelled:
                state.result.tests[test].counts.errored += 1
                state.result.counts.errored += 1
                state.intervalNotPassed += 1
            }
            state.result.tests[test].latency.record(microseconds: micros)
            state.result.latency.record(microseconds: micros)
            state.interval.record(microseconds: micros)
            for step in result.steps where step.skipped == nil {
                if let exchange = step.exchange {
                    state.result.bytesSent += exchange.requestBodySize
                    state.result.bytesReceived += Int64(exchange.responseBodySize)
                    if let total = exchange.timings?.total {
                        let index = step.index + 1
                        let position: Int
                        if let found = state.result.tests[test].steps.firstIndex(where: { $0.index == index }) {
                            position = found
                        } else {
                            position = state.result.tests[test].steps.count
                            state.result.tests[test].steps.append(
                                LoadResult.StepStats(index: index, location: "\(step.location)"))
                        }
                        state.result.tests[test].steps[position].latency.record(total)
                        // Time to first event, in the same step's stats (made on the first stream step seen).
                        if let first = exchange.timings?.firstEvent {
                            if state.result.tests[test].steps[position].firstEvent == nil {
                                state.result.tests[test].steps[position].firstEvent = LatencyHistogram()
                            }
                            state.result.tests[test].steps[position].firstEvent?.record(first)
                        }
                    }
                }
                if let error = step.error { state.result.tests[test].errors[error.kind.rawValue, default: 0] += 1 }
                for failure in step.failures {
                    let key = "\(failure.location) \(failure.subject)"
                    if let position = state.failureIndex[test][key] {
                        state.result.tests[test].failures[position].count += 1
                    } else {
                        state.failureIndex[test][key] = state.result.tests[test].failures.count
                        state.result.tests[test].failures.append(
                            LoadResult.FailureCount(
                                location: "\(failure.location)", subject: failure.subject, message: failure.message,
                                count: 1))
                    }
                }
            }
        }
    }

    /// Closes the next second of the timeline (the first is 1): the iterations completed since the last tick.
    func tick() -> LoadResult.Second {
        state.withLock { Self.tick(&$0) }
    }

    /// Closes the timeline at the run's end: the iterations completed after the last whole second, as one more.
    func closeTimeline() {
        state.withLock { state in
            if state.interval.count > 0 { _ = Self.tick(&state) }
        }
    }

    /// Appends the line of the iterations completed since the last tick to the timeline, as its next second, and
    /// starts the next interval.
    private static func tick(_ state: inout State) -> LoadResult.Second {
        let line = LoadResult.Second(
            second: state.result.timeline.count + 1, completed: Int(state.interval.count),
            notPassed: state.intervalNotPassed, p50: state.interval.percentile(50),
            p99: state.interval.percentile(99), max: state.interval.max)
        state.result.timeline.append(line)
        state.interval = LatencyHistogram()
        state.intervalNotPassed = 0
        return line
    }

    /// The iteration counts so far.
    var counts: LoadResult.Counts { state.withLock { $0.result.counts } }

    /// `thresholds` measured on what was recorded so far (without copying the histograms). The run's duration is
    /// set only at its end, so a rate threshold measures nothing meaningful before: leave those out.
    func evaluate(_ thresholds: [LoadThreshold]) -> [LoadResult.ThresholdOutcome] {
        state.withLock { $0.result.evaluate(thresholds) }
    }

    /// What was recorded so far.
    var result: LoadResult { state.withLock { $0.result } }

    /// Changes the recorded result (its duration, hooks, thresholds) at the run's end.
    func update(_ change: (inout LoadResult) -> Void) {
        state.withLock { change(&$0.result) }
    }
}
