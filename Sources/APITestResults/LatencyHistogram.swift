import Histogram

/// Latencies of a load run, in microseconds, in an HDR histogram (HdrHistogram's Swift implementation): from 1 µs to
/// one hour with three significant digits, in constant memory however many samples it holds. Two histograms merge
/// exactly (bucket by bucket), so the histogram of N processes' samples is the one a single histogram fed all of
/// them would hold, and its percentiles are the same.
///
/// Encoded (JSON) as its non-empty buckets only: `{"significantDigits": 3, "unit": "us", "min": 480, "max": 5250,
/// "counts": [[value, count], ...]}`, each value the highest of its bucket, which records back into the same bucket;
/// the exact lowest and highest samples are kept too, so a histogram read back answers every percentile as the
/// one written did (percentiles are clamped to them). Beside them, for readers that want figures rather than
/// buckets (`jq '.load.latency.percentiles.p99'`), `count` and `percentiles` (``Percentiles``): p50 to p99.9, min,
/// max and mean in milliseconds (`"percentileUnit": "ms"`), computed from the histogram when it is written and
/// ignored when it is read back (the buckets are what a report holds).
package struct LatencyHistogram: Sendable, Codable {
    /// The highest latency recorded exactly: one hour (higher values are recorded as one hour).
    package static let highestTrackable: UInt64 = 3_600_000_000

    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: LatencyHistogram.highestTrackable,
        numberOfSignificantValueDigits: .three)

    /// An empty histogram.
    package init() {}

    // MARK: - Recording

    /// Records one latency.
    package mutating func record(_ latency: Duration) {
        record(microseconds: Self.microseconds(latency))
    }

    /// Records one latency given in microseconds (0 counts as 1 µs; above one hour as one hour).
    package mutating func record(microseconds: UInt64, count: UInt64 = 1) {
        _ = histogram.record(Swift.min(Swift.max(microseconds, 1), Self.highestTrackable), count: count)
    }

    /// Adds every sample of `other`.
    package mutating func merge(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
    }

    /// `latency` in whole microseconds, rounded up (a sample is never made shorter than it was).
    package static func microseconds(_ latency: Duration) -> UInt64 {
        let (seconds, attoseconds) = latency.components
        guard seconds >= 0 else { return 0 }
        let micros = UInt64(seconds) &* 1_000_000 &+ UInt64(attoseconds / 1_000_000_000_000)
        return attoseconds % 1_000_000_000_000 == 0 ? micros : micros &+ 1
    }

    // MARK: - Reading

    /// How many samples it holds.
    package var count: UInt64 { histogram.totalCount }

    /// The latency at or below which `percentile` % of the samples fall (0 when empty), in microseconds.
    package func percentile(_ percentile: Double) -> UInt64 {
        count == 0 ? 0 : histogram.valueAtPercentile(percentile)
    }

    /// The highest sample, in microseconds.
    package var max: UInt64 { count == 0 ? 0 : histogram.maxRecorded }

    /// The lowest sample, in microseconds.
    package var min: UInt64 { count == 0 ? 0 : histogram.valueAtPercentile(0) }

    /// The mean, in microseconds.
    package var mean: Double { count == 0 ? 0 : histogram.mean }

    /// The non-empty buckets: each bucket's highest value and its count, lowest first.
    package var buckets: [(value: UInt64, count: UInt64)] {
        histogram.recordedValues().map { ($0.value, UInt64($0.count)) }
    }

    // MARK: - Coding

    private enum CodingKeys: String, CodingKey {
        case unit, significantDigits, min, max, counts, count, percentileUnit, percentiles
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let unit = try container.decode(String.self, forKey: .unit)
        guard unit == "us" else {
            throw DecodingError.dataCorruptedError(
                forKey: .unit, in: container, debugDescription: "latencies are in microseconds (\"us\"), not \(unit)")
        }
        let counts = try container.decode([[UInt64]].self, forKey: .counts)
        let lowest = try container.decodeIfPresent(UInt64.self, forKey: .min)
        let highest = try container.decodeIfPresent(UInt64.self, forKey: .max)
        self.init()
        for pair in counts {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .counts, in: container, debugDescription: "a bucket is [value, count]")
            }
            var (value, remaining) = (pair[0], pair[1])
            guard remaining > 0 else { continue }
            // The exact extremes are recorded as themselves, in their own buckets, so that min and max (which
            // percentiles are clamped to) come back as they were.
            if let lowest, histogram.valuesAreEquivalent(value, lowest) {
                record(microseconds: lowest)
                remaining -= 1
                value = lowest
            }
            if let highest, histogram.valuesAreEquivalent(value, highest) { value = highest }
            if remaining > 0 { record(microseconds: value, count: remaining) }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("us", forKey: .unit)
        try container.encode(3, forKey: .significantDigits)
        if count > 0 {
            try container.encode(histogram.valueAtPercentile(0), forKey: .min)
            try container.encode(histogram.maxRecorded, forKey: .max)
        }
        try container.encode(buckets.map { [$0.value, $0.count] }, forKey: .counts)
        try container.encode(count, forKey: .count)
        try container.encode("ms", forKey: .percentileUnit)
        try container.encode(percentiles, forKey: .percentiles)
    }
}
