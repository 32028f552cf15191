package import APITestResults
import APITestSupport
import Foundation

/// The console summary of a load run, the live line printed each second, and the units they share.
package enum LoadReportText {
    /// `latency` microseconds as people read it: `850 µs`, `12.3 ms`, `1.02 s`.
    package static func latency(_ microseconds: Double) -> String {
        if microseconds < 1_000 { return "\(Int(microseconds.rounded())) µs" }
        if microseconds < 1_000_000 { return ReportText.significant(microseconds / 1_000) + " ms" }
        return ReportText.significant(microseconds / 1_000_000) + " s"
    }

    /// A rate per second: `1999.8/s`.
    package static func rate(_ value: Double) -> String { String(format: "%.1f/s", value) }

    /// A share as a percentage: `0.12 %`.
    package static func percent(_ share: Double) -> String { String(format: "%.2f %%", share * 100) }

    /// The percentiles every summary shows.
    package static let percentiles: [(label: String, value: Double)] = [
        ("p50", 50), ("p90", 90), ("p95", 95), ("p99", 99), ("p99.9", 99.9),
    ]

    /// `p50 1.20 ms  p90 ...  max 1.02 s` for `histogram`.
    static func distribution(_ histogram: LatencyHistogram) -> String {
        guard histogram.count > 0 else { return "no completed iteration" }
        let parts = percentiles.map { "\($0.label) \(latency(Double(histogram.percentile($0.value))))" }
        return (parts + ["max \(latency(Double(histogram.max)))"]).joined(separator: "  ")
    }

    /// A threshold's measured value in its unit.
    package static func value(_ outcome: LoadResult.ThresholdOutcome) -> String {
        // A relative threshold (`p99<+10%`) measures the change from the baseline run.
        if outcome.threshold.relative != nil { return change(outcome.threshold, outcome.value) }
        return switch outcome.threshold.metric {
        case .percentile, .max, .min, .mean: latency(outcome.value)
        case .errors: percent(outcome.value)
        case .rate: rate(outcome.value)
        }
    }

    /// The live line of one second: elapsed of planned, the second's completions and p99, the errors so far.
    package static func liveLine(
        elapsed: Duration, planned: Duration, second: LoadResult.Second, counts: LoadResult.Counts
    ) -> String {
        let elapsedSeconds = Int(ReportText.seconds(elapsed).rounded())
        let plannedSeconds = Int(ReportText.seconds(planned).rounded())
        return "load \(elapsedSeconds)s/\(plannedSeconds)s  rate \(second.completed)/s  "
            + "p99 \(latency(Double(second.p99)))  errors \(counts.notPassed)  late \(counts.late)"
    }

    /// How the load was driven: `open model, 2000.0/s for 60.0 s (shard 1/2)`.
    package static func modelLine(_ model: LoadResult.Model) -> String {
        var how: String
        if model.kind == .open {
            let stages = model.stages ?? []
            if stages.count == 1, let stage = stages.first, model.startRate == stage.target {
                how = "open model, \(rate(stage.target)) for \(ReportText.significant(stage.seconds)) s"
            } else {
                how =
                    "open model, stages "
                    + stages.map { "\(ReportText.significant($0.seconds)) s to \(rate($0.target))" }.joined(
                        separator: ", ")
                    + " from \(rate(model.startRate ?? 0))"
            }
        } else {
            how =
                "closed model, \(model.virtualUsers ?? 0) virtual users for \(ReportText.significant(model.plannedSeconds)) s"
        }
        if let shard = model.shard { how += " (shard \(shard.index)/\(shard.count))" }
        return how
    }

    /// The summary printed when the run ends.
    package static func summary(_ result: LoadResult) -> String {
        var lines: [String] = ["load: \(modelLine(result.model))"]
        let model = result.model
        if result.interrupted { lines.append("interrupted (Ctrl-C) after \(ReportText.significant(result.seconds)) s") }
        if let aborted = result.abortedBy {
            lines.append(
                "stopped after \(ReportText.significant(result.seconds)) s: threshold \(ReportText.terminalLine(aborted)) failed"
            )
        }
        let counts = result.counts
        lines.append(
            "iterations: \(counts.started) started, \(counts.completed) completed (\(counts.passed) passed, "
                + "\(counts.failed) failed, \(counts.errored) errored)"
                + (model.kind == .open
                    ? ", \(counts.late) started late (> \(ReportText.significant(result.lateAfterMs)) ms)" : ""))
        lines.append("rate: \(rate(result.achievedRate)) completed over \(ReportText.significant(result.seconds)) s")
        let from = model.kind == .open ? "from each iteration's intended start" : "per iteration"
        lines.append("latency (\(from)): \(distribution(result.latency))")
        lines.append(
            "bytes: \(ReportText.byteCount(result.bytesSent, digits: .significant)) of request bodies sent, "
                + "\(ReportText.byteCount(result.bytesReceived, digits: .significant)) of response bodies received"
        )
        for hook in result.hooks where hook.status != .passed {
            lines.append(
                "\(ReportText.terminalLine(hook.suiteName)) › \(hook.name): \(hook.status.rawValue)"
                    + (hook.error.map { ": " + ReportText.terminalLine($0.message) } ?? ""))
        }
        if !result.tests.isEmpty { lines.append("tests:") }
        for test in result.tests {
            let c = test.counts
            lines.append(
                "  \(ReportText.terminalLine(test.displayName)) (weight \(test.weight)): \(c.completed) completed, "
                    + "\(c.failed) failed, \(c.errored) errored")
            lines.append("    \(distribution(test.latency))")
            for step in test.steps where test.steps.count > 1 {
                lines.append(
                    "    step \(step.index) (\(ReportText.terminalLine(step.location))): \(distribution(step.latency))")
            }
            for step in test.steps {
                guard let first = step.firstEvent else { continue }
                lines.append(
                    "    time to first event, step \(step.index) (\(ReportText.terminalLine(step.location))): "
                        + distribution(first))
            }
            for (kind, count) in test.errors.sorted(by: { $0.key < $1.key }) {
                lines.append("    error \(kind): \(count)")
            }
            for failure in test.failures {
                lines.append(
                    "    \(ReportText.terminalLine(failure.location)): \(ReportText.terminalLine(failure.message)) "
                        + "(\(failure.count)×)")
            }
        }
        if !result.thresholds.isEmpty { lines.append("thresholds:") }
        for outcome in result.thresholds {
            lines.append(
                "  \(outcome.holds ? "✔" : "✘") \(ReportText.terminalLine(outcome.threshold.text)) (\(value(outcome)))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
