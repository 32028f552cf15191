// MARK: - Relative thresholds

extension LoadThreshold {
    /// How a relative threshold's bound is given: a signed change from the baseline run's value.
    package enum Relative: Sendable, Hashable {
        /// In percent of the baseline's value: `p99<+10%`, `rate>-5%`.
        case percent
        /// In the metric's base unit: `p95<+5ms` (microseconds), `errors<+1%` (a share: one percentage point),
        /// `rate>-100/s`.
        case amount
    }

    /// The relative bound of `value` (which starts with `+` or `-`) for `metric`: the kind and the signed change.
    /// A latency or a rate changes by a percentage of the baseline (`+10%`) or by an amount in its unit (`+5ms`,
    /// `-100/s`); an error share changes by percentage points (`+1%`) or by a fraction (`+0.01`).
    static func relativeBound(
        _ value: String, metric: Metric, text: String
    ) throws(ParseError) -> (Relative, Double) {
        let sign: Double = value.hasPrefix("-") ? -1 : 1
        let magnitude = String(value.dropFirst())
        switch metric {
        case .percentile, .max, .min, .mean:
            if magnitude.hasSuffix("%"), let percent = Self.finite(magnitude.dropLast()) {
                return (.percent, sign * percent)
            }
            guard let microseconds = Self.microseconds(magnitude) else {
                throw ParseError(
                    text: text,
                    reason: "a relative latency is a signed percentage (+10%) or a signed latency with its unit (+5ms)")
            }
            return (.amount, sign * microseconds)
        case .errors:
            if magnitude.hasSuffix("%"), let percent = Self.finite(magnitude.dropLast()), percent <= 100 {
                return (.amount, sign * percent / 100)
            }
            guard let fraction = Self.finite(Substring(magnitude)), fraction <= 1 else {
                throw ParseError(
                    text: text,
                    reason: "a relative error share is signed percentage points (+1%) or a signed fraction (+0.01)")
            }
            return (.amount, sign * fraction)
        case .rate:
            if magnitude.hasSuffix("%"), let percent = Self.finite(magnitude.dropLast()) {
                return (.percent, sign * percent)
            }
            let number = magnitude.hasSuffix("/s") ? magnitude.dropLast(2) : Substring(magnitude)
            guard let rate = Self.finite(number) else {
                throw ParseError(
                    text: text, reason: "a relative rate is a signed percentage (-5%) or a signed rate (-100/s)")
            }
            return (.amount, sign * rate)
        }
    }

    /// `text` as a finite number of at least 0 (no second sign).
    private static func finite(_ text: Substring) -> Double? {
        guard let first = text.first, first.isNumber || first == "." else { return nil }
        guard let number = Double(text), number.isFinite, number >= 0 else { return nil }
        return number
    }

    /// The change from `baseline` to `current` (both in the metric's base unit) in this threshold's terms: in
    /// percent of `baseline` (an infinite change from 0 to more, none from 0 to 0), or their difference.
    package func change(from baseline: Double, to current: Double) -> Double {
        switch relative {
        case .percent:
            if baseline == 0 { return current == 0 ? 0 : (current > 0 ? .infinity : -.infinity) }
            return (current - baseline) / baseline * 100
        case .amount, nil:
            return current - baseline
        }
    }
}
