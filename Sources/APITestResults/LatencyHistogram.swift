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

    /// The most distinct latencies kept as a list before the histogram takes HDR's counts array.
    static let sparseLimit = 64

    /// Where the samples are: a histogram costs what it holds. Few samples (a test of a suite of thousands gets a
    /// handful in a load run) are kept exactly, value by value; past ``sparseLimit`` distinct values they go into
    /// HDR's counts, which auto-resize to the highest value recorded (up to one hour), so a histogram of
    /// millisecond latencies holds a few tens of KiB rather than the 180 KiB of the whole hour's range. A list is
    /// read with HDR's own bucket arithmetic the way HDR reads its counts, so the figures are HDR's either way
    /// (`LatencyHistogramTests` compares every one with HDR's), and reading one costs what it holds.
    private enum Storage: Sendable {
        /// Each distinct latency (µs, already clamped) and how many times it was recorded.
        case sparse([UInt64: UInt64])
        /// HDR's counts.
        case dense(Histogram<UInt64>)
    }

    private var storage = Storage.sparse([:])

    /// An empty histogram.
    package init() {}

    /// An empty HDR histogram of this type's precision, growing as values are recorded.
    private static func emptyDense() -> Histogram<UInt64> {
        Histogram<UInt64>(numberOfSignificantValueDigits: .three)
    }

    // MARK: - Recording

    /// Records one latency.
    package mutating func record(_ latency: Duration) {
        record(microseconds: Self.microseconds(latency))
    }

    /// Records one latency given in microseconds (0 counts as 1 µs; above one hour as one hour).
    package mutating func record(microseconds: UInt64, count: UInt64 = 1) {
        let value = Swift.min(Swift.max(microseconds, 1), Self.highestTrackable)
        switch storage {
        case .dense(var histogram):
            storage = .sparse([:]) // the histogram is uniquely referenced while it is changed
            if value > histogram.highestTrackableValue { histogram = Self.grown(histogram, toHold: value) }
            _ = histogram.record(value, count: count)
            storage = .dense(histogram)
        case .sparse(var values):
            storage = .sparse([:])
            values[value, default: 0] += count
            storage = values.count > Self.sparseLimit ? .dense(Self.dense(values)) : .sparse(values)
        }
    }

    /// Adds every sample of `other`.
    package mutating func merge(_ other: LatencyHistogram) {
        switch other.storage {
        case .sparse(let values):
            for (value, count) in values { record(microseconds: value, count: count) }
        case .dense(let histogram):
            var merged = hdr
            storage = .sparse([:])
            if histogram.highestTrackableValue > merged.highestTrackableValue {
                merged = Self.grown(merged, toHold: histogram.highestTrackableValue)
            }
            merged.add(histogram)
            storage = .dense(merged)
        }
    }

    /// The HDR histogram of `values`, its counts made at once for the highest of them: HDR's auto-resize appends
    /// its new counts one by one through unspecialised generic code (about a thousand instructions a count, tens of
    /// thousands of counts), so growing a histogram value by value cost more than every sample recorded in it.
    private static func dense(_ values: [UInt64: UInt64]) -> Histogram<UInt64> {
        let highest = values.keys.max() ?? 2
        var histogram = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: Swift.max(highest, 2),
            numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for (value, count) in values { _ = histogram.record(value, count: count) }
        return histogram
    }

    /// `histogram`'s samples in a histogram whose counts reach twice `value` (at most ``highestTrackable``), made
    /// at once and added to with HDR's buffer loop: not HDR's own resize (see `dense(_:)`).
    private static func grown(_ histogram: Histogram<UInt64>, toHold value: UInt64) -> Histogram<UInt64> {
        let highest = Swift.min(Swift.max(value, histogram.highestTrackableValue) * 2, highestTrackable)
        var grown = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: Swift.max(highest, 2),
            numberOfSignificantValueDigits: .three)
        grown.autoResize = true
        grown.add(histogram)
        return grown
    }

    /// The samples as HDR holds them: the counts array, or one made from the list.
    private var hdr: Histogram<UInt64> {
        switch storage {
        case .dense(let histogram): histogram
        case .sparse(let values): Self.dense(values)
        }
    }

    /// HDR's bucket arithmetic for the values of a list (which bucket a value is in, its highest and median
    /// values): the same precision and lowest value as every histogram here, so the same buckets.
    private static let bucketMath = emptyDense()

    /// The list's samples by HDR bucket, lowest first: each bucket's highest value and count, and the lowest and
    /// highest samples (exact).
    private static func bucketed(
        _ values: [UInt64: UInt64]
    ) -> (buckets: [(value: UInt64, count: UInt64)], min: UInt64, max: UInt64, total: UInt64) {
        var buckets: [(value: UInt64, count: UInt64)] = []
        var total: UInt64 = 0
        for (value, count) in values.sorted(by: { $0.key < $1.key }) {
            let top = bucketMath.highestEquivalentForValue(value)
            if let last = buckets.last, last.value == top {
                buckets[buckets.count - 1].count += count
            } else {
                buckets.append((top, count))
            }
            total += count
        }
        let lowest = values.keys.min() ?? 0
        let highest = values.keys.max() ?? 0
        return (buckets, lowest, highest, total)
    }

    /// HDR's value at `percentile` of a list's samples: the highest value of the first bucket whose running count
    /// reaches the percentile's share (rounded up, at least 1), clamped to the exact lowest and highest samples;
    /// the lowest at 0 %, the highest at 100 %.
    private static func percentile(_ percentile: Double, of values: [UInt64: UInt64]) -> UInt64 {
        let (buckets, lowest, highest, total) = bucketed(values)
        guard total > 0 else { return 0 }
        guard percentile != 0 else { return lowest }
        guard percentile < 100 else { return highest }
        let requested = Swift.min(Swift.max(percentile.nextDown, 0), 100)
        let wanted = Swift.max(1, UInt64((requested * Double(total) / 100).rounded(.up)))
        var running: UInt64 = 0
        for bucket in buckets {
            running += bucket.count
            if running >= wanted { return Swift.max(Swift.min(bucket.value, highest), lowest) }
        }
        return 0
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
    package var count: UInt64 {
        switch storage {
        case .dense(let histogram): histogram.totalCount
        case .sparse(let values): values.values.reduce(0, +)
        }
    }

    /// The latency at or below which `percentile` % of the samples fall (0 when empty), in microseconds: HDR's
    /// `valueAtPercentile`, computed from a list the way HDR computes it from its counts.
    package func percentile(_ percentile: Double) -> UInt64 {
        switch storage {
        case .dense(let histogram): histogram.totalCount == 0 ? 0 : histogram.valueAtPercentile(percentile)
        case .sparse(let values): Self.percentile(percentile, of: values)
        }
    }

    /// The highest sample, in microseconds.
    package var max: UInt64 {
        switch storage {
        case .dense(let histogram): histogram.totalCount == 0 ? 0 : histogram.maxRecorded
        case .sparse(let values): values.keys.max() ?? 0
        }
    }

    /// The lowest sample, in microseconds.
    package var min: UInt64 { percentile(0) }

    /// The mean, in microseconds: HDR's (each bucket's samples at its median value), clamped to the exact lowest and
    /// highest samples, which a bucket's median can pass (one sample of 2,820 µs has an HDR mean of 2,821 µs); the
    /// report and a `mean<` threshold read this one figure.
    package var mean: Double {
        let hdrMean: Double
        switch storage {
        case .dense(let histogram):
            guard histogram.totalCount > 0 else { return 0 }
            hdrMean = histogram.mean
        case .sparse(let values):
            let (buckets, _, _, total) = Self.bucketed(values)
            guard total > 0 else { return 0 }
            var sum: Double = 0
            for bucket in buckets {
                sum += Double(Self.bucketMath.medianEquivalentForValue(bucket.value)) * Double(bucket.count)
            }
            hdrMean = sum / Double(total)
        }
        return Swift.min(Swift.max(hdrMean, Double(min)), Double(max))
    }

    /// The non-empty buckets: each bucket's highest value and its count, lowest first.
    package var buckets: [(value: UInt64, count: UInt64)] {
        switch storage {
        case .dense(let histogram): histogram.recordedValues().map { ($0.value, UInt64($0.count)) }
        case .sparse(let values): Self.bucketed(values).buckets
        }
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
        let reference = Self.emptyDense()
        for pair in counts {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .counts, in: container, debugDescription: "a bucket is [value, count]")
            }
            var (value, remaining) = (pair[0], pair[1])
            guard remaining > 0 else { continue }
            // The exact extremes are recorded as themselves, in their own buckets, so that min and max (which
            // percentiles are clamped to) come back as they were.
            if let lowest, reference.valuesAreEquivalent(value, lowest) {
                record(microseconds: lowest)
                remaining -= 1
                value = lowest
            }
            if let highest, reference.valuesAreEquivalent(value, highest) { value = highest }
            if remaining > 0 { record(microseconds: value, count: remaining) }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        let total = count
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("us", forKey: .unit)
        try container.encode(3, forKey: .significantDigits)
        if total > 0 {
            try container.encode(min, forKey: .min)
            try container.encode(max, forKey: .max)
        }
        try container.encode(buckets.map { [$0.value, $0.count] }, forKey: .counts)
        try container.encode(total, forKey: .count)
        try container.encode("ms", forKey: .percentileUnit)
        try container.encode(percentiles, forKey: .percentiles)
    }
}
