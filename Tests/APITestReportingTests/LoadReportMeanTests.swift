import APITestResults
import Foundation
import Testing

/// The load report's `mean` never lies outside [`min`, `max`]: HDR's mean counts each bucket's samples at the
/// bucket's middle, so one sample of 2.82 ms had a written mean of 2.821 above its max of 2.82 (the old code).
@Suite struct LoadReportMeanTests {
    @Test func aSingleSamplesMeanIsTheSample() {
        var histogram = LatencyHistogram()
        histogram.record(microseconds: 2_820)
        let figures = histogram.percentiles
        #expect(figures.min == 2.82)
        #expect(figures.max == 2.82)
        #expect(figures.mean == 2.82)
    }

    @Test func theMeanStaysBetweenTheExtremesForManySampleSets() {
        // Equal samples, where a bucket midpoint above the sample is the whole mean, across the histogram's ranges.
        for sample: UInt64 in [1, 999, 2_049, 2_820, 65_537, 1_234_567, 98_765_432] {
            for count: UInt64 in [1, 3, 100] {
                var histogram = LatencyHistogram()
                histogram.record(microseconds: sample, count: count)
                let figures = histogram.percentiles
                #expect(figures.min <= figures.mean && figures.mean <= figures.max, "\(sample) × \(count): \(figures)")
            }
        }
        var spread = LatencyHistogram()
        for sample: UInt64 in [2_820, 2_821, 2_823, 2_829] { spread.record(microseconds: sample) }
        let figures = spread.percentiles
        #expect(figures.min <= figures.mean && figures.mean <= figures.max, "\(figures)")
    }
}
