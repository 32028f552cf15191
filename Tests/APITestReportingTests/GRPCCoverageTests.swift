import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// The gRPC coverage model (totals, merging) and how the coverage file, the console and the HTML report show it.
@Suite("gRPC coverage")
struct GRPCCoverageTests {
    /// `users.proto`'s three methods: GetUser called three times (two OK, one NOT_FOUND), the others not.
    static var shardOne: GRPCCoverage {
        GRPCCoverage(sources: [
            .init(
                name: "users.proto", kind: .proto,
                methods: [
                    .init(
                        name: "acme.Users/GetUser", streaming: .unary, calls: 3, statuses: ["OK": 2, "NOT_FOUND": 1]),
                    .init(name: "acme.Users/ListUsers", streaming: .server),
                    .init(name: "acme.Users/Chat", streaming: .bidi),
                ])
        ])
    }

    /// The same source seen by another shard (GetUser once more, ListUsers once), and a reflected server only this
    /// shard called.
    static var shardTwo: GRPCCoverage {
        GRPCCoverage(sources: [
            .init(
                name: "127.0.0.1:50051", kind: .reflection,
                methods: [.init(name: "acme.v1.Users/GetUser", streaming: .unary, calls: 1, statuses: ["OK": 1])]),
            .init(
                name: "users.proto", kind: .proto,
                methods: [
                    .init(name: "acme.Users/ListUsers", streaming: .server, calls: 1, statuses: ["UNAVAILABLE": 1]),
                    .init(name: "acme.Users/GetUser", streaming: .unary, calls: 1, statuses: ["OK": 1]),
                    .init(name: "acme.Users/Chat", streaming: .bidi),
                ]),
        ])
    }

    @Test("sources and methods are kept sorted, and totals count methods declared and called")
    func totals() {
        let coverage = Self.shardOne
        #expect(
            coverage.sources[0].methods.map(\.name) == [
                "acme.Users/Chat", "acme.Users/GetUser", "acme.Users/ListUsers",
            ])
        #expect(coverage.totals.methods == 3)
        #expect(coverage.totals.methodsCalled == 1)
        #expect(coverage.totals.calls == 3)
        #expect(coverage.totals.percent == 33)
    }

    @Test("merging sums calls and statuses per source and method, in any order, with the same result")
    func mergeSums() throws {
        var forward = Self.shardOne
        try forward.merge(Self.shardTwo)
        var backward = Self.shardTwo
        try backward.merge(Self.shardOne)
        #expect(forward == backward)
        #expect(forward.sources.map(\.name) == ["users.proto", "127.0.0.1:50051"])
        let methods = Dictionary(uniqueKeysWithValues: forward.sources[0].methods.map { ($0.name, $0) })
        #expect(methods["acme.Users/GetUser"]?.calls == 4)
        #expect(methods["acme.Users/GetUser"]?.statuses == ["OK": 3, "NOT_FOUND": 1])
        #expect(methods["acme.Users/ListUsers"]?.statuses == ["UNAVAILABLE": 1])
        #expect(methods["acme.Users/Chat"]?.isCovered == false)
        #expect(forward.totals.methodsCalled == 3)
        #expect(forward.totals.methods == 4)
    }

    @Test("merging a source declared with other methods or shapes is refused, and changes nothing")
    func mergeRefusesOtherDeclarations() {
        var coverage = Self.shardOne
        let before = coverage
        let otherShape = GRPCCoverage(sources: [
            .init(
                name: "users.proto", kind: .proto,
                methods: [
                    .init(name: "acme.Users/GetUser", streaming: .unary),
                    .init(name: "acme.Users/ListUsers", streaming: .unary),
                    .init(name: "acme.Users/Chat", streaming: .bidi),
                ])
        ])
        #expect(
            throws: GRPCCoverage.MergeConflict(
                kind: .proto, source: "users.proto", method: "acme.Users/ListUsers unary")
        ) {
            try coverage.merge(otherShape)
        }
        #expect(coverage == before)
        let fewer = GRPCCoverage(sources: [
            .init(name: "users.proto", kind: .proto, methods: [.init(name: "acme.Users/GetUser", streaming: .unary)])
        ])
        #expect(throws: GRPCCoverage.MergeConflict.self) { try coverage.merge(fewer) }
        // A source of the same name but another kind is another source.
        var other = Self.shardOne
        try? other.merge(GRPCCoverage(sources: [.init(name: "users.proto", kind: .reflection, methods: [])]))
        #expect(other.sources.count == 2)
    }

    @Test("the coverage file round-trips and carries its totals")
    func fileRoundTrip() throws {
        let text = GRPCCoverageReportFormat.render(Self.shardOne)
        #expect(text.contains("\"NOT_FOUND\" : 1"))
        #expect(text.contains("\"methodsCalled\" : 1"))
        #expect(text.contains("\"streaming\" : \"bidi\""))
        #expect(GRPCCoverageReportFormat.parse(Data(text.utf8)) == Self.shardOne)
        #expect(GRPCCoverageReportFormat.parse(Data("{\"documents\": []}".utf8)) == nil)
    }

    @Test("merge tells a gRPC coverage file by its contents and refuses conflicting declarations, naming both files")
    func reportMerger() throws {
        let one = ReportMerger.Input(name: "a.json", data: Data(GRPCCoverageReportFormat.render(Self.shardOne).utf8))
        let two = ReportMerger.Input(name: "b.json", data: Data(GRPCCoverageReportFormat.render(Self.shardTwo).utf8))
        let merged = try ReportMerger.merge([one, two], allowMissing: false)
        var expected = Self.shardOne
        try expected.merge(Self.shardTwo)
        #expect(merged.grpcCoverage == expected)
        #expect(merged.grpcCoverageFiles == 2)
        #expect(merged.coverage == nil && merged.record == nil)
        let conflicting = GRPCCoverage(sources: [
            .init(name: "users.proto", kind: .proto, methods: [.init(name: "acme.Users/GetUser", streaming: .unary)])
        ])
        let three = ReportMerger.Input(name: "c.json", data: Data(GRPCCoverageReportFormat.render(conflicting).utf8))
        do {
            _ = try ReportMerger.merge([one, three], allowMissing: false)
            Issue.record("conflicting declarations were merged")
        } catch {
            #expect(
                error.message
                    == "a.json and c.json cover different declarations of the gRPC schema source 'users.proto' "
                    + "(they differ in 'acme.Users/Chat bidi')")
        }
    }

    @Test("the console prints the totals line and, unless quiet, each source's methods called and those not called")
    func consoleSummary() {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        var summary = RunSummary(passed: 1, duration: .milliseconds(5))
        summary.grpcCoverage = Self.shardOne
        console.handle(.runFinished(summary))
        let text = output.text
        #expect(text.contains("gRPC coverage: 1 of 3 methods called (33%)\n"), "\(text)")
        #expect(text.contains("  users.proto: 1 of 3 called\n"), "\(text)")
        #expect(text.contains("  ✔ acme.Users/GetUser  OK 2, NOT_FOUND 1\n"), "\(text)")
        #expect(text.contains("  ✘ 2 methods not called: acme.Users/Chat, acme.Users/ListUsers"), "\(text)")

        let quietOutput = BufferedOutput()
        let quiet = ConsoleReporter(output: quietOutput, progress: nil, colored: false, verbosity: .quiet)
        quiet.handle(.runFinished(summary))
        #expect(quietOutput.text.contains("gRPC coverage: 1 of 3 methods called (33%)"))
        #expect(!quietOutput.text.contains("acme.Users"))

        let none = BufferedOutput()
        ConsoleReporter(output: none, progress: nil, colored: false).handle(.runFinished(RunSummary(passed: 1)))
        #expect(!none.text.contains("gRPC"))
    }

    @Test("the console escapes what a source names before it reaches the terminal")
    func consoleEscapes() {
        var coverage = Self.shardOne
        coverage.sources[0].name = "evil\u{1B}]0;title\u{07}.proto"
        coverage.sources[0].methods[1].statuses = ["\u{1B}[2J": 1]
        let output = BufferedOutput()
        var summary = RunSummary()
        summary.grpcCoverage = coverage
        ConsoleReporter(output: output, progress: nil, colored: false).handle(.runFinished(summary))
        #expect(!output.text.contains("\u{1B}"))
        #expect(!output.text.contains("\u{07}"))
    }

    @Test("the HTML report has a gRPC coverage table with every method, its shape, calls and statuses, escaped")
    func htmlTable() {
        var coverage = Self.shardOne
        coverage.sources[0].name = "<b>users.proto</b>"
        var summary = RunSummary(passed: 1)
        summary.grpcCoverage = coverage
        let record = RunRecord(
            plan: ReportFixtures.plan, results: [ReportFixtures.passed], summary: summary,
            startedAt: ReportFixtures.startedAt, hostname: "ci")
        let html = HTMLReportFormat().render(record)
        #expect(html.contains("<h2>gRPC coverage</h2>"))
        #expect(html.contains("1 of 3 methods called (33%)"))
        #expect(html.contains("&lt;b&gt;users.proto&lt;/b&gt;"))
        #expect(!html.contains("<b>users.proto</b>"))
        #expect(
            html.contains(
                "<tr data-status=\"passed\"><td><code>acme.Users/GetUser</code></td><td>unary</td><td>3</td>"
                    + "<td>OK 2, NOT_FOUND 1</td></tr>"))
        #expect(
            html.contains(
                "<tr data-status=\"failed\"><td><code>acme.Users/Chat</code></td><td>bidi</td><td>0</td>"
                    + "<td></td></tr>"))
        let without = HTMLReportFormat().render(
            RunRecord(
                plan: ReportFixtures.plan, results: [ReportFixtures.passed], summary: RunSummary(passed: 1),
                startedAt: ReportFixtures.startedAt, hostname: "ci"))
        #expect(!without.contains("grpc-coverage"))
    }
}
