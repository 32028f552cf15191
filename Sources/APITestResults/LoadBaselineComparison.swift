package import APITestSupport
package import Foundation

/// This load run beside an earlier one (`apitest load --baseline earlier.json`): overall and per test, the
/// latency's p50, p95, p99, maximum and mean, the achieved rate and the error share of both, with the change and
/// whether the Mann-Whitney U test over the two latency histograms finds them different; and the verdicts of the
/// relative thresholds (`p99<+10%`, `rate>-5%`), each failed only when its change passes the bound **and** the
/// change is significant by the test suited to its metric (``LoadStatistics``, p below ``significanceLevel``).
package struct LoadBaselineComparison: Sendable, Codable {
    /// A relative threshold fails only when its two-sample test's p-value is below this.
    package static let significanceLevel = 0.01
    /// A latency percentile's change is also significant when the whole latency distribution shifted the same way
    /// (Mann-Whitney U over both histograms) with a p-value below this: a stricter level, so that the two tests
    /// together keep noise from failing a build about as rarely as one does.
    package static let shiftLevel = 0.001

    /// What a run measured for one scope (the whole run or one test).
    package struct Figures: Sendable, Hashable, Codable {
        /// Latencies in microseconds.
        package var p50: Double
        package var p95: Double
        package var p99: Double
        package var max: Double
        package var mean: Double
        /// Completed iterations per second.
        package var rate: Double
        /// The share of completed iterations that did not pass.
        package var errors: Double
        /// Completed iterations.
        package var completed: Int

        /// The figures of `histogram` and `counts` over `seconds`.
        package init(_ histogram: LatencyHistogram, counts: LoadResult.Counts, seconds: Double) {
            p50 = Double(histogram.percentile(50))
            p95 = Double(histogram.percentile(95))
            p99 = Double(histogram.percentile(99))
            max = Double(histogram.max)
            mean = histogram.mean
            rate = seconds > 0 ? Double(counts.completed) / seconds : 0
            errors = counts.completed > 0 ? Double(counts.notPassed) / Double(counts.completed) : 0
            completed = counts.completed
        }
    }

    /// One scope of both runs.
    package struct Scope: Sendable, Codable {
        /// `overall`, or the test's `suite › name`.
        package var name: String
        package var baseline: Figures
        package var current: Figures
        /// The Mann-Whitney U test of the two latency histograms.
        package var latencyTest: LoadStatistics.Outcome
    }

    /// A relative threshold's verdict.
    package struct Verdict: Sendable {
        package var threshold: LoadThreshold
        /// The metric in the baseline and in this run, in its base unit.
        package var baselineValue: Double
        package var currentValue: Double
        /// The change, in the threshold's terms (percent of the baseline, or the difference).
        package var change: Double
        /// Which test decided significance, and its result.
        package var testName: String
        package var test: LoadStatistics.Outcome
        /// The change passes the threshold's bound.
        package var exceedsBound: Bool

        /// The change is significant (p below ``LoadBaselineComparison/significanceLevel``).
        package var significant: Bool { test.pValue < LoadBaselineComparison.significanceLevel }
        /// Fails only when the change passes the bound and is significant.
        package var holds: Bool { !(exceedsBound && significant) }
    }

    /// The baseline report as given.
    package var baselineFile: String
    /// When the baseline run started.
    package var baselineStartedAt: Date
    package var overall: Scope
    /// Per test, in this run's order.
    package var tests: [Scope]
    /// The relative thresholds' verdicts, in the order given.
    package var verdicts: [Verdict]

    /// `current` compared with `baseline` (read from `baselineFile`), judging `thresholds`' relative ones (the
    /// others are left out). Tests are matched by suite and name; a test missing from `baseline` is left out (see
    /// ``unmatchedTests(baseline:current:)``).
    package init(baseline: LoadResult, current: LoadResult, baselineFile: String, thresholds: [LoadThreshold]) {
        self.baselineFile = baselineFile
        baselineStartedAt = baseline.startedAt
        overall = Scope(
            name: "overall", baseline: Figures(baseline.latency, counts: baseline.counts, seconds: baseline.seconds),
            current: Figures(current.latency, counts: current.counts, seconds: current.seconds),
            latencyTest: LoadStatistics.mannWhitneyU(baseline.latency, current.latency))
        var earlier: [String: LoadResult.TestStats] = [:]
        for test in baseline.tests { earlier[Self.key(test)] = test }
        tests = current.tests.compactMap { test in
            guard let before = earlier[Self.key(test)] else { return nil }
            return Scope(
                name: test.displayName,
                baseline: Figures(before.latency, counts: before.counts, seconds: baseline.seconds),
                current: Figures(test.latency, counts: test.counts, seconds: current.seconds),
                latencyTest: LoadStatistics.mannWhitneyU(before.latency, test.latency))
        }
        let rateTest = LoadStatistics.mannWhitneyU(
            baseline.timeline.map { (Double($0.completed), 1) }, current.timeline.map { (Double($0.completed), 1) })
        let errorTest = LoadStatistics.twoProportions(
            Double(baseline.counts.notPassed), of: Double(baseline.counts.completed),
            Double(current.counts.notPassed), of: Double(current.counts.completed))
        verdicts = thresholds.filter { $0.relative != nil }.map { threshold in
            let before = baseline.value(of: threshold)
            let now = current.value(of: threshold)
            let change = threshold.change(from: before, to: now)
            let exceedsBound = !threshold.holds(for: change)
            // The whole distribution's shift is asked only where significance decides: beyond the bound.
            let quantile = { (name: String, percentile: Double) -> (String, LoadStatistics.Outcome) in
                let tail = LoadStatistics.quantileTest(percentile, baseline.latency, current.latency)
                guard exceedsBound, tail.pValue >= Self.significanceLevel else { return (name, tail) }
                return Self.shifted(baseline, current, change) ?? (name, tail)
            }
            let (name, test): (String, LoadStatistics.Outcome) =
                switch threshold.metric {
                case .percentile(let percentile): quantile("quantile test", percentile)
                case .max: quantile("quantile test at p99.9", 99.9)
                case .min: quantile("quantile test at p0.1", 0.1)
                case .mean: ("Welch's t-test", LoadStatistics.welch(baseline.latency, current.latency))
                case .rate: ("Mann-Whitney U over the completions per second", rateTest)
                case .errors: ("two-proportion z-test", errorTest)
                }
            return Verdict(
                threshold: threshold, baselineValue: before, currentValue: now, change: change, testName: name,
                test: test, exceedsBound: exceedsBound)
        }
    }

    /// The Mann-Whitney U test over the two runs' latency histograms, when it finds the whole distribution shifted
    /// the way `change` goes (p below ``shiftLevel``): a percentile's change then is no noise, even where its
    /// quantile test has too few samples in the tail to tell (every request of a short run 100 times slower).
    private static func shifted(
        _ baseline: LoadResult, _ current: LoadResult, _ change: Double
    ) -> (String, LoadStatistics.Outcome)? {
        let shift = LoadStatistics.mannWhitneyU(baseline.latency, current.latency)
        guard shift.pValue < shiftLevel, change != 0 else { return nil }
        // `statistic` is U of the baseline: below half of n1 × n2 when this run's latencies rank higher.
        let half = Double(baseline.latency.count) * Double(current.latency.count) / 2
        guard (shift.statistic < half) == (change > 0), shift.statistic != half else { return nil }
        return ("Mann-Whitney U over the latency histograms (the whole distribution shifted)", shift)
    }

    /// The verdicts as threshold outcomes (the measured value is the change).
    package var outcomes: [LoadResult.ThresholdOutcome] {
        verdicts.map { LoadResult.ThresholdOutcome(threshold: $0.threshold, value: $0.change, holds: $0.holds) }
    }

    /// The tests of `current` that `baseline` does not have, and those of `baseline` that `current` does not have
    /// (`suite › name`); both empty when the runs' tests match.
    package static func unmatchedTests(
        baseline: LoadResult, current: [(suite: String, name: String)]
    ) -> (notInBaseline: [String], notInRun: [String]) {
        let before = Set(baseline.tests.map(key))
        let now = Set(current.map { "\($0.suite) › \($0.name)" })
        return (
            current.map { "\($0.suite) › \($0.name)" }.filter { !before.contains($0) },
            baseline.tests.map(key).filter { !now.contains($0) }
        )
    }

    private static func key(_ test: LoadResult.TestStats) -> String { test.displayName }
}

// MARK: - JSON

/// A verdict as the load JSON report writes it: what it holds, and whether its change was significant and the
/// threshold held; read back without those two, which follow from the rest.
extension LoadBaselineComparison.Verdict: Codable {
    private enum CodingKeys: String, CodingKey {
        case threshold, baselineValue, currentValue, change, testName, test, exceedsBound, significant, holds
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            threshold: try container.decode(LoadThreshold.self, forKey: .threshold),
            baselineValue: try container.decode(Double.self, forKey: .baselineValue),
            currentValue: try container.decode(Double.self, forKey: .currentValue),
            change: try container.decode(Double.self, forKey: .change),
            testName: try container.decode(String.self, forKey: .testName),
            test: try container.decode(LoadStatistics.Outcome.self, forKey: .test),
            exceedsBound: try container.decode(Bool.self, forKey: .exceedsBound))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(threshold, forKey: .threshold)
        try container.encode(baselineValue, forKey: .baselineValue)
        try container.encode(currentValue, forKey: .currentValue)
        try container.encode(change, forKey: .change)
        try container.encode(testName, forKey: .testName)
        try container.encode(test, forKey: .test)
        try container.encode(exceedsBound, forKey: .exceedsBound)
        try container.encode(significant, forKey: .significant)
        try container.encode(holds, forKey: .holds)
    }
}
