import Foundation

/// The two-sample tests `apitest load --baseline` decides a relative threshold with, so that noise alone does not
/// fail a build: a change beyond a relative threshold's bound fails it only when these tests say the two runs differ
/// at ``LoadBaselineComparison/significanceLevel``.
///
/// - Latencies: the Mann-Whitney U test (Wilcoxon rank-sum) over the two runs' HDR histograms, each bucket's count
///   of samples taken at the bucket's value (so tied within a bucket), with the normal approximation, the tie
///   correction and the continuity correction, two-sided: what SciPy's `mannwhitneyu(x, y, method="asymptotic")`
///   computes from the samples.
/// - Achieved rate: the same test over the runs' completions per second.
/// - Error share: the two-proportion z-test (pooled), two-sided.
package enum LoadStatistics {
    /// A test's result.
    package struct Outcome: Sendable, Hashable {
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
