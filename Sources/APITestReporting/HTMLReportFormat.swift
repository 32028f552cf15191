import APITestResults
import APITestSupport
import Foundation

/// One self-contained HTML page (inline style sheet and script, no external assets): a summary with filter
/// buttons by status, the tests that did not pass first, and per test its failures and each step's request and
/// response with headers, bodies (truncated) and a timing bar (DNS, connect, TLS, waiting for the first byte,
/// download).
///
/// Every text from a result is HTML-escaped, and control characters are shown as `\u{1B}`-style escapes.
package struct HTMLReportFormat: ReportFormat {
    /// The most characters of a body shown per request or response.
    package var bodyLimit: Int

    package init(bodyLimit: Int = 4_096) {
        self.bodyLimit = bodyLimit
    }

    package var displayName: String { "HTML" }

    /// One row of the page: a finished test, or a planned test that never started.
    private enum Entry {
        case result(TestResult)
        case notRun(suite: String, name: String)

        var status: String {
            switch self {
            case .result(let result): return result.isFlaky ? "flaky" : result.status.rawValue
            case .notRun: return "notRun"
            }
        }

        /// Failed, errored, cancelled and flaky tests come first.
        var rank: Int { ["failed", "errored", "cancelled", "flaky"].contains(status) ? 0 : 1 }
    }

    package func render(_ record: RunRecord) -> String {
        var entries: [Entry] = []
        for suite in record.suites {
            for entry in suite.entries {
                switch entry {
                case .result(let result): entries.append(.result(result))
                case .notRun(let name): entries.append(.notRun(suite: suite.name, name: name))
                }
            }
        }
        let ordered = entries.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element)
        let summary = record.summary
        let notPassed = summary.failed + summary.errored + summary.cancelled
        var title =
            notPassed == 0
            ? "apitest: \(entries.count) tests passed" : "apitest: \(notPassed) of \(entries.count) tests did not pass"
        if summary.flaky > 0 { title += ", \(summary.flaky) flaky" }

        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="apitest">
            <title>\(h(title))</title>
            <style>
            \(HTMLReportAssets.style)</style>
            </head>
            <body data-filter="all">

            """
        html += header(record, entries: entries)
        html += "<main>\n"
        if let coverage = summary.coverage { html += coverageSection(coverage) }
        if let coverage = summary.grpcCoverage { html += grpcCoverageSection(coverage) }
        if ordered.isEmpty { html += "<p class=\"empty\">No tests.</p>\n" }
        for (index, entry) in ordered.enumerated() {
            html += render(entry, id: index + 1)
        }
        html += "</main>\n<script>\n\(HTMLReportAssets.script)\n</script>\n</body>\n</html>\n"
        return html
    }

    // MARK: - Summary

    private func header(_ record: RunRecord, entries: [Entry]) -> String {
        let summary = record.summary
        var html = "<header>\n<h1>apitest report</h1>\n<p class=\"meta\">"
        html += "\(entries.count) tests in \(record.suites.count) suite\(record.suites.count == 1 ? "" : "s") · "
        html += "\(h(DurationFormatter.format(summary.duration))) · started \(h(ReportText.iso8601(record.startedAt)))"
        html += " on \(h(record.hostname))"
        if summary.interrupted {
            html += " · <span class=\"interrupted\">interrupted (Ctrl-C): \(record.notRunCount) not run</span>"
        }
        html += "</p>\n<div class=\"filters\" role=\"group\" aria-label=\"Show tests by status\">\n"
        html +=
            "<button type=\"button\" data-filter=\"all\" aria-pressed=\"true\">All <b>\(entries.count)</b></button>\n"
        for (key, label) in HTMLReportAssets.statuses {
            let count = entries.count { $0.status == key }
            html +=
                "<button type=\"button\" data-filter=\"\(key)\" aria-pressed=\"false\">"
                + "\(label) <b>\(count)</b></button>\n"
        }
        return html + "</div>\n</header>\n"
    }

    // MARK: - Tests

    private func render(_ entry: Entry, id: Int) -> String {
        switch entry {
        case .notRun(let suite, let name):
            return "<section class=\"test\" id=\"test-\(id)\" data-status=\"notRun\">\n<details>\n<summary>"
                + "<span class=\"badge\">not run</span><span class=\"suite\">\(h(suite))</span> › "
                + "<span class=\"name\">\(h(name))</span></summary>\n<div class=\"body\"><p class=\"empty\">"
                + "Not run: the run was interrupted before this test started.</p></div>\n</details>\n</section>\n"
        case .result(let result):
            return render(result, id: id)
        }
    }

    private func render(_ result: TestResult, id: Int) -> String {
        let open = result.status == .failed || result.status == .errored || result.status == .cancelled
        let status = result.isFlaky ? "flaky" : result.status.rawValue
        var html = "<section class=\"test\" id=\"test-\(id)\" data-status=\"\(status)\">\n"
        html += "<details\(open || result.isFlaky ? " open" : "")>\n<summary><span class=\"badge\">\(status)</span>"
        html += "<span class=\"suite\">\(h(result.suiteName))</span> › <span class=\"name\">\(h(result.name))</span>"
        html += "<span class=\"time\">\(h(DurationFormatter.format(result.duration)))</span>"
        html += "<span class=\"loc\">\(h(result.location.description))</span></summary>\n<div class=\"body\">\n"
        if let reason = result.reason, result.status == .skipped || result.status == .cancelled {
            html += "<p>\(result.status == .skipped ? "Skipped" : "Cancelled"): \(h(reason))</p>\n"
        }
        html += earlierAttempts(result)
        html += problems(result.steps)
        if result.steps.isEmpty { html += "<p class=\"empty\">No steps ran.</p>\n" }
        for step in result.steps { html += render(step, open: open) }
        return html + "</div>\n</details>\n</section>\n"
    }

    /// Each earlier run of a test run again (`--retries`): its status, failures and steps, folded.
    private func earlierAttempts(_ result: TestResult) -> String {
        guard !result.earlierAttempts.isEmpty else { return "" }
        let count = result.attemptCount
        var html =
            result.isFlaky
            ? "<p class=\"flaky\">Flaky: failed, then passed on run \(count) of \(count).</p>\n"
            : "<p>Run \(count) times; every run failed. The last run is shown below.</p>\n"
        for (index, attempt) in result.earlierAttempts.enumerated() {
            html += "<details class=\"attempt\"><summary>Run \(index + 1) of \(count): \(h(attempt.status.rawValue))"
            html += " <span class=\"time\">\(h(DurationFormatter.format(attempt.duration)))</span></summary>\n"
            html += problems(attempt.steps)
            for step in attempt.steps { html += render(step, open: false) }
            html += "</details>\n"
        }
        return html + "<p>Run \(count) of \(count): \(h(result.status.rawValue))</p>\n"
    }

    /// The failures and errors of `steps`, each failed step's curl command after them.
    private func problems(_ steps: [StepResult]) -> String {
        var html = ""
        for step in steps {
            for failure in step.failures { html += problem(failure) }
            if let error = step.error {
                html += "<div class=\"problem\"><code>\(h((error.location ?? step.location).description))</code>: "
                html += "\(h(error.message)) <span class=\"loc\">[\(h(error.kind.rawValue))]</span></div>\n"
            }
            if !step.failures.isEmpty || step.error != nil, let command = step.reproduce {
                html += reproduce(command)
            }
        }
        return html
    }

    /// A failed step's request as a curl command to copy, with its notes.
    private func reproduce(_ command: ReproduceCommand) -> String {
        var html = "<div class=\"reproduce\"><span class=\"label\">reproduce</span><pre><code>"
        html += h(command.line) + "</code></pre>"
        for note in command.notes { html += "<p class=\"note\">note: \(h(note))</p>" }
        return html + "</div>\n"
    }

    private func problem(_ failure: AssertionFailure) -> String {
        var html = "<div class=\"problem\"><code>\(h(failure.location.description))</code>: \(h(failure.message))"
        if failure.expected != nil || failure.actual != nil {
            html += "<dl>"
            if let expected = failure.expected { html += "<dt>expected</dt><dd><code>\(h(expected))</code></dd>" }
            if let actual = failure.actual { html += "<dt>actual</dt><dd><code>\(h(actual))</code></dd>" }
            html += "</dl>"
        }
        return html + "</div>\n"
    }

    // MARK: - Steps

    private func render(_ step: StepResult, open: Bool) -> String {
        var html = "<div class=\"step\">\n<h3>\(h(ReportText.terminalLine(step.displayName))) · "
        if let skipped = step.skipped {
            return html
                + "skipped: \(h(skipped)) <span class=\"loc\">\(h(step.location.description))</span></h3>\n</div>\n"
        }
        guard let exchange = step.exchange else {
            return html
                + "no request was sent <span class=\"loc\">\(h(step.location.description))</span></h3>\n</div>\n"
        }
        html += "<code>\(h(exchange.requestLine))</code>"
        if let status = exchange.statusCode {
            html += " → \(status)"
            if let version = exchange.httpVersion { html += " <span class=\"loc\">\(h(version))</span>" }
        } else {
            html += " (no response)"
        }
        html += " <span class=\"loc\">\(h(step.location.description))</span></h3>\n"
        if let timings = exchange.timings { html += timingBar(timings) }
        if step.attempts > 1 { html += "<p>attempts: \(step.attempts)</p>\n" }
        if !step.captured.isEmpty { html += "<p>captured: \(h(step.captured.joined(separator: ", ")))</p>\n" }
        let failing = !step.failures.isEmpty || step.error != nil
        html += "<details\(open && failing ? " open" : "")><summary>Request</summary>\n"
        html += headerTable(exchange.requestHeaders)
        html += bodyBlock(exchange.requestBody, size: Int(exchange.requestBodySize))
        html += "</details>\n"
        if exchange.statusCode != nil {
            html += "<details\(open && failing ? " open" : "")><summary>Response</summary>\n"
            if let effective = exchange.effectiveURL, effective != exchange.url {
                html += "<p>effective URL: <code>\(h(effective))</code></p>\n"
            }
            html += headerTable(exchange.responseHeaders)
            html += bodyBlock(exchange.responseBody, size: exchange.responseBodySize)
            html += "</details>\n"
        }
        return html + "</div>\n"
    }

    private func headerTable(_ headers: [Exchange.Header]) -> String {
        guard !headers.isEmpty else { return "<p class=\"empty\">no headers</p>\n" }
        var html = "<table>\n"
        for header in headers { html += "<tr><td>\(h(header.name))</td><td>\(h(header.value))</td></tr>\n" }
        return html + "</table>\n"
    }

    private func bodyBlock(_ body: String?, size: Int) -> String {
        guard let body, !body.isEmpty else { return "<p class=\"empty\">no body</p>\n" }
        return "<pre>\(h(ReportText.truncated(body, limit: bodyLimit)))</pre>\n"
            + "<p class=\"loc\">\(size) bytes</p>\n"
    }

    // MARK: - Timing bar

    /// A bar whose segments are the phases of the transfer, from libcurl's cumulative times.
    private func timingBar(_ timings: Exchange.Timings) -> String {
        let phases = TimingPhases(timings)
        let total = max(phases.total, 1e-9)
        var bar = "<div class=\"bar\" title=\"\(h(ReportText.timingsLine(timings)))\">"
        var legend = "<div class=\"legend\">"
        for (key, label, value) in phases.segments {
            let percent = String(format: "%.2f", value / total * 100)
            bar += "<span class=\"\(key)\" style=\"width:\(percent)%\"></span>"
            legend += "<i class=\"\(key)\"></i>\(label) "
            legend += h(DurationFormatter.format(.seconds(value)))
        }
        legend += " · total \(h(DurationFormatter.format(timings.total)))</div>\n"
        return bar + "</div>\n" + legend
    }

    private func h(_ text: String) -> String { ReportText.html(text) }
}

/// The phases of a transfer as lengths (seconds), from libcurl's times, which all count from the start and are
/// zero for a phase that did not happen (no DNS on a reused connection, no TLS over plain HTTP).
struct TimingPhases {
    var dns: Double
    var connect: Double
    var tls: Double
    var wait: Double
    var download: Double

    init(_ timings: Exchange.Timings) {
        let lookup = max(0, ReportText.seconds(timings.nameLookup))
        let connected = max(lookup, ReportText.seconds(timings.connect))
        let handshake =
            timings.tlsHandshake > .zero ? max(connected, ReportText.seconds(timings.tlsHandshake)) : connected
        let firstByte = max(handshake, ReportText.seconds(timings.firstByte))
        let total = max(firstByte, ReportText.seconds(timings.total))
        dns = lookup
        connect = connected - lookup
        tls = handshake - connected
        wait = firstByte - handshake
        download = total - firstByte
    }

    var total: Double { dns + connect + tls + wait + download }

    /// CSS class, label and length of each phase.
    var segments: [(String, String, Double)] {
        [
            ("dns", "DNS", dns), ("connect", "connect", connect), ("tls", "TLS", tls), ("wait", "first byte", wait),
            ("download", "download", download),
        ]
    }
}
