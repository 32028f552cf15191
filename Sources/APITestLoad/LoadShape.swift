package import APITestSupport

// MARK: - LoadShape

/// The shape of a load as the command line gives it: an arrival rate and stages (open model) or virtual users
/// (closed model), how long, how many iterations at once, and the thresholds; checked and turned into a
/// `LoadOptions.Model` here, never in the command line.
package struct LoadShape: Sendable, Hashable {
    /// `--rate`, as written (`2000/s`, `120/m`).
    package var rate: String?
    /// `--duration`.
    package var duration: Duration?
    /// `--duration` as written, for messages.
    package var durationText = ""
    /// Each `--stage DURATION:RATE`, as written.
    package var stages: [String] = []
    /// `--vus`.
    package var virtualUsers: Int?
    /// `--max-in-flight`: at most this many iterations at once (open model).
    package var maxInFlight = 100
    /// Each `--threshold`, as written.
    package var thresholds: [String] = []
    /// `--abort-on-fail`.
    package var abortOnFail = false

    /// A shape with every setting at its default; the command line sets what it was given.
    package init() {}

    /// Checks every setting: the model, the thresholds and `maxInFlight`, in that order.
    package func check() throws(LoadShapeProblem) {
        _ = try model()
        _ = try parsedThresholds()
        guard (1...100_000).contains(maxInFlight) else { throw LoadShapeProblem(.maxInFlightOutOfRange) }
    }

    /// The thresholds, parsed.
    package func parsedThresholds() throws(LoadShapeProblem) -> [LoadThreshold] {
        var parsed: [LoadThreshold] = []
        for text in thresholds {
            do {
                parsed.append(try LoadThreshold(parsing: text))
            } catch {
                throw LoadShapeProblem(.invalidThreshold(error.description))
            }
        }
        return parsed
    }

    /// The model the settings describe, before sharding.
    package func model() throws(LoadShapeProblem) -> LoadOptions.Model {
        if let virtualUsers {
            guard rate == nil, stages.isEmpty else { throw LoadShapeProblem(.virtualUsersWithOpenModel) }
            guard (1...100_000).contains(virtualUsers) else { throw LoadShapeProblem(.virtualUsersOutOfRange) }
            guard let duration else { throw LoadShapeProblem(.virtualUsersWithoutDuration) }
            return .closed(virtualUsers: virtualUsers, duration: duration)
        }
        let startRate = try rate.map { text throws(LoadShapeProblem) in try Self.rate(text, flag: "--rate") }
        if stages.isEmpty {
            guard let startRate else { throw LoadShapeProblem(.noModel) }
            guard let duration else { throw LoadShapeProblem(.rateWithoutDuration) }
            guard duration > .zero else { throw LoadShapeProblem(.zeroDuration) }
            let schedule = LoadSchedule(rate: startRate, duration: duration)
            guard schedule.totalIterations > 0 else {
                throw LoadShapeProblem(.rateStartsNoIteration(rate: rate ?? "", duration: durationText))
            }
            return .open(schedule)
        }
        guard duration == nil else { throw LoadShapeProblem(.durationWithStages) }
        var parsed: [LoadSchedule.Stage] = []
        for text in stages {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let length = try? DurationParser.parse(parts[0]) else {
                throw LoadShapeProblem(.invalidStage(text))
            }
            parsed.append(LoadSchedule.Stage(duration: length, target: try Self.rate(parts[1], flag: "--stage")))
        }
        guard parsed.contains(where: { $0.duration > .zero }) else { throw LoadShapeProblem(.stagesLastNoTime) }
        let schedule = LoadSchedule(stages: parsed, startRate: startRate ?? 0)
        guard schedule.totalIterations > 0 else { throw LoadShapeProblem(.stagesStartNoIteration) }
        return .open(schedule)
    }

    /// `2000/s`, `2000`, `120/m`, `3/h` in iterations per second: 0, or from one an hour to a million a second.
    static func rate(_ text: String, flag: String) throws(LoadShapeProblem) -> Double {
        guard let rate = LoadSchedule.rate(parsing: text) else {
            throw LoadShapeProblem(.invalidRate(flag: flag, text: text))
        }
        return rate
    }
}
