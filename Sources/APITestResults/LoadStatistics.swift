import Foundation

/// The two-sample tests `apitest load --baseline` decides a relative threshold with, so that noise alone does not
/// fail a build: a change beyond a relative threshold's bound fails it only when these tests say the two runs differ
/// at ``LoadBaselineComparison/significanceLevel``.
///
/// - A latency percentile (`p99<+10%`): the quantile test (Mood's median test generalized to any percentile): the
///   percentile of both runs' samples together splits them, and the two-proportion z-test asks whether the share
///   above it differs between the runs. It looks where the threshold looks: a stall that slows a tenth of the
///   iterations moves p95 and p99 but hardly the ranks of the rest. `max` and `min` use p99.9 and p0.1.
/// - The mean: Welch's t-test over the histograms (each bucket's samples at its value), with the normal
///   approximation of its distribution (a load has hundreds of samples at least).
/// - Achieved rate: the Mann-Whitney U test over the runs' completions per second.
/// - Error share: the two-proportion z-test (pooled), two-sided.
/// - Beside each scope of the comparison, the Mann-Whitney U test (Wilcoxon rank-sum) over the two latency
///   histograms (each bucket's samples tied at its value), with the normal approximation, the tie and continuity
///   corrections, two-sided: what SciPy's `mannwhitneyu(x, y, method="asymptotic")` computes from the samples.
package enum LoadStatistics {
    /// A test's result.
    package struct Outcome: Sendable, Hashable, Codable {
        /// The test statistic: U of the first sample (Mann-Whitney), or z (two proportions).
        package var statistic: Double
        /// The two-sided p-value: the chance of a difference at least this large between two samples of one
        /// distribution.
        package var pValue: Double

        /// A test's statistic and p-value.
        package init(statistic: Double, pValue: Double) {
            self.statistic = statistic
            self.pValue = pValue
        }
    }

    // MARK: - Mann-Whitney U

    /// The Mann-Whitney U test of samples `first` and `second`, each given as values with their counts (in any
    /// order; a value may appear more than once). Two-sided, normal approximation with tie and continuity
    /// corrections; `statistic` is U of `first`. A p-value of 1 when either sample is empty or every value is tied.
    package static func mannWhitneyU(
        _ first: [(value: Double, count: Double)], _ second: [(value: Double, count: Double)]
    ) -> Outcome {
        var counts: [Double: (first: Double, second: Double)] = [:]
        for (value, count) in first where count > 0 { counts[value, default: (0, 0)].first += count }
        for (value, count) in second where count > 0 { counts[value, default: (0, 0)].second += count }
        let n1 = counts.values.reduce(0) { $0 + $1.first }
        let n2 = counts.values.reduce(0) { $0 + $1.second }
        guard n1 > 0, n2 > 0 else { return Outcome(statistic: 0, pValue: 1) }
        var below: Double = 0 // samples of both below the current value
        var rankSum: Double = 0 // of `first`
        var ties: Double = 0 // Σ (t³ - t) over the tied groups
        for value in counts.keys.sorted() {
            let (a, b) = counts[value]!
            let tied = a + b
            rankSum += a * (below + (tied + 1) / 2)
            ties += tied * tied * tied - tied
            below += tied
        }
        let n = n1 + n2
        let u1 = rankSum - n1 * (n1 + 1) / 2
        let u2 = n1 * n2 - u1
        let mean = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
        guard variance > 0 else { return Outcome(statistic: u1, pValue: 1) }
        let z = (Swift.max(u1, u2) - mean - 0.5) / variance.squareRoot()
        return Outcome(statistic: u1, pValue: Swift.min(1, Swift.max(0, 2 * normalSurvival(z))))
    }

    /// The Mann-Whitney U test of two latency histograms, over their buckets.
    package static func mannWhitneyU(_ first: LatencyHistogram, _ second: LatencyHistogram) -> Outcome {
        mannWhitneyU(
            first.buckets.map { (Double($0.value), Double($0.count)) },
            second.buckets.map { (Double($0.value), Double($0.count)) })
    }

    // MARK: - Quantile test

    /// The quantile test of `percentile` (0 to 100) of two latency histograms: the share of each above the
    /// percentile of both together (at or above it when no sample is above), compared by ``twoProportions(_:of:_:of:)``; `statistic` is z (positive when
    /// `second` has more samples above).
    package static func quantileTest(
        _ percentile: Double, _ first: LatencyHistogram, _ second: LatencyHistogram
    ) -> Outcome {
        var pooled = first
        pooled.merge(second)
        let split = pooled.percentile(percentile)
        // The samples above the split; when none is (the percentile falls in the highest bucket of both, tied),
        // those at or above it.
        var above: (LatencyHistogram) -> Double = { histogram in
            Double(histogram.buckets.filter { $0.value > split }.reduce(0) { $0 + $1.count })
        }
        if above(first) + above(second) == 0 {
            above = { histogram in
                Double(histogram.buckets.filter { $0.value >= split }.reduce(0) { $0 + $1.count })
            }
        }
        return twoProportions(above(first), of: Double(first.count), above(second), of: Double(second.count))
    }

    // MARK: - Welch's t-test

    /// Welch's t-test of the means of `first` and `second` (values with their counts), two-sided, the p-value
    /// from the normal distribution; `statistic` is t (positive when `second`'s mean is higher). A p-value of 1 when
    /// either has fewer than two samples or both have no spread.
    package static func welch(
        _ first: [(value: Double, count: Double)], _ second: [(value: Double, count: Double)]
    ) -> Outcome {
        func moments(_ sample: [(value: Double, count: Double)]) -> (n: Double, mean: Double, variance: Double) {
            let n = sample.reduce(0) { $0 + $1.count }
            guard n > 1 else { return (n, 0, 0) }
            let mean = sample.reduce(0) { $0 + $1.value * $1.count } / n
            let squares = sample.reduce(0) { $0 + ($1.value - mean) * ($1.value - mean) * $1.count }
            return (n, mean, squares / (n - 1))
        }
        let (a, b) = (moments(first), moments(second))
        guard a.n > 1, b.n > 1 else { return Outcome(statistic: 0, pValue: 1) }
        let standardError = (a.variance / a.n + b.variance / b.n).squareRoot()
        guard standardError > 0 else { return Outcome(statistic: 0, pValue: 1) }
        let t = (b.mean - a.mean) / standardError
        return Outcome(statistic: t, pValue: Swift.min(1, 2 * normalSurvival(abs(t))))
    }

    /// Welch's t-test of two latency histograms, over their buckets.
    package static func welch(_ first: LatencyHistogram, _ second: LatencyHistogram) -> Outcome {
        welch(
            first.buckets.map { (Double($0.value), Double($0.count)) },
            second.buckets.map { (Double($0.value), Double($0.count)) })
    }

    // MARK: - Two proportions

    /// The two-proportion z-test of `x1` of `n1` against `x2` of `n2` (pooled standard error), two-sided;
    /// `statistic` is z (positive when the second share is higher). A p-value of 1 when either sample is empty or
    /// both shares are 0 or both 1.
    package static func twoProportions(_ x1: Double, of n1: Double, _ x2: Double, of n2: Double) -> Outcome {
        guard n1 > 0, n2 > 0 else { return Outcome(statistic: 0, pValue: 1) }
        let pooled = (x1 + x2) / (n1 + n2)
        let standardError = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
        guard standardError > 0 else { return Outcome(statistic: 0, pValue: 1) }
        let z = (x2 / n2 - x1 / n1) / standardError
        return Outcome(statistic: z, pValue: Swift.min(1, 2 * normalSurvival(abs(z))))
    }

    /// P(Z > z) for a standard normal Z.
    static func normalSurvival(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }
}
