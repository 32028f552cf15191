import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// The OpenAPI coverage model (counting, merging) and how the coverage file, the console and the HTML report show it.
@Suite("OpenAPI coverage")
struct OpenAPICoverageTests {
    /// Two operations of `api.yaml`: `listPets` (200 hit twice, default not hit) and `deletePet` (nothing hit).
    static var shardOne: OpenAPICoverage {
        OpenAPICoverage(documents: [
            .init(
                file: "api.yaml", openapi: "3.1.0",
                operations: [
                    .init(
                        operationId: "listPets", method: "GET", path: "/pets", calls: 2,
                        responses: [.init(status: "200", hits: 2), .init(status: "default")]),
                    .init(
                        operationId: nil, method: "DELETE", path: "/pets/{id}",
                        responses: [.init(status: "204"), .init(status: "4XX")]),
                ],
                unmatched: [.init(method: "GET", path: "/pets/1/toys", hits: 1)])
        ])
    }

    /// The same document seen by another shard: `deletePet` answered 404 once, the unmatched path twice more, and a
    /// second document only this shard used.
    static var shardTwo: OpenAPICoverage {
        OpenAPICoverage(documents: [
            .init(
                file: "api.yaml", openapi: "3.1.0",
                operations: [
                    .init(
                        operationId: "listPets", method: "GET", path: "/pets",
                        responses: [.init(status: "200"), .init(status: "default")]),
                    .init(
                        operationId: nil, method: "DELETE", path: "/pets/{id}", calls: 1,
                        responses: [.init(status: "204"), .init(status: "4XX", hits: 1)]),
                ],
                unmatched: [.init(method: "GET", path: "/pets/1/toys", hits: 2)]),
            .init(
                file: "admin.yaml", openapi: "3.0.3",
                operations: [
                    .init(
                        operationId: "health", method: "GET", path: "/health", calls: 1,
                        responses: [
                            .init(status: "200", hits: 1)
                        ])
                ]),
        ])
    }

    @Test("totals count operations and responses declared and hit")
    func totals() {
        let totals = Self.shardOne.totals
        #expect(totals.operations == 2)
        #expect(totals.operationsHit == 1)
        #expect(totals.responses == 4)
        #expect(totals.responsesHit == 1)
    }

    @Test("merging adds counts by document, operation, status and unmatched path, in either order")
    func mergeAddsUp() throws {
        var merged = Self.shardOne
        merged.merge(Self.shardTwo)
        var reversed = Self.shardTwo
        reversed.merge(Self.shardOne)
        for coverage in [merged, reversed] {
            let api = try #require(coverage.documents.first { $0.file == "api.yaml" })
            let list = try #require(api.operations.first { $0.path == "/pets" })
            #expect(list.calls == 2)
            #expect(list.responses.map(\.hits) == [2, 0])
            let delete = try #require(api.operations.first { $0.path == "/pets/{id}" })
            #expect(delete.calls == 1)
            #expect(delete.responses.map(\.hits) == [0, 1])
            #expect(api.unmatched == [.init(method: "GET", path: "/pets/1/toys", hits: 3)])
            #expect(coverage.documents.contains { $0.file == "admin.yaml" })
            #expect(coverage.totals == merged.totals)
        }
        #expect(merged.totals.operationsHit == 3)
        #expect(merged.totals.responsesHit == 3)
    }

    @Test("the coverage file reads back as the coverage it was written from")
    func fileRoundTrip() throws {
        let text = OpenAPICoverageReportFormat.render(Self.shardOne)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["tool"] as? String == "apitest")
        let totals = try #require(object["totals"] as? [String: Int])
        #expect(totals == ["operations": 2, "operationsHit": 1, "responses": 4, "responsesHit": 1])
        #expect(OpenAPICoverageReportFormat.parse(Data(text.utf8)) == Self.shardOne)
        #expect(OpenAPICoverageReportFormat.parse(Data("{\"version\": 1}".utf8)) == nil)
    }

    @Test("the console prints a line per document and, unless quiet, one per operation called, the others on one line")
    func consoleSummary() {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        var summary = RunSummary(passed: 1, duration: .milliseconds(5))
        summary.coverage = Self.shardOne
        console.handle(.runFinished(summary))
        let text = output.text
        #expect(text.contains("OpenAPI api.yaml: 1/2 operations, 1/4 responses"), "\(text)")
        #expect(text.contains("  ✔ listPets  200 ✔  default ✘"), "\(text)")
        #expect(text.contains("  ✘ 1 operation not called: DELETE /pets/{id}"), "\(text)")
        #expect(text.contains("  ? GET /pets/1/toys matches no operation (1×)"), "\(text)")

        let quietOutput = BufferedOutput()
        let quiet = ConsoleReporter(output: quietOutput, progress: nil, colored: false, verbosity: .quiet)
        quiet.handle(.runFinished(summary))
        #expect(quietOutput.text.contains("OpenAPI api.yaml: 1/2 operations, 1/4 responses"))
        #expect(!quietOutput.text.contains("listPets"))
    }

    @Test("the console names ten operations not called and counts the rest")
    func consoleUncalled() {
        var coverage = Self.shardOne
        coverage.documents[0].operations = (1...12).map {
            .init(operationId: "op\($0)", method: "GET", path: "/p\($0)", responses: [.init(status: "200")])
        }
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        var summary = RunSummary()
        summary.coverage = coverage
        console.handle(.runFinished(summary))
        #expect(output.text.contains("0/12 operations, 0/12 responses"), "\(output.text)")
        #expect(
            output.text.contains(
                "  ✘ 12 operations not called: op1, op2, op3, op4, op5, op6, op7, op8, op9, op10, …\n"),
            "\(output.text)")
        #expect(!output.text.contains("op11"))
    }

    @Test("the console escapes what a document names before it reaches the terminal")
    func consoleEscapes() {
        var coverage = Self.shardOne
        coverage.documents[0].operations[0].operationId = "evil\u{1B}]0;title\u{07}"
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        var summary = RunSummary()
        summary.coverage = coverage
        console.handle(.runFinished(summary))
        #expect(!output.text.contains("\u{1B}"))
        #expect(!output.text.contains("\u{07}"))
    }

    @Test("the HTML report has a coverage table with every operation and response, escaped")
    func htmlTable() {
        var coverage = Self.shardOne
        coverage.documents[0].operations[0].operationId = "<b>listPets</b>"
        var summary = RunSummary(passed: 1)
        summary.coverage = coverage
        let record = RunRecord(
            plan: ReportFixtures.plan, results: [ReportFixtures.passed], summary: summary,
            startedAt: ReportFixtures.startedAt, hostname: "ci")
        let html = HTMLReportFormat().render(record)
        #expect(html.contains("<h2>OpenAPI coverage: api.yaml</h2>"))
        #expect(html.contains("1/2 operations, 1/4 responses"))
        #expect(html.contains("&lt;b&gt;listPets&lt;/b&gt;"))
        #expect(!html.contains("<b>listPets</b>"))
        #expect(html.contains("<code>/pets/{id}</code>"))
        #expect(html.contains("<span class=\"miss\" title=\"0 hits\">4XX ✘</span>"))
        #expect(html.contains("<code>GET /pets/1/toys</code> (1×)"))
        let without = HTMLReportFormat().render(
            RunRecord(
                plan: ReportFixtures.plan, results: [ReportFixtures.passed], summary: RunSummary(passed: 1),
                startedAt: ReportFixtures.startedAt, hostname: "ci"))
        #expect(!without.contains("class=\"coverage\""))
    }
}
