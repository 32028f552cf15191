package import APITestResults
import APITestSupport
import Foundation

/// The HTML report of a load run: one self-contained page (inline style and SVG, no script, nothing fetched) with the
/// run's figures, the thresholds, a chart of each second's completions and latencies, the percentile distribution
/// on a "nines" scale, and a row per test. Every text from the suites or the server is escaped.
package enum LoadHTMLReport {
    /// The page for `result`, with its comparison with a baseline run (`--baseline`) when there is one.
    package static func render(
        _ result: LoadResult, hostname: String, baseline: LoadBaselineComparison? = nil
    ) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>apitest load</title>
            <style>\(style)</style></head><body>
            <header><h1>apitest load</h1>
            <p class="meta">\(ReportText.html(LoadReportText.modelLine(result.model))) · started \(ReportText.iso8601(result.startedAt)) on \
            \(ReportText.html(hostname)) · \(ReportText.significant(result.seconds)) s</p>
            """
        if result.interrupted { html += "<p class=\"bad\">Interrupted (Ctrl-C): the figures are of what ran.</p>" }
        if let aborted = result.abortedBy {
            html += "<p class=\"bad\">Stopped early: threshold \(ReportText.html(aborted)) failed.</p>"
        }
        html += "</header><main>\n"
        html += summaryTable(result)
        html += thresholdsTable(result)
        if let baseline { html += baselineSection(baseline) }
        html += "<h2>Each second</h2>\n" + timelineChart(result.timeline)
        html += "<h2>Percentile distribution</h2>\n" + distributionChart(result.latency)
        html += testsTable(result)
        html += "</main></body></html>\n"
        return html
    }

    // MARK: - Tables

    private static func summaryTable(_ result: LoadResult) -> String {
        let counts = result.counts
        var rows: [(String, String)] = [
            ("iterations", "\(counts.started) started, \(counts.completed) completed"),
            ("passed / failed / errored", "\(counts.passed) / \(counts.failed) / \(counts.errored)"),
            ("achieved rate", LoadReportText.rate(result.achievedRate)),
        ]
        if result.model.kind == .open {
            rows.append(("started late (> \(ReportText.significant(result.lateAfterMs)) ms)", "\(counts.late)"))
        }
        for (label, percentile) in LoadReportText.percentiles {
            rows.append((label, LoadReportText.latency(Double(result.latency.percentile(percentile)))))
        }
        rows.append(("max", LoadReportText.latency(Double(result.latency.max))))
        var html = "<table class=\"figures\">\n"
        for (label, value) in rows {
            html += "<tr><th>\(ReportText.html(label))</th><td>\(ReportText.html(value))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func thresholdsTable(_ result: LoadResult) -> String {
        guard !result.thresholds.isEmpty else { return "" }
        var html = "<h2>Thresholds</h2>\n<table class=\"thresholds\"><tr><th></th><th>rule</th><th>measured</th></tr>\n"
        for outcome in result.thresholds {
            let mark = outcome.holds ? "<span class=\"good\">✔</span>" : "<span class=\"bad\">✘</span>"
            html +=
                "<tr data-holds=\"\(outcome.holds)\"><td>\(mark)</td><td><code>\(ReportText.html(outcome.threshold.text))"
                + "</code></td><td>\(ReportText.html(LoadReportText.value(outcome)))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func testsTable(_ result: LoadResult) -> String {
        var html = "<h2>Tests</h2>\n<table class=\"tests\"><tr><th>test</th><th>weight</th><th>completed</th>"
        html += "<th>failed</th><th>errored</th><th>p50</th><th>p95</th><th>p99</th><th>max</th></tr>\n"
        for test in result.tests {
            let latency = test.latency
            let cells = [
                "\(test.weight)", "\(test.counts.completed)", "\(test.counts.failed)", "\(test.counts.errored)",
                LoadReportText.latency(Double(latency.percentile(50))),
                LoadReportText.latency(Double(latency.percentile(95))),
                LoadReportText.latency(Double(latency.percentile(99))), LoadReportText.latency(Double(latency.max)),
            ]
            html += "<tr><td>\(ReportText.html(test.displayName))</td>"
            html += cells.map { "<td>\(ReportText.html($0))</td>" }.joined() + "</tr>\n"
            var notes: [String] = []
            for step in test.steps {
                guard let first = step.firstEvent else { continue }
                notes.append(
                    "time to first event, step \(step.index) (\(step.location)): "
                        + LoadReportText.distribution(first))
            }
            for (kind, count) in test.errors.sorted(by: { $0.key < $1.key }) { notes.append("error \(kind): \(count)") }
            for failure in test.failures {
                notes.append("\(failure.location): \(failure.message) (\(failure.count)×)")
            }
            if !notes.isEmpty {
                html += "<tr class=\"notes\"><td colspan=\"9\">"
                html += notes.map { ReportText.html($0) }.joined(separator: "<br>") + "</td></tr>\n"
            }
        }
        return html + "</table>\n"
    }

    // MARK: - Charts

    private static let width = 760.0
    private static let height = 240.0
    private static let left = 64.0
    private static let bottom = 28.0

    /// Completions per second (bars) and the second's p50, p99 and max (lines, right axis in ms).
    static func timelineChart(_ timeline: [LoadResult.Second]) -> String {
        guard !timeline.isEmpty else { return "<p class=\"meta\">No second completed.</p>\n" }
        let plotWidth = width - left - 64
        let plotHeight = height - bottom - 12
        let topRate = Double(timeline.map(\.completed).max() ?? 1).nonZero
        let topLatency = Double(timeline.map(\.max).max() ?? 1).nonZero
        let step = plotWidth / Double(timeline.count)
        var svg = svgOpen(label: "completions and latency per second")
        for (index, second) in timeline.enumerated() {
            let barHeight = plotHeight * Double(second.completed) / topRate
            svg +=
                "<rect class=\"bar\" x=\"\(format(left + Double(index) * step))\" y=\"\(format(12 + plotHeight - barHeight))\" "
                + "width=\"\(format(max(step - 1, 0.5)))\" height=\"\(format(barHeight))\"/>\n"
        }
        for (name, value) in [
            ("p50", { (second: LoadResult.Second) in second.p50 }), ("p99", { $0.p99 }), ("max", { $0.max }),
        ] {
            let points = timeline.enumerated().map { index, second in
                "\(format(left + (Double(index) + 0.5) * step)),"
                    + "\(format(12 + plotHeight - plotHeight * Double(value(second)) / topLatency))"
            }
            svg += "<polyline class=\"\(name)\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        svg += axisLabel(x: 4, y: 20, "\(Int(topRate))/s")
        svg += axisLabel(x: width - 60, y: 20, LoadReportText.latency(topLatency))
        svg += axisLabel(x: left, y: height - 8, "0 s")
        svg += axisLabel(x: width - 110, y: height - 8, "\(timeline.last?.second ?? 0) s")
        svg += legend([("bar", "completed per second"), ("p50", "p50"), ("p99", "p99"), ("max", "max")])
        return svg + "</svg>\n"
    }

    /// The percentiles of `histogram` from 0 to 99.999 on a "nines" scale (each tick one more nine).
    static func distributionChart(_ histogram: LatencyHistogram) -> String {
        guard histogram.count > 0 else { return "<p class=\"meta\">No completed iteration.</p>\n" }
        let percentiles = [
            0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96, 97, 98, 99, 99.5, 99.9, 99.95, 99.99, 99.999,
        ]
        let plotWidth = width - left - 24
        let plotHeight = height - bottom - 12
        let nines = { (percentile: Double) in -log10(max(1 - percentile / 100, 1e-5)) }
        let topNines = nines(99.999)
        let top = Double(histogram.max).nonZero
        var svg = svgOpen(label: "latency by percentile")
        let points = percentiles.map { percentile in
            "\(format(left + plotWidth * nines(percentile) / topNines)),"
                + "\(format(12 + plotHeight - plotHeight * Double(histogram.percentile(percentile)) / top))"
        }
        svg += "<polyline class=\"p99\" points=\"\(points.joined(separator: " "))\"/>\n"
        for (label, percentile) in [("0%", 0.0), ("90%", 90), ("99%", 99), ("99.9%", 99.9), ("99.99%", 99.99)] {
            svg += axisLabel(x: left + plotWidth * nines(percentile) / topNines - 8, y: height - 8, label)
        }
        svg += axisLabel(x: 4, y: 20, LoadReportText.latency(top))
        return svg + "</svg>\n"
    }

    private static func svgOpen(label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"\(label)\"><line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(Int(height - bottom))\" "
            + "x2=\"\(Int(width - 16))\" y2=\"\(Int(height - bottom))\"/>\n"
    }

    private static func axisLabel(x: Double, y: Double, _ text: String) -> String {
        "<text x=\"\(format(x))\" y=\"\(format(y))\">\(ReportText.html(text))</text>\n"
    }

    private static func legend(_ entries: [(String, String)]) -> String {
        var svg = ""
        for (index, entry) in entries.enumerated() {
            let x = left + 8 + Double(index) * 150
            svg += "<rect class=\"\(entry.0) key\" x=\"\(format(x))\" y=\"2\" width=\"10\" height=\"10\"/>"
            svg += axisLabel(x: x + 14, y: 11, entry.1)
        }
        return svg
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1f2328}
        header{padding:16px 24px;border-bottom:1px solid #d0d7de;background:#f6f8fa}
        h1{font-size:20px;margin:0 0 4px} h2{font-size:16px;margin:24px 0 8px}
        .meta{color:#57606a;margin:0} main{padding:8px 24px 40px}
        table{border-collapse:collapse} th,td{border-bottom:1px solid #d0d7de;padding:4px 10px;text-align:left}
        .good{color:#1a7f37} .bad{color:#cf222e;font-weight:600} .notes td{color:#57606a;font-size:12px}
        svg{max-width:760px;width:100%;border:1px solid #d0d7de;border-radius:6px}
        svg text{font-size:11px;fill:#57606a} .axis{stroke:#8c959f}
        .bar{fill:#d0d7de} polyline{fill:none;stroke-width:1.5}
        .p50{stroke:#1a7f37;fill:#1a7f37} .p99{stroke:#bc4c00;fill:#bc4c00} .max{stroke:#cf222e;fill:#cf222e}
        polyline.p50,polyline.p99,polyline.max{fill:none} .key{stroke:none}
        """
}

extension Double {
    /// The value, or 1 when it is 0 (a scale's top must not be 0).
    fileprivate var nonZero: Double { self > 0 ? self : 1 }
}
