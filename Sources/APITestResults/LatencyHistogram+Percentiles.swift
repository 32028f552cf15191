// MARK: - Percentiles as figures

extension LatencyHistogram {
    /// The figures a load report writes beside a histogram's buckets, in milliseconds (the histogram's microseconds
    /// divided by 1,000, so exact to the microsecond): each percentile is ``LatencyHistogram/percentile(_:)`` (HDR's
    /// value at percentile: the highest value of the bucket that holds that share of the samples, clamped to the
    /// exact lowest and highest samples), `min` and `max` the exact lowest and highest samples, `mean` the
    /// histogram's mean rounded to the microsecond and clamped to [`min`, `max`] (HDR's mean takes each bucket's
    /// samples at the bucket's middle, which can pass the exact extremes: one sample of 2.82 ms had a mean of
    /// 2.821). All are 0 for an empty histogram.
    package struct Percentiles: Sendable, Hashable, Encodable {
        /// The percentiles written, with their keys, lowest first.
        package static let written: [(key: String, percentile: Double)] = [
            ("p50", 50), ("p75", 75), ("p90", 90), ("p95", 95), ("p99", 99), ("p99.9", 99.9),
        ]

        /// The value of each of ``written``, by key, in milliseconds.
        package var values: [String: Double]
        /// The lowest sample, in milliseconds.
        package var min: Double
        /// The highest sample, in milliseconds.
        package var max: Double
        /// The mean, in milliseconds (rounded to the microsecond), never below ``min`` nor above ``max``.
        package var mean: Double

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// `{"p50": …, "p75": …, "p90": …, "p95": …, "p99": …, "p99.9": …, "min": …, "max": …, "mean": …}`.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, _) in Self.written {
                try container.encode(values[key] ?? 0, forKey: Key(stringValue: key))
            }
            try container.encode(min, forKey: Key(stringValue: "min"))
            try container.encode(max, forKey: Key(stringValue: "max"))
            try container.encode(mean, forKey: Key(stringValue: "mean"))
        }
    }

    /// This histogram's ``Percentiles``.
    package var percentiles: Percentiles {
        var values: [String: Double] = [:]
        for (key, share) in Percentiles.written {
            values[key] = Self.milliseconds(percentile(share))
        }
        // `mean` is already within [min, max] (whole microseconds), so rounded to the microsecond it stays there.
        return Percentiles(
            values: values, min: Self.milliseconds(min), max: Self.milliseconds(max), mean: mean.rounded() / 1_000)
    }

    /// `microseconds` in milliseconds.
    package static func milliseconds(_ microseconds: UInt64) -> Double {
        Double(microseconds) / 1_000
    }
}
