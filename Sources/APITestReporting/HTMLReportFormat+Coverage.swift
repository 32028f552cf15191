import APITestResults

/// The HTML report's OpenAPI coverage table: per document, its totals and a row per declared operation with each
/// declared response hit or not, and the requests that matched no operation.
extension HTMLReportFormat {
    // MARK: - Coverage

    /// The `<section class="coverage">` for `coverage`.
    func coverageSection(_ coverage: OpenAPICoverage) -> String {
        var html = "<section class=\"coverage\">\n"
        for document in coverage.documents {
            let totals = OpenAPICoverage.totals(of: document)
            html += "<h2>OpenAPI coverage: \(ReportText.html(document.file))</h2>\n<p class=\"meta\">"
            html += "\(totals.operationsHit)/\(totals.operations) operations, "
            html += "\(totals.responsesHit)/\(totals.responses) responses</p>\n"
            html += "<table>\n<thead><tr><th>Operation</th><th>Method</th><th>Path</th><th>Calls</th>"
            html += "<th>Responses</th></tr></thead>\n<tbody>\n"
            for operation in document.operations {
                let status = operation.isCovered ? "passed" : "failed"
                html += "<tr data-status=\"\(status)\"><td>\(ReportText.html(operation.operationId ?? "-"))</td>"
                html +=
                    "<td>\(ReportText.html(operation.method))</td><td><code>\(ReportText.html(operation.path))</code>"
                html += "</td><td>\(operation.calls)</td><td>"
                html += operation.responses.map { response in
                    let hit = response.hits > 0
                    return
                        "<span class=\"\(hit ? "hit" : "miss")\" title=\"\(response.hits) hit\(response.hits == 1 ? "" : "s")\">"
                        + "\(ReportText.html(response.status)) \(hit ? "✔" : "✘")</span>"
                }.joined(separator: " ")
                html += "</td></tr>\n"
            }
            html += "</tbody>\n</table>\n"
            if !document.unmatched.isEmpty {
                html += "<p>Requests that matched no operation:</p>\n<ul>\n"
                for request in document.unmatched {
                    html += "<li><code>\(ReportText.html("\(request.method) \(request.path)"))</code> "
                    html += "(\(request.hits)×)</li>\n"
                }
                html += "</ul>\n"
            }
        }
        return html + "</section>\n"
    }
}
