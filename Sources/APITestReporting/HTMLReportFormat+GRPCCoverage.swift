import APITestResults

/// The HTML report's gRPC coverage table: the totals, then per schema source a row per declared method with its
/// streaming shape, its calls and the status codes they ended with.
extension HTMLReportFormat {
    // MARK: - gRPC coverage

    /// The `<section class="coverage grpc-coverage">` for `coverage`.
    func grpcCoverageSection(_ coverage: GRPCCoverage) -> String {
        let totals = coverage.totals
        var html = "<section class=\"coverage grpc-coverage\">\n"
        html += "<h2>gRPC coverage</h2>\n<p class=\"meta\">\(totals.methodsCalled) of \(totals.methods) "
        html += "method\(totals.methods == 1 ? "" : "s") called (\(totals.percent)%)</p>\n"
        for source in coverage.sources {
            let sourceTotals = GRPCCoverage.totals(of: source)
            let kind = source.kind == .proto ? ".proto files" : "reflection"
            html += "<h3>\(ReportText.html(source.name)) <span class=\"meta\">(\(kind))</span></h3>\n"
            html += "<p class=\"meta\">\(sourceTotals.methodsCalled) of \(sourceTotals.methods) methods called</p>\n"
            html += "<table>\n<thead><tr><th>Method</th><th>Streaming</th><th>Calls</th><th>Statuses</th></tr>"
            html += "</thead>\n<tbody>\n"
            for method in source.methods {
                let status = method.isCovered ? "passed" : "failed"
                html += "<tr data-status=\"\(status)\"><td><code>\(ReportText.html(method.name))</code></td>"
                html += "<td>\(method.streaming.rawValue)</td><td>\(method.calls)</td><td>"
                html += ReportText.html(ConsoleReporter.statusText(method))
                html += "</td></tr>\n"
            }
            html += "</tbody>\n</table>\n"
        }
        return html + "</section>\n"
    }
}
