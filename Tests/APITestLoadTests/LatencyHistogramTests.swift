import APITestResults
import Foundation
import Histogram
import Testing

/// A latency histogram costs what it holds (a list of the distinct latencies for a few samples, HDR's counts
/// growing to the highest one past that) and reads exactly as HDR's fixed-range histogram of the whole hour fed the
/// same samples: every percentile, the extremes, the mean, the buckets, the report's JSON.
@Suite struct LatencyHistogramTests {
    /// HDR's histogram over the whole range, as `LatencyHistogram` held before.
    static func reference(_ samples: [UInt64]) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: LatencyHistogram.highestTrackable,
            numberOfSignificantValueDigits: .three)
        for sample in samples { _ = histogram.record(min(max(sample, 1), LatencyHistogram.highestTrackable)) }
        return histogram
    }

    static func histogram(_ samples: [UInt64]) -> LatencyHistogram {
        var histogram = LatencyHistogram()
        for sample in samples { histogram.record(microseconds: sample) }
        return histogram
    }

    /// Samples from 0 µs to past an hour: a few (kept as a list) and many (in HDR's counts).
    static let sampleSets: [[UInt64]] = {
        var generator = SystemRandomNumberGenerator()
        let many = (0..<5_000).map { _ in UInt64.random(in: 50...2_000_000, using: &generator) }
        return [
            [], [0], [1, 1, 1], [480, 5_250, 480, 999, 1_000_001],
            (0..<60).map { UInt64($0 * 37 + 100) },
            // A list whose values share buckets (above 2,048 µs a bucket holds several), and the hour's clamp.
            [2_048, 2_049, 2_050, 2_051, 100_000, 100_001, 100_003, 4_000_000_000, 3_600_000_000],
            Array(repeating: 777, count: 1_000) + [12_345],
            many, many + [4_000_000_000, 7],
        ]
    }()

    @Test(arguments: sampleSets)
    func everyFigureIsHDRsOwn(samples: [UInt64]) throws {
        let histogram = Self.histogram(samples)
        let reference = Self.reference(samples)
        #expect(histogram.count == reference.totalCount)
        guard !samples.isEmpty else { return }
        for percentile in [0.0, 1, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100] {
            #expect(histogram.percentile(percentile) == reference.valueAtPercentile(percentile), "p\(percentile)")
        }
        #expect(histogram.max == reference.maxRecorded)
        #expect(histogram.min == reference.valueAtPercentile(0))
        // HDR's mean, clamped to the exact extremes (a bucket's median can pass them).
        let clamped = min(max(reference.mean, Double(reference.valueAtPercentile(0))), Double(reference.maxRecorded))
        #expect(histogram.mean == clamped)
        let buckets = histogram.buckets.map { [$0.value, $0.count] }
        #expect(buckets == reference.recordedValues().map { [$0.value, UInt64($0.count)] })
        // Written and read back, it answers as it did.
        let decoded = try JSONDecoder().decode(LatencyHistogram.self, from: try JSONEncoder().encode(histogram))
        #expect(decoded.count == histogram.count)
        for percentile in [0.0, 50, 99, 100] {
            #expect(decoded.percentile(percentile) == histogram.percentile(percentile))
        }
    }

    /// One sample of 2,820 µs: HDR's mean is its bucket's median, 2,821 µs, above the only sample; a `mean<`
    /// threshold and the report both read the clamped one.
    @Test func theMeanNeverPassesTheExtremes() {
        let one = Self.histogram([2_820])
        #expect(Self.reference([2_820]).mean > 2_820)
        #expect(one.mean == 2_820)
        let dense = Self.histogram((0..<100).map { _ in 2_820 } + (0..<100).map { UInt64(100 + $0) })
        #expect(dense.mean <= Double(dense.max) && dense.mean >= Double(dense.min))
    }

    @Test func mergingGivesTheHistogramOfEverySampleWhateverTheirForms() {
        let few: [UInt64] = [120, 130, 4_000]
        let many = (0..<500).map { UInt64($0 * 13 + 200) }
        for (left, right) in [(few, few), (few, many), (many, few), (many, many), ([], many), (few, [])] {
            var merged = Self.histogram(left)
            merged.merge(Self.histogram(right))
            let reference = Self.reference(left + right)
            #expect(merged.count == reference.totalCount)
            for percentile in [0.0, 50, 90, 99, 100] where merged.count > 0 {
                #expect(merged.percentile(percentile) == reference.valueAtPercentile(percentile))
            }
        }
    }

    /// The memory a thousand tests' histograms hold in a load run: each with the handful of samples a suite of a
    /// thousand tests gives each test. They held 180 KiB each (the hour's range at three digits), 176 MiB in all;
    /// now under 1 MiB (the bound leaves room for what tests running beside this one allocate).
    @Test func aThousandHistogramsOfAFewSamplesHoldLittle() {
        var histograms = [LatencyHistogram]()
        let before = Self.residentBytes()
        for test in 0..<1_000 {
            var histogram = LatencyHistogram()
            for sample in 0..<6 { histogram.record(microseconds: UInt64(500 + test + sample * 100)) }
            histograms.append(histogram)
        }
        let grown = Self.residentBytes() - before
        #expect(histograms.count == 1_000)
        #expect(grown < 96 << 20, "a thousand histograms of six samples grew the process by \(grown >> 20) MiB")
    }

    /// The process's resident memory in bytes (`/proc/self/statm`).
    static func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
