import APITestResults
import APITestSupport
import Foundation

// MARK: - Baseline comparison

extension LoadHTMLReport {
    /// The comparison with the baseline run: the relative thresholds' verdicts, then a table per scope (overall,
    /// then each test) with each figure in the baseline, in this run, and the change.
    static func baselineSection(_ comparison: LoadBaselineComparison) -> String {
        var html =
            "<h2>Compared with the baseline</h2>\n<p class=\"meta\">\(ReportText.html(comparison.baselineFile)), "
            + "started \(ReportText.iso8601(comparison.baselineStartedAt)). A relative threshold fails only when its "
            + "change passes the bound and is significant (p &lt; \(LoadBaselineComparison.significanceLevel)).</p>\n"
        if !comparison.verdicts.isEmpty {
            html += "<ul class=\"verdicts\">\n"
            for verdict in comparison.verdicts {
                html +=
                    "<li data-holds=\"\(verdict.holds)\" class=\"\(verdict.holds ? "good" : "bad")\">"
                    + "\(ReportText.html(LoadReportText.verdictLine(verdict)))</li>\n"
            }
            html += "</ul>\n"
        }
        html += "<table class=\"baseline\"><tr><th>scope</th><th></th><th>baseline</th><th>this run</th>"
        html += "<th>change</th></tr>\n"
        for scope in [comparison.overall] + comparison.tests {
            let rows = LoadReportText.rows(scope)
            for (index, row) in rows.enumerated() {
                let name =
                    index == 0
                    ? "<th rowspan=\"\(rows.count)\">\(ReportText.html(scope.name))<br><small>Mann-Whitney U p = "
                        + "\(LoadReportText.pValue(scope.latencyTest.pValue))</small></th>" : ""
                html +=
                    "<tr>\(name)<td>\(row.0)</td><td>\(ReportText.html(row.1))</td><td>\(ReportText.html(row.2))</td>"
                    + "<td>\(ReportText.html(row.3))</td></tr>\n"
            }
        }
        return html + "</table>\n"
    }
}
