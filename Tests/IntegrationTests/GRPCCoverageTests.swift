import Foundation
import Testing

/// The gRPC coverage of a run, end to end against grpcio's servers (`GRPCStepServer`: `acme.Users` of
/// `users.proto`, five methods; `GRPCReflectionServer`: three methods read through reflection): the console's lines,
/// the JSON and HTML reports, `--report-grpc-coverage` (valid for `schemas/grpc-coverage.schema.json`), the files
/// of two shards merged into the whole run's, conflicting declarations refused, and nothing for a run without
/// `grpc:` steps.
@Suite(.serialized) final class GRPCCoverageTests {
    let fixture: GRPCStepFixture
    var server: GRPCStepServer { fixture.server }
    var folder: URL { fixture.folder }

    init() throws {
        fixture = try GRPCStepFixture(folderPrefix: "apitest-grpc-cov")
    }

    /// Three tests calling two of `users.proto`'s five methods: GetUser answered OK and NOT_FOUND, ListUsers OK.
    private var suite: String {
        """
        grpc: {proto: [users.proto]}
        tests:
          - name: found
            steps:
              - grpc: {url: \(server.grpcURL), method: acme.Users/GetUser, message: {id: "42"}}
                expect: {json: {$.name: Ada 42}}
          - name: missing
            steps:
              - grpc: {url: \(server.grpcURL), method: acme.Users/GetUser, message: {id: missing}}
                expect: {grpc: {status: NOT_FOUND}}
          - name: list
            steps:
              - grpc: {url: \(server.grpcURL), method: acme.Users/ListUsers, message: {count: 2}}
                expect: {events: {count: 2}}
        """
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
    }

    private func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path(name)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The methods of the first source of a coverage document (`sources`, or a JSON report's `grpcCoverage`), by
    /// name.
    private func methods(_ document: [String: Any]) throws -> [String: [String: Any]] {
        let sources = try #require(document["sources"] as? [[String: Any]])
        let methods = try #require(sources.first?["methods"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: methods.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test func aRunCallingTwoOfFiveMethodsReportsThemWithTheirStatusesEverywhere() async throws {
        try suite.write(toFile: path("suite.yaml"), atomically: true, encoding: .utf8)
        let result = try await runAPITest([
            "run", path("suite.yaml"), "--report-json", path("report.json"), "--report-html", path("report.html"),
            "--report-grpc-coverage", path("coverage.json"),
        ])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("gRPC coverage: 2 of 5 methods called (40%)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("users.proto: 2 of 5 called\n"), "\(result.stdout)")
        #expect(result.stdout.contains("✔ acme.Users/GetUser    OK 1, NOT_FOUND 1\n"), "\(result.stdout)")
        #expect(result.stdout.contains("✔ acme.Users/ListUsers  OK 1\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains("✘ 3 methods not called: acme.Users/Chat, acme.Users/Slow, acme.Users/Upload"),
            "\(result.stdout)")

        let coverage = try json("coverage.json")
        let sources = try #require(coverage["sources"] as? [[String: Any]])
        #expect(sources.count == 1)
        #expect(sources.first?["kind"] as? String == "proto")
        #expect((sources.first?["name"] as? String)?.hasSuffix("users.proto") == true)
        let methods = try methods(coverage)
        #expect(methods.count == 5)
        #expect(methods["acme.Users/GetUser"]?["calls"] as? Int == 2)
        #expect(methods["acme.Users/GetUser"]?["statuses"] as? [String: Int] == ["OK": 1, "NOT_FOUND": 1])
        #expect(methods["acme.Users/GetUser"]?["streaming"] as? String == "unary")
        #expect(methods["acme.Users/ListUsers"]?["statuses"] as? [String: Int] == ["OK": 1])
        #expect(methods["acme.Users/ListUsers"]?["streaming"] as? String == "server")
        #expect(methods["acme.Users/Chat"]?["streaming"] as? String == "bidi")
        #expect(methods["acme.Users/Upload"]?["calls"] as? Int == 0)
        #expect(coverage["totals"] as? [String: Int] == ["methods": 5, "methodsCalled": 2, "calls": 3])

        // The JSON report carries the same counts.
        let report = try json("report.json")
        let carried = try #require(report["grpcCoverage"] as? [String: Any])
        #expect(
            try self.methods(carried)["acme.Users/GetUser"]?["statuses"] as? [String: Int] == ["OK": 1, "NOT_FOUND": 1])
        #expect(carried["totals"] as? [String: Int] == ["methods": 5, "methodsCalled": 2, "calls": 3])

        let html = read("report.html")
        #expect(html.contains("<h2>gRPC coverage</h2>"), "\(html)")
        #expect(html.contains("2 of 5 methods called (40%)"))
        #expect(
            html.contains("<td><code>acme.Users/GetUser</code></td><td>unary</td><td>2</td><td>OK 1, NOT_FOUND 1</td>"))

        // The file and the report are valid for their published schemas.
        let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schemas")
        let validate = """
            import json, sys, jsonschema
            for schema_path, document_path in [(sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])]:
                schema = json.load(open(schema_path))
                jsonschema.Draft202012Validator.check_schema(schema)
                jsonschema.validate(json.load(open(document_path)), schema, cls=jsonschema.Draft202012Validator)
            print("valid")
            """
        let checked = try await runProcess(
            try TestBinaries.tool("python3"),
            [
                "-c", validate, schemas.appendingPathComponent("grpc-coverage.schema.json").path, path("coverage.json"),
                schemas.appendingPathComponent("report.schema.json").path, path("report.json"),
            ])
        #expect(checked.stdout == "valid\n", "\(checked.stderr)")
    }

    @Test func theFilesOfTwoShardsMergeIntoTheWholeRunsFileAndConflictsAreRefused() async throws {
        try suite.write(toFile: path("suite.yaml"), atomically: true, encoding: .utf8)
        let whole = try await runAPITest(["run", path("suite.yaml"), "--report-grpc-coverage", path("whole.json")])
        #expect(whole.exitCode == 0, "\(whole.stdout)\(whole.stderr)")
        for shard in 1...2 {
            let run = try await runAPITest([
                "run", path("suite.yaml"), "--shard", "\(shard)/2", "--report-grpc-coverage",
                path("shard\(shard).json"),
                "--report-json", path("report\(shard).json"),
            ])
            #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        }
        #expect(read("shard1.json") != read("whole.json"), "each shard calls part of the methods")
        let merged = try await runAPITest([
            "merge", path("shard2.json"), path("shard1.json"), "--report-grpc-coverage", path("merged.json"),
        ])
        #expect(merged.exitCode == 0, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.contains("merged 2 gRPC coverage files: 2 of 5 methods called"), "\(merged.stdout)")
        #expect(read("merged.json") == read("whole.json"))

        // Without coverage files, the coverage the JSON reports carry is merged, into the same counts.
        let fromReports = try await runAPITest([
            "merge", path("report1.json"), path("report2.json"), "--report-grpc-coverage", path("from-reports.json"),
            "--report-json", path("merged-report.json"),
        ])
        #expect(fromReports.exitCode == 0, "\(fromReports.stdout)\(fromReports.stderr)")
        #expect(read("from-reports.json") == read("whole.json"))
        #expect(read("merged-report.json").contains("\"grpcCoverage\""))

        // Another declaration of the same source: one method fewer.
        var conflicting = try json("shard1.json")
        var sources = try #require(conflicting["sources"] as? [[String: Any]])
        var methods = try #require(sources[0]["methods"] as? [[String: Any]])
        methods.removeAll { $0["name"] as? String == "acme.Users/Slow" }
        sources[0]["methods"] = methods
        conflicting["sources"] = sources
        try JSONSerialization.data(withJSONObject: conflicting).write(to: URL(fileURLWithPath: path("other.json")))
        let refused = try await runAPITest([
            "merge", path("shard1.json"), path("other.json"), "--report-grpc-coverage", path("refused.json"),
        ])
        #expect(refused.exitCode == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains("cover different declarations of the gRPC schema source")
                && refused.stderr.contains("acme.Users/Slow unary"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("refused.json")))
    }

    @Test func eachAttemptOfARetriedStepCountsWhetherItPassedOrNot() async throws {
        let suite = """
            grpc: {proto: [users.proto]}
            tests:
              - name: retried
                steps:
                  - grpc: {url: \(server.grpcURL), method: acme.Users/GetUser, message: {id: "1"}}
                    retry: {attempts: 3, interval: 10ms}
                    expect: {grpc: {status: NOT_FOUND}}
            """
        try suite.write(toFile: path("retried.yaml"), atomically: true, encoding: .utf8)
        let result = try await runAPITest(["run", path("retried.yaml"), "--report-grpc-coverage", path("retried.json")])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✔ acme.Users/GetUser  OK 3\n"), "\(result.stdout)")
        let methods = try methods(json("retried.json"))
        #expect(methods["acme.Users/GetUser"]?["calls"] as? Int == 3)
        #expect(methods["acme.Users/GetUser"]?["statuses"] as? [String: Int] == ["OK": 3])
    }

    @Test func aServerReadThroughReflectionIsASourceNamedByHostAndPort() async throws {
        let reflecting = try GRPCReflectionServer(mode: "v1")
        defer { reflecting.stop() }
        let suite = """
            grpc: {reflection: true}
            tests:
              - name: reflected
                steps:
                  - grpc: {url: "\(reflecting.url)", method: acme.users.v1.Users/GetUser, message: {id: "7"}}
                  - grpc: {url: "\(reflecting.url)", method: acme.users.v1.Users/GetUser, message: {id: "8"}}
            """
        try suite.write(toFile: path("reflected.yaml"), atomically: true, encoding: .utf8)
        let result = try await runAPITest([
            "run", path("reflected.yaml"), "--report-grpc-coverage", path("reflected.json"),
        ])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("gRPC coverage: 1 of 3 methods called (33%)"), "\(result.stdout)")
        let coverage = try json("reflected.json")
        let sources = try #require(coverage["sources"] as? [[String: Any]])
        #expect(sources.count == 1)
        #expect(sources.first?["kind"] as? String == "reflection")
        #expect(sources.first?["name"] as? String == "127.0.0.1:\(reflecting.port)")
        let methods = try methods(coverage)
        #expect(
            Set(methods.keys) == [
                "acme.users.v1.Users/GetUser", "acme.users.v1.Users/ListUsers", "acme.billing.v1.Billing/Charge",
            ])
        #expect(methods["acme.users.v1.Users/GetUser"]?["statuses"] as? [String: Int] == ["OK": 2])
    }

    @Test func aRunWithoutGRPCStepsPrintsAndCarriesNoGRPCCoverage() async throws {
        let suite = """
            tests:
              - name: skipped
                skip: nothing to call
                request: {url: "http://127.0.0.1:9/"}
            """
        try suite.write(toFile: path("plain.yaml"), atomically: true, encoding: .utf8)
        let result = try await runAPITest([
            "run", path("plain.yaml"), "--report-json", path("plain-report.json"), "--report-html",
            path("plain.html"), "--report-grpc-coverage", path("plain-coverage.json"),
        ])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("gRPC coverage"), "\(result.stdout)")
        #expect(!read("plain-report.json").contains("grpcCoverage"))
        #expect(!read("plain.html").contains("grpc-coverage"))
        let coverage = try json("plain-coverage.json")
        #expect((coverage["sources"] as? [Any])?.isEmpty == true)
        #expect(coverage["totals"] as? [String: Int] == ["methods": 0, "methodsCalled": 0, "calls": 0])
    }
}
