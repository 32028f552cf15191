package import APITestResults
package import APITestRunner
package import APITestSuite
package import APITestSupport
import Foundation

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
    /// The event-loop threads the iterations run on (`SessionConfiguration.eventLoops`): one per core the process
    /// may use, at most 8; each holds its share of the arrivals, virtual users and connections.
    package var eventLoops = min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8)
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
