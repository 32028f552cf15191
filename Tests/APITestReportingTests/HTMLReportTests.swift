import APITestReporting
import APITestResults
import Foundation
import Testing

@Suite("HTML report")
struct HTMLReportTests {
    @Test("one self-contained page: inline style and script, no external assets")
    func selfContained() {
        let html = HTMLReportFormat().render(ReportFixtures.interruptedRecord)
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(html.contains("<style>") && html.contains("<script>"))
        for external in ["src=", "href=", "@import", "url(", "http-equiv"] {
            #expect(!html.contains(external), "\(external)")
        }
    }

    @Test("a summary with a filter button per status, with counts")
    func filters() {
        let html = HTMLReportFormat().render(ReportFixtures.interruptedRecord)
        for (status, label, count) in [
            ("all", "All", 6), ("failed", "Failed", 1), ("errored", "Errored", 1), ("cancelled", "Cancelled", 1),
            ("passed", "Passed", 1), ("skipped", "Skipped", 1), ("notRun", "Not run", 1),
        ] {
            #expect(
                html.contains("data-filter=\"\(status)\" aria-pressed=\"\(status == "all")\">\(label) <b>\(count)</b>"))
        }
        #expect(html.contains("body[data-filter=failed] .test:not([data-status=failed]){display:none}"))
        #expect(html.contains("interrupted (Ctrl-C): 1 not run"))
    }

    @Test("failures first, then the rest in file order")
    func order() {
        let html = HTMLReportFormat().render(ReportFixtures.interruptedRecord)
        let statuses = html.components(separatedBy: "<section class=\"test\" id=\"test-").dropFirst().map {
            $0.components(separatedBy: "data-status=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
        }
        #expect(statuses == ["failed", "errored", "cancelled", "passed", "skipped", "notRun"])
    }

    @Test("requests and responses with headers, bodies, a timing bar, and the failures")
    func details() {
        let html = HTMLReportFormat().render(ReportFixtures.interruptedRecord)
        #expect(html.contains("<code>POST http://127.0.0.1:8080/api/users</code> → 400"))
        #expect(html.contains("<tr><td>Authorization</td><td>•••••</td></tr>"))
        #expect(html.contains("<pre>{&quot;error&quot;:&quot;name taken&quot;}</pre>"))
        #expect(html.contains("<span class=\"dns\" style=\"width:0.83%\"></span>"))
        #expect(html.contains("<span class=\"wait\" style=\"width:88.33%\"></span>"))
        #expect(html.contains("first byte 11 ms"))
        #expect(
            html.contains("<code>suites/users.yaml:23:17</code>: expected status 201, got 400<dl><dt>expected</dt>"))
        #expect(html.contains("Not run: the run was interrupted before this test started."))
    }

    @Test("every text is escaped: no markup from results, control characters visible")
    func escaping() {
        let html = HTMLReportFormat().render(ReportFixtures.weirdRecord)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;quoted&quot; &amp; #hash"))
        #expect(html.contains("bell\\u{7} esc\\u{1B}[31m nul\\u{0}"))
        #expect(!html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F })
        #expect(html.contains("host&lt;&amp;&gt;"))
    }

    @Test("long bodies are cut")
    func truncation() {
        var result = ReportFixtures.passed
        result.steps[0].change { $0.exchange?.responseBody = String(repeating: "x", count: 50) }
        let record = RunRecord(
            plan: nil, results: [result], summary: nil, startedAt: ReportFixtures.startedAt, hostname: "h")
        let html = HTMLReportFormat(bodyLimit: 10).render(record)
        #expect(html.contains("<pre>xxxxxxxxxx\n… (cut at 10 characters of 50)</pre>"))
    }
}
