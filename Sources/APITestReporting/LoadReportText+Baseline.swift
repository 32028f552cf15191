package import APITestResults
package import APITestSupport
import Foundation

// MARK: - Baseline comparison

extension LoadReportText {
    /// A p-value: `0.431`, `3.2e-12`.
    package static func pValue(_ value: Double) -> String {
        value >= 0.001 ? String(format: "%.3f", value) : String(format: "%.1e", value)
    }

    /// The change of `current` from `baseline` in percent of `baseline`: `+4.2 %`, `-0.3 %`, `0 %`, and `new`
    /// when the baseline is 0 and this run is not.
    package static func percentChange(from baseline: Double, to current: Double) -> String {
        if baseline == 0 { return current == 0 ? "0 %" : "new" }
        let change = (current - baseline) / baseline * 100
        return String(format: "%+.1f %%", change)
    }

    /// The change of an error share in percentage points: `+0.10 pt`.
    package static func pointChange(from baseline: Double, to current: Double) -> String {
        String(format: "%+.2f pt", (current - baseline) * 100)
    }

    /// A relative threshold's change in its terms: `+12.3 %`, `+5.20 ms`, `+0.50 %` (errors, in points), `-12.0/s`.
    package static func change(_ threshold: LoadThreshold, _ change: Double) -> String {
        if !change.isFinite { return change > 0 ? "+∞ %" : "-∞ %" }
        let sign = change < 0 ? "-" : "+"
        switch (threshold.relative, threshold.metric) {
        case (.percent, _): return String(format: "%+.1f %%", change)
        case (_, .errors): return sign + percent(abs(change))
        case (_, .rate): return sign + rate(abs(change))
        default: return sign + latency(abs(change))
        }
    }

    /// The rows of one scope: each figure in the baseline, in this run, and the change.
    static func rows(_ scope: LoadBaselineComparison.Scope) -> [(String, String, String, String)] {
        let (before, now) = (scope.baseline, scope.current)
        var rows: [(String, String, String, String)] = []
        for (label, a, b) in [
            ("p50", before.p50, now.p50), ("p95", before.p95, now.p95), ("p99", before.p99, now.p99),
            ("max", before.max, now.max), ("mean", before.mean, now.mean),
        ] {
            rows.append((label, latency(a), latency(b), percentChange(from: a, to: b)))
        }
        rows.append(("rate", rate(before.rate), rate(now.rate), percentChange(from: before.rate, to: now.rate)))
        rows.append(
            ("errors", percent(before.errors), percent(now.errors), pointChange(from: before.errors, to: now.errors)))
        return rows
    }

    /// What a relative threshold's verdict says: its figures, the change, the test and why it held or failed.
    package static func verdictLine(_ verdict: LoadBaselineComparison.Verdict) -> String {
        let threshold = verdict.threshold
        let figure: (Double) -> String =
            switch threshold.metric {
            case .percentile, .max, .min, .mean: latency
            case .errors: percent
            case .rate: rate
            }
        let why =
            if !verdict.exceedsBound {
                "within the bound"
            } else if verdict.significant {
                "beyond the bound and significant: a regression"
            } else {
                "beyond the bound but not significant (p ≥ \(LoadBaselineComparison.significanceLevel)): noise"
            }
        return "\(verdict.holds ? "✔" : "✘") \(ReportText.terminalLine(threshold.text)): "
            + "\(figure(verdict.baselineValue)) → \(figure(verdict.currentValue)) "
            + "(\(change(threshold, verdict.change))), \(verdict.testName) p = \(pValue(verdict.test.pValue)): \(why)"
    }

    /// The comparison with the baseline run printed after the summary: a table per scope (overall, then each
    /// test), then the relative thresholds' verdicts.
    package static func comparison(_ comparison: LoadBaselineComparison) -> String {
        var lines = [
            "compared with baseline \(ReportText.terminalLine(comparison.baselineFile)) "
                + "(started \(ReportText.iso8601(comparison.baselineStartedAt))):"
        ]
        let header = ("", "baseline", "this run", "change")
        for scope in [comparison.overall] + comparison.tests {
            lines.append(
                "  \(ReportText.terminalLine(scope.name)): latency Mann-Whitney U p = \(pValue(scope.latencyTest.pValue))"
            )
            for row in [header] + rows(scope) {
                lines.append(
                    "    " + pad(row.0, 8) + pad(row.1, 14) + pad(row.2, 14) + row.3)
            }
        }
        if !comparison.verdicts.isEmpty {
            lines.append(
                "relative thresholds (fail only when the change passes the bound and is significant, "
                    + "p < \(LoadBaselineComparison.significanceLevel)):")
            for verdict in comparison.verdicts { lines.append("  " + verdictLine(verdict)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` padded with spaces to `width` characters.
    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
