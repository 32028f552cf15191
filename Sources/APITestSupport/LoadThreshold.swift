/// A pass/fail rule on a load run's figures, as `--threshold` gives it: `p95<20ms`, `p99.9<=1s`, `max<2s`,
/// `mean<50ms`, `errors<0.1%`, `rate>1900/s`. A run whose thresholds do not all hold exits 1 and names them.
///
/// - `pNN` (also `p(NN)`, `NN` from 0 to 100 with decimals) and `max`, `mean`, `min`: the iterations' latencies
///   (from each iteration's intended start), in `us`, `ms` or `s`.
/// - `errors`: the share of completed iterations that did not pass (a transport or template error, or a failed
///   check), in `%`, or as a fraction without a unit.
/// - `rate`: completed iterations per second over the run, with or without `/s`.
package struct LoadThreshold: Sendable, Hashable, Codable {
    /// What is measured.
    package enum Metric: Sendable, Hashable {
        case percentile(Double)
        case max
        case min
        case mean
        case errors
        case rate
    }

    /// How the measured value compares.
    package enum Comparison: String, Sendable, Hashable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// Why a threshold does not parse.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text as given.
        package var text: String
        /// What is wrong.
        package var reason: String

        package var description: String { "threshold '\(text)': \(reason)" }
    }

    /// The text as given.
    package var text: String
    package var metric: Metric
    package var comparison: Comparison
    /// The bound, in the metric's base unit: microseconds for latencies, a fraction for errors, per second for rate.
    /// For a relative threshold (``relative``), the signed change allowed: in percent of the baseline's value
    /// (``Relative/percent``) or in the metric's base unit (``Relative/amount``).
    package var bound: Double
    /// Set for a threshold relative to a baseline run (`apitest load --baseline`): `p99<+10%`, `p95<+5ms`,
    /// `rate>-5%`, `errors<+1%` (see `LoadThreshold+Relative.swift`).
    package var relative: Relative?

    /// Parses `text`.
    package init(parsing text: String) throws(ParseError) {
        self.text = text
        let compact = text.filter { !$0.isWhitespace }
        guard
            let operatorRange = compact.firstRange(of: "<=") ?? compact.firstRange(of: ">=")
                ?? compact.firstRange(of: "<") ?? compact.firstRange(of: ">")
        else {
            throw ParseError(text: text, reason: "expected METRIC<VALUE or METRIC>VALUE, such as p95<20ms")
        }
        let name = compact[..<operatorRange.lowerBound].lowercased()
        comparison = Comparison(rawValue: String(compact[operatorRange]))!
        let value = String(compact[operatorRange.upperBound...]).lowercased()
        switch name {
        case "max": metric = .max
        case "min": metric = .min
        case "mean", "avg": metric = .mean
        case "errors", "error", "failures": metric = .errors
        case "rate": metric = .rate
        default:
            var digits = Substring(name)
            guard digits.hasPrefix("p") else {
                throw ParseError(
                    text: text, reason: "unknown metric '\(name)'; use pNN, max, min, mean, errors or rate")
            }
            digits = digits.dropFirst()
            if digits.hasPrefix("("), digits.hasSuffix(")") { digits = digits.dropFirst().dropLast() }
            guard let percentile = Double(digits), (0...100).contains(percentile) else {
                throw ParseError(text: text, reason: "a percentile is p0 to p100, such as p95 or p99.9")
            }
            metric = .percentile(percentile)
        }
        if value.hasPrefix("+") || value.hasPrefix("-") {
            (relative, bound) = try Self.relativeBound(value, metric: metric, text: text)
            return
        }
        switch metric {
        case .percentile, .max, .min, .mean:
            guard let microseconds = Self.microseconds(value) else {
                throw ParseError(text: text, reason: "a latency needs a unit: us, ms or s (such as 20ms)")
            }
            bound = microseconds
        case .errors:
            if value.hasSuffix("%"), let percent = Double(value.dropLast()), percent >= 0 {
                bound = percent / 100
            } else if let fraction = Double(value), (0...1).contains(fraction) {
                bound = fraction
            } else {
                throw ParseError(text: text, reason: "errors are a share: a percentage (0.1%) or a fraction (0.001)")
            }
        case .rate:
            let number = value.hasSuffix("/s") ? String(value.dropLast(2)) : value
            guard let rate = Double(number), rate >= 0 else {
                throw ParseError(text: text, reason: "a rate is iterations per second, such as 1900/s")
            }
            bound = rate
        }
    }

    /// `value` (`20ms`, `1.5s`, `900us`) in microseconds.
    static func microseconds(_ value: String) -> Double? {
        for (unit, scale) in [("us", 1.0), ("µs", 1.0), ("ms", 1_000.0), ("s", 1_000_000.0)] where value.hasSuffix(unit)
        {
            guard let number = Double(value.dropLast(unit.count)), number >= 0, number.isFinite else { return nil }
            return number * scale
        }
        return nil
    }

    /// Whether `value` (in the metric's base unit) holds to the threshold.
    package func holds(for value: Double) -> Bool {
        switch comparison {
        case .less: value < bound
        case .lessOrEqual: value <= bound
        case .greater: value > bound
        case .greaterOrEqual: value >= bound
        }
    }

    // MARK: - Coding

    private enum CodingKeys: String, CodingKey {
        case text, metric, comparison, bound
    }

    /// Written as `{"text": "p95<20ms", "metric": "p95", "comparison": "<", "bound": 20000}`; read back from `text`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(metricName, forKey: .metric)
        try container.encode(comparison.rawValue, forKey: .comparison)
        try container.encode(bound, forKey: .bound)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .text)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .text, in: container, debugDescription: error.description)
        }
    }

    /// The metric's name: `p95`, `p99.9`, `max`, `min`, `mean`, `errors`, `rate`.
    package var metricName: String {
        switch metric {
        case .percentile(let percentile):
            "p" + (percentile == percentile.rounded() ? String(Int(percentile)) : String(percentile))
        case .max: "max"
        case .min: "min"
        case .mean: "mean"
        case .errors: "errors"
        case .rate: "rate"
        }
    }

    /// Whether the metric is a latency (shown in time units).
    package var isLatency: Bool {
        switch metric {
        case .percentile, .max, .min, .mean: true
        case .errors, .rate: false
        }
    }
}
