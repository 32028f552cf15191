import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// `apitest load --baseline`: the two-sample tests against SciPy's results, relative thresholds parsed (and
/// refused with their reason), judged on the change **and** its significance, and the comparison's text.
@Suite struct LoadBaselineTests {
    // MARK: - Statistics

    /// `(value, count)` pairs as the tests take them.
    static func pairs(_ values: [(Double, Double)]) -> [(value: Double, count: Double)] {
        values.map { (value: $0.0, count: $0.1) }
    }

    /// A histogram of `values` (each value, how many times).
    static func histogram(_ values: [(UInt64, UInt64)]) -> LatencyHistogram {
        var histogram = LatencyHistogram()
        for (value, count) in values { histogram.record(microseconds: value, count: count) }
        return histogram
    }

    static func close(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
        abs(a - b) <= relative * max(abs(a), abs(b), 1e-300)
    }

    // The expected figures are SciPy 1.17.1's, computed once from the same samples:
    // `scipy.stats.mannwhitneyu(x, y, method="asymptotic")` (two-sided, tie and continuity corrections), with
    // x and y the values repeated by their counts.

    @Test func mannWhitneyUMatchesSciPyOnSmallSamplesWithTies() {
        // x = [1, 2, 2, 3, 3, 3, 4, 5], y = [3, 4, 4, 5, 5, 6, 7, 7, 8]
        let outcome = LoadStatistics.mannWhitneyU(
            Self.pairs([(1, 1), (2, 2), (3, 3), (4, 1), (5, 1)]),
            Self.pairs([(3, 1), (4, 2), (5, 2), (6, 1), (7, 2), (8, 1)]))
        #expect(outcome.statistic == 7.5)
        #expect(Self.close(outcome.pValue, 0.006373133838085873), "\(outcome)")
    }

    @Test func mannWhitneyUMatchesSciPyOnHistogramBuckets() {
        let baseline: [(UInt64, UInt64)] = [(100, 50), (120, 30), (150, 15), (400, 5)]
        let current: [(UInt64, UInt64)] = [(100, 40), (120, 30), (150, 20), (400, 8), (900, 2)]
        let outcome = LoadStatistics.mannWhitneyU(Self.histogram(baseline), Self.histogram(current))
        #expect(outcome.statistic == 4320)
        #expect(Self.close(outcome.pValue, 0.07612297732165264), "\(outcome)")
        // One histogram against itself: no difference at all.
        let same = LoadStatistics.mannWhitneyU(Self.histogram(baseline), Self.histogram(baseline))
        #expect(same.statistic == 5000 && same.pValue == 1)
    }

    @Test func mannWhitneyUMatchesSciPyOnAClearShift() {
        // Values below 2,048 µs are each their own bucket; 5,000 and 900,000 are recorded at their bucket's value
        // (5,003 and 900,095 µs), which ranks them the same.
        let outcome = LoadStatistics.mannWhitneyU(
            Self.histogram([(1_000, 900), (1_100, 90), (2_000, 10)]),
            Self.histogram([(1_000, 600), (1_100, 200), (5_000, 150), (900_000, 50)]))
        #expect(outcome.statistic == 341_000)
        #expect(Self.close(outcome.pValue, 2.5051433123136244e-59, relative: 1e-6), "\(outcome)")
    }

    @Test func mannWhitneyUOfAnEmptyOrAllTiedSampleIsNoEvidence() {
        #expect(LoadStatistics.mannWhitneyU(Self.pairs([]), Self.pairs([(1, 5)])).pValue == 1)
        #expect(LoadStatistics.mannWhitneyU(Self.pairs([(3, 4)]), Self.pairs([(3, 9)])).pValue == 1)
    }

    @Test func twoProportionsMatchesTheNormalTail() {
        // 5 of 1,000 against 20 of 1,000: z = 3.0189..., p = 2 × scipy.stats.norm.sf(z).
        let outcome = LoadStatistics.twoProportions(5, of: 1_000, 20, of: 1_000)
        #expect(Self.close(outcome.statistic, 3.018927632559765))
        #expect(Self.close(outcome.pValue, 0.0025367111749685033, relative: 1e-7), "\(outcome)")
        #expect(LoadStatistics.twoProportions(0, of: 100, 0, of: 200).pValue == 1)
    }

    @Test func welchsTestMatchesSciPysStatistic() {
        // scipy.stats.ttest_ind(y, x, equal_var=False).statistic, and 2 × norm.sf(|t|).
        let outcome = LoadStatistics.welch(
            Self.pairs([(1_000, 900), (1_100, 90), (2_000, 10)]),
            Self.pairs([(1_000, 600), (1_100, 200), (5_000, 150), (900_000, 50)]))
        #expect(Self.close(outcome.statistic, 7.353230522691264), "\(outcome)")
        #expect(Self.close(outcome.pValue, 1.9347284177549702e-13, relative: 1e-6), "\(outcome)")
        #expect(LoadStatistics.welch(Self.pairs([(5, 3)]), Self.pairs([(5, 4)])).pValue == 1)
    }

    @Test func theQuantileTestLooksAtTheTailTheThresholdLooksAt() {
        // A quarter of the samples most of a second slower, another quarter a little faster: the ranks balance
        // (Mann-Whitney finds nothing), p95 and p99 move, and the quantile test says so.
        let baseline = Self.histogram([(2_000, 800)])
        let current = Self.histogram([(1_500, 200), (2_000, 400), (900_000, 200)])
        #expect(LoadStatistics.mannWhitneyU(baseline, current).pValue > 0.5)
        let p99 = LoadStatistics.quantileTest(99, baseline, current)
        #expect(p99.pValue < 1e-10 && p99.statistic > 0, "\(p99)")
        // One slow sample of twenty: no evidence.
        let few = LoadStatistics.quantileTest(
            99, Self.histogram([(1_000, 19), (2_000, 1)]), Self.histogram([(1_000, 19), (3_000, 1)]))
        #expect(few.pValue > 0.1, "\(few)")
    }

    // MARK: - Relative thresholds

    @Test func relativeThresholdsParseIntoASignedChange() throws {
        let p99 = try LoadThreshold(parsing: "p99<+10%")
        #expect(p99.metric == .percentile(99) && p99.relative == .percent && p99.bound == 10)
        let p95 = try LoadThreshold(parsing: "p95 < +5ms")
        #expect(p95.relative == .amount && p95.bound == 5_000)
        let rate = try LoadThreshold(parsing: "rate>-5%")
        #expect(rate.comparison == .greater && rate.relative == .percent && rate.bound == -5)
        #expect(try LoadThreshold(parsing: "rate>=-100/s").bound == -100)
        let errors = try LoadThreshold(parsing: "errors<+1%")
        #expect(errors.relative == .amount && abs(errors.bound - 0.01) < 1e-12)
        #expect(try LoadThreshold(parsing: "errors<+0.02").bound == 0.02)
        #expect(try LoadThreshold(parsing: "mean<=+1.5s").bound == 1_500_000)
        // Absolute thresholds stay absolute.
        #expect(try LoadThreshold(parsing: "p99<10ms").relative == nil)
        // Read back from a report by their text.
        let decoded = try JSONDecoder().decode(LoadThreshold.self, from: try JSONEncoder().encode(p99))
        #expect(decoded == p99)
    }

    @Test func badRelativeThresholdsSayWhy() {
        for (text, reason) in [
            ("p99<+10", "a relative latency is a signed percentage (+10%) or a signed latency with its unit (+5ms)"),
            ("p99<+-5ms", "a relative latency is a signed percentage (+10%) or a signed latency with its unit (+5ms)"),
            ("p99<+%", "a relative latency is a signed percentage (+10%) or a signed latency with its unit (+5ms)"),
            ("errors<+200%", "a relative error share is signed percentage points (+1%) or a signed fraction (+0.01)"),
            ("errors<+2", "a relative error share is signed percentage points (+1%) or a signed fraction (+0.01)"),
            ("rate>-fast", "a relative rate is a signed percentage (-5%) or a signed rate (-100/s)"),
            ("rate>-inf", "a relative rate is a signed percentage (-5%) or a signed rate (-100/s)"),
        ] {
            #expect { try LoadThreshold(parsing: text) } throws: { error in
                (error as? LoadThreshold.ParseError)?.description == "threshold '\(text)': \(reason)"
            }
        }
    }

    // MARK: - Verdicts

    /// A run of `seconds` with `histogram`, `completed` iterations of which `notPassed` did not pass, and a
    /// timeline of `perSecond` completions.
    static func run(
        _ histogram: LatencyHistogram, seconds: Double = 10, notPassed: Int = 0, perSecond: [Int]? = nil
    ) -> LoadResult {
        var result = LoadResult(
            model: .init(kind: .open, plannedSeconds: seconds), startedAt: Date(timeIntervalSince1970: 0),
            lateAfterMs: 10)
        result.latency = histogram
        result.seconds = seconds
        result.counts.completed = Int(histogram.count)
        result.counts.started = Int(histogram.count)
        result.counts.errored = notPassed
        result.counts.passed = Int(histogram.count) - notPassed
        let each = perSecond ?? Array(repeating: Int(histogram.count) / Int(seconds), count: Int(seconds))
        result.timeline = each.enumerated().map {
            LoadResult.Second(second: $0.offset + 1, completed: $0.element, notPassed: 0, p50: 0, p99: 0, max: 0)
        }
        var test = LoadResult.TestStats(suite: "s", file: "s.yaml", name: "t", weight: 1)
        test.latency = histogram
        test.counts = result.counts
        result.tests = [test]
        return result
    }

    static func verdict(
        _ rule: String, baseline: LoadResult, current: LoadResult
    ) throws -> LoadBaselineComparison.Verdict {
        let comparison = LoadBaselineComparison(
            baseline: baseline, current: current, baselineFile: "b.json",
            thresholds: [try LoadThreshold(parsing: rule)])
        return try #require(comparison.verdicts.first)
    }

    @Test func aLargeChangeOfFewSamplesIsNoiseAndHolds() throws {
        // Twenty samples each; only the slowest differs (p99 +50 %): beyond the bound, not significant.
        let baseline = Self.histogram([(1_000, 10), (1_100, 9), (2_000, 1)])
        let current = Self.histogram([(1_000, 10), (1_100, 9), (3_000, 1)])
        let verdict = try Self.verdict("p99<+10%", baseline: Self.run(baseline), current: Self.run(current))
        #expect(verdict.baselineValue == 2_000 && verdict.currentValue == 3_000 && verdict.change == 50)
        #expect(verdict.exceedsBound && !verdict.significant && verdict.holds, "\(verdict)")
    }

    @Test func aSignificantChangeBeyondTheBoundFails() throws {
        let baseline = Self.histogram([(1_000, 900), (1_100, 90), (2_000, 10)])
        let current = Self.histogram([(1_000, 600), (1_100, 200), (5_000, 150), (900_000, 50)])
        let verdict = try Self.verdict("p99<+10%", baseline: Self.run(baseline), current: Self.run(current))
        #expect(verdict.exceedsBound && verdict.significant && !verdict.holds, "\(verdict)")
        // 50 of 1,000 at the pooled p99 (900 ms) against none: z = 0.05 / √(0.025 × 0.975 × 0.002).
        #expect(verdict.testName == "quantile test" && Self.close(verdict.test.statistic, 7.161148740394329))
        // The mean by Welch's t-test.
        let mean = try Self.verdict("mean<+10%", baseline: Self.run(baseline), current: Self.run(current))
        #expect(mean.testName == "Welch's t-test" && mean.significant && !mean.holds, "\(mean)")
        // The same change within a wider bound holds: the bound decides, significance only confirms.
        #expect(try Self.verdict("p95<+2s", baseline: Self.run(baseline), current: Self.run(current)).holds)
        // The same runs the other way round: faster is no regression.
        #expect(try Self.verdict("p99<+10%", baseline: Self.run(current), current: Self.run(baseline)).holds)
    }

    @Test func everyRequestSlowerFailsAPercentileThresholdItsTailCannotShowAlone() throws {
        // A short run (150 and 137 samples) where every request is about 100 times slower: the p99's quantile test
        // has too few samples in the tail to tell (p > 0.01; the old verdict called +2,500 % noise), the whole
        // distribution's shift decides.
        let baseline = Self.histogram([(3_400, 100), (4_000, 45), (8_000, 3), (12_000, 2)])
        let current = Self.histogram([(300_000, 100), (305_000, 30), (310_000, 5), (312_000, 2)])
        #expect(LoadStatistics.quantileTest(99, baseline, current).pValue > 0.01)
        let verdict = try Self.verdict(
            "p99<+10%", baseline: Self.run(baseline, seconds: 3), current: Self.run(current, seconds: 3))
        #expect(verdict.exceedsBound && verdict.significant && !verdict.holds, "\(verdict)")
        #expect(verdict.testName == "Mann-Whitney U over the latency histograms (the whole distribution shifted)")
        // max (p99.9) and a faster run the other way round: the shift decides only in the change's direction.
        #expect(
            !(try Self.verdict(
                "max<+10%", baseline: Self.run(baseline, seconds: 3), current: Self.run(current, seconds: 3)
            ).holds))
        #expect(
            try Self.verdict(
                "p99<+10%", baseline: Self.run(current, seconds: 3), current: Self.run(baseline, seconds: 3)
            ).holds)
        // Within the bound (faster), the quantile test is named: the shift is asked only beyond the bound.
        let faster = try Self.verdict(
            "p99<+10%", baseline: Self.run(current, seconds: 3), current: Self.run(baseline, seconds: 3))
        #expect(faster.testName == "quantile test", "\(faster)")
        // Few samples, only the slowest differs: still noise.
        let few = try Self.verdict(
            "p99<+10%", baseline: Self.run(Self.histogram([(1_000, 10), (1_100, 9), (2_000, 1)])),
            current: Self.run(Self.histogram([(1_000, 10), (1_100, 9), (3_000, 1)])))
        #expect(few.holds && few.testName == "quantile test", "\(few)")
    }

    @Test func errorsAndRateAreJudgedByTheirOwnTests() throws {
        let latency = Self.histogram([(1_000, 1_000)])
        // 0.5 % to 2 % of 1,000: +1.5 points, p = 0.0025.
        let errors = try Self.verdict(
            "errors<+1%", baseline: Self.run(latency, notPassed: 5), current: Self.run(latency, notPassed: 20))
        #expect(abs(errors.change - 0.015) < 1e-12 && errors.testName == "two-proportion z-test" && !errors.holds)
        // 5 % to 8 % of 100: +3 points but not significant.
        let few = Self.histogram([(1_000, 100)])
        #expect(
            try Self.verdict("errors<+1%", baseline: Self.run(few, notPassed: 5), current: Self.run(few, notPassed: 8))
                .holds)
        // 100/s every second against 80/s every second: -20 %, significant.
        let slower = Self.run(Self.histogram([(1_000, 800)]), perSecond: Array(repeating: 80, count: 10))
        let rate = try Self.verdict("rate>-5%", baseline: Self.run(latency), current: slower)
        #expect(rate.change == -20 && rate.significant && !rate.holds, "\(rate)")
        #expect(try Self.verdict("rate>-25%", baseline: Self.run(latency), current: slower).holds)
    }

    @Test func unmatchedTestsAreNamedOnBothSides() {
        let baseline = Self.run(Self.histogram([(1_000, 10)]))
        let unmatched = LoadBaselineComparison.unmatchedTests(
            baseline: baseline, current: [(suite: "s", name: "u")])
        #expect(unmatched.notInBaseline == ["s › u"] && unmatched.notInRun == ["s › t"])
        let matched = LoadBaselineComparison.unmatchedTests(baseline: baseline, current: [(suite: "s", name: "t")])
        #expect(matched.notInBaseline.isEmpty && matched.notInRun.isEmpty)
        #expect(
            LoadBaselineProblem.testsDiffer(file: "b.json", notInBaseline: ["s › u"], notInRun: ["s › t"]).description
                == "--baseline 'b.json': its tests do not match: this run's s › u not in the baseline; the baseline's "
                + "s › t not in this run")
    }

    // MARK: - Text

    @Test func theComparisonShowsBothRunsSideBySideWithTheChange() throws {
        let baseline = Self.run(Self.histogram([(1_000, 900), (1_100, 90), (2_000, 10)]))
        let current = Self.run(Self.histogram([(1_000, 600), (1_100, 200), (5_000, 150), (900_000, 50)]))
        let comparison = LoadBaselineComparison(
            baseline: baseline, current: current, baselineFile: "earlier.json",
            thresholds: [try LoadThreshold(parsing: "p99<+10%"), try LoadThreshold(parsing: "p50<10ms")])
        let text = LoadReportText.comparison(comparison)
        #expect(text.contains("compared with baseline earlier.json (started 1970-01-01T00:00:00"), "\(text)")
        #expect(text.contains("  overall: latency Mann-Whitney U p = 2.5e-59"), "\(text)")
        #expect(text.contains("  s › t: latency Mann-Whitney U p = 2.5e-59"), "\(text)")
        #expect(text.contains("    p99     1.10 ms       900 ms        +81718.2 %"), "\(text)")
        #expect(text.contains("    rate    100.0/s       100.0/s       +0.0 %"), "\(text)")
        #expect(text.contains("    errors  0.00 %        0.00 %        +0.00 pt"), "\(text)")
        #expect(
            text.contains(
                "  ✘ p99<+10%: 1.10 ms → 900 ms (+81718.2 %), quantile test p = 8.0e-13: "
                    + "beyond the bound and significant: a regression"), "\(text)")
        // Only the relative threshold is judged here; the absolute one is the run's.
        #expect(comparison.verdicts.count == 1)
        let outcome = try #require(comparison.outcomes.first)
        #expect(!outcome.holds && LoadReportText.value(outcome) == "+81718.2 %")
        let page = LoadHTMLReport.render(current, hostname: "h", baseline: comparison)
        #expect(page.contains("<h2>Compared with the baseline</h2>") && page.contains("<li data-holds=\"false\""))
    }
}
