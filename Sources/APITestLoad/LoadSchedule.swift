import APITestSupport

/// When each iteration of an open-model load run is meant to start: the arrival rate is given per stage, and within
/// a stage it goes linearly from the rate the previous stage ended at to the stage's target (k6's ramping arrival
/// rate); a constant rate is one stage that starts at its target. Iteration `k` (from 0) starts when the rate's
/// integral since the start reaches `k`: iterations arrive at their schedule whether or not the earlier ones have
/// finished, so a server that stalls cannot slow the arrivals down (no coordinated omission).
package struct LoadSchedule: Sendable, Hashable {
    /// One stage: `duration` long, ending at `target` iterations per second.
    package struct Stage: Sendable, Hashable {
        package var duration: Duration
        package var target: Double

        /// A stage of `duration` ending at `target` per second.
        package init(duration: Duration, target: Double) {
            self.duration = duration
            self.target = target
        }
    }

    /// The stages, in order.
    package let stages: [Stage]
    /// The rate at the start of the first stage.
    package let startRate: Double
    /// The iterations due by the end of each stage (cumulative), and each stage's start in seconds.
    private let cumulative: [Double]
    private let starts: [Double]

    /// A schedule of `stages` starting at `startRate` per second.
    package init(stages: [Stage], startRate: Double) {
        self.stages = stages
        self.startRate = startRate
        var cumulative: [Double] = []
        var starts: [Double] = []
        var total = 0.0
        var time = 0.0
        var rate = startRate
        for stage in stages {
            starts.append(time)
            let seconds = stage.duration.inSeconds
            total += (rate + stage.target) / 2 * seconds
            cumulative.append(total)
            time += seconds
            rate = stage.target
        }
        self.cumulative = cumulative
        self.starts = starts
    }

    /// A constant `rate` for `duration`.
    package init(rate: Double, duration: Duration) {
        self.init(stages: [Stage(duration: duration, target: rate)], startRate: rate)
    }

    /// How long the schedule lasts.
    package var duration: Duration { stages.reduce(.zero) { $0 + $1.duration } }

    /// How many iterations the whole schedule starts.
    package var totalIterations: Int { Int((cumulative.last ?? 0).rounded(.up)) }

    /// The highest rate of the schedule, per second.
    package var peakRate: Double { stages.map(\.target).reduce(startRate, Swift.max) }

    /// How many iterations are due by `elapsed` since the start (iteration 0 is due at once).
    package func iterationsDue(by elapsed: Duration) -> Int {
        let time = elapsed.inSeconds
        guard let index = stages.indices.first(where: { time < starts[$0] + stages[$0].duration.inSeconds }) else {
            return totalIterations
        }
        let (done, rate) = entry(ofStage: index)
        let length = stages[index].duration.inSeconds
        let t = time - starts[index]
        let slope = length > 0 ? (stages[index].target - rate) / length : 0
        let due = done + rate * t + slope * t * t / 2
        return Swift.min(Int(due.rounded(.down)) + 1, totalIterations)
    }

    /// When iteration `index` (from 0) is meant to start, from the start of the run; `nil` past the schedule's end.
    package func startOffset(ofIteration index: Int) -> Duration? {
        let wanted = Double(index)
        guard let stageIndex = cumulative.firstIndex(where: { wanted < $0 }) else { return nil }
        let (done, rate) = entry(ofStage: stageIndex)
        let stage = stages[stageIndex]
        let length = stage.duration.inSeconds
        // Solve done + rate·t + slope·t²/2 = wanted for t in [0, length].
        let remaining = wanted - done
        let slope = length > 0 ? (stage.target - rate) / length : 0
        let t: Double
        if abs(slope) < 1e-12 {
            t = rate > 0 ? remaining / rate : 0
        } else {
            let discriminant = Swift.max(0, rate * rate + 2 * slope * remaining)
            t = (-rate + discriminant.squareRoot()) / slope
        }
        return .nanoseconds(Int64(((starts[stageIndex] + Swift.min(Swift.max(t, 0), length)) * 1e9).rounded()))
    }

    // MARK: - Rates

    /// The lowest rate other than 0 a load may have: one iteration an hour.
    package static let minimumRate = 1.0 / 3600
    /// The highest rate a load may have: a million iterations a second.
    package static let maximumRate = 1_000_000.0

    /// A rate as the command line writes it (`2000/s`, `2000`, `120/m`, `3/h`) in iterations per second; nil for
    /// anything else, and for rates that no load can honour: above ``maximumRate``, or between 0 and
    /// ``minimumRate`` (`1e-300/s` would start one iteration and report its instant as the rate). 0 stays valid: a
    /// stage may ramp down to it.
    package static func rate(parsing text: String) -> Double? {
        var number = Substring(text.lowercased())
        var scale = 1.0
        for (suffix, factor) in [("/s", 1.0), ("/m", 60.0), ("/h", 3600.0)] where number.hasSuffix(suffix) {
            number = number.dropLast(2)
            scale = factor
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        let rate = value / scale
        guard rate == 0 || (minimumRate...maximumRate).contains(rate) else { return nil }
        return rate
    }

    /// The iterations due when stage `index` starts, and the rate it starts at.
    private func entry(ofStage index: Int) -> (done: Double, rate: Double) {
        index == 0 ? (0, startRate) : (cumulative[index - 1], stages[index - 1].target)
    }
}
