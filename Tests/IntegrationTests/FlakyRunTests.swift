import APITestTestSupport
import Foundation
import Testing

/// `--retries`, flaky tests, `--flaky`, `--last-failed` and `--report-ctrf` end to end: apitest against the demo
/// API (a job that is pending on its first read and done on the next: a test that fails once, then passes) and the
/// fault server (a connection closed without an answer: a test that errors every time). The reports are checked
/// with the consumers' own schemas: JUnit with junit-10.xsd (Surefire's, with the flaky elements), the JSON report
/// with schemas/report.schema.json, CTRF with CTRF's schema (Fixtures/ctrf, MIT).
@Suite final class FlakyRunTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let ctrfSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ctrf/ctrf.schema.json")

    /// The folder of this test's files, removed when the test ends.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flaky-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// A suite whose setup creates a demo job done after one read: `job is done` (the only test that reads it)
    /// fails on its first run and passes on the next; `always wrong` fails every time; `fine` passes.
    func suite(_ demo: DemoServer) throws -> String {
        let path = file("jobs.yaml")
        try """
        name: Jobs
        baseURL: \(demo.baseURL)/api/
        setup:
          - request: {method: POST, url: "jobs?polls=1"}
            expect: {status: 202}
            capture: {job: {jsonpath: $.id}}
        tests:
          - name: fine
            request: {url: "\(demo.baseURL)/health"}
          - name: job is done
            request: {url: "jobs/{{ job }}"}
            expect: {json: {$.state: done}}
          - name: always wrong
            request: {url: "\(demo.baseURL)/health"}
            expect: {status: 418}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func tests(_ report: [String: Any]) throws -> [String: [String: Any]] {
        let suites = try #require(report["suites"] as? [[String: Any]])
        var tests: [String: [String: Any]] = [:]
        for suite in suites {
            for test in suite["tests"] as? [[String: Any]] ?? [] { tests[test["name"] as? String ?? ""] = test }
        }
        return tests
    }

    func validate(json path: String, schema: URL, draft: String) async throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[2]))
            jsonschema.\(draft).check_schema(schema)
            jsonschema.validate(json.load(open(sys.argv[1])), schema, cls=jsonschema.\(draft))
            print("valid")
            """
        let result = try await runProcess(try TestBinaries.tool("python3"), ["-c", script, path, schema.path])
        #expect(result.exitCode == 0 && result.stdout.contains("valid"), "\(path): \(result.stderr)")
    }

    // MARK: - Flaky

    @Test func aTestThatFailsThenPassesIsFlakyInEveryReportAndFailsTheRunByDefault() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try suite(demo)
        let result = try await runAPITest([
            "run", suite, "--retries", "2", "--filter", "fine|job is done", "--report-junit", file("junit.xml"),
            "--report-json", file("report.json"), "--report-ctrf", file("ctrf.json"), "--report-html",
            file("report.html"), "--report-tap", file("report.tap"),
        ])
        // Flaky fails the run unless --flaky pass.
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("~ Jobs › job is done ("), "\(result.stdout)")
        #expect(result.stdout.contains("flaky: passed on run 2 of 2"), "\(result.stdout)")
        #expect(result.stdout.contains("run 1 of 2: failed"), "\(result.stdout)")
        #expect(result.stdout.contains("tests: 2 passed, 1 flaky"), "\(result.stdout)")

        // JUnit: a flakyFailure with the first run's failure; valid for Surefire's schema.
        let junit = try String(contentsOfFile: file("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<flakyFailure message=\"$.state: expected"), "\(junit)")
        #expect(junit.contains("<stackTrace>attempt 1 of 2"), "\(junit)")
        #expect(!junit.contains("<failure"), "\(junit)")
        let xmllint = try await runProcess(
            try TestBinaries.tool("xmllint"),
            ["--noout", "--schema", try JUnitSchemas.withLocations(in: scratch), file("junit.xml")])
        #expect(xmllint.exitCode == 0, "\(xmllint.stderr)")

        // JSON: status flaky, its earlier attempt, counted apart; valid for the report's schema.
        let report = try json(file("report.json"))
        let test = try #require(try tests(report)["job is done"])
        #expect(test["status"] as? String == "flaky")
        let attempts = try #require(test["earlierAttempts"] as? [[String: Any]])
        #expect(attempts.map { $0["status"] as? String } == ["failed"])
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["flaky"] == 1 && summary["passed"] == 2, "\(summary)")
        try await validate(
            json: file("report.json"), schema: Self.repository.appendingPathComponent("schemas/report.schema.json"),
            draft: "Draft202012Validator")

        // CTRF: passed and flaky with its retries and every attempt; valid for CTRF's schema.
        try await validate(json: file("ctrf.json"), schema: Self.ctrfSchema, draft: "Draft7Validator")
        let ctrf = try json(file("ctrf.json"))
        let results = try #require(ctrf["results"] as? [String: Any])
        let ctrfTests = try #require(results["tests"] as? [[String: Any]])
        let flaky = try #require(ctrfTests.first { $0["name"] as? String == "job is done" })
        #expect(flaky["status"] as? String == "passed" && flaky["flaky"] as? Bool == true)
        #expect(flaky["retries"] as? Int == 1)
        #expect(flaky["filePath"] as? String == suite && flaky["line"] as? Int == 10)
        let retryAttempts = try #require(flaky["retryAttempts"] as? [[String: Any]])
        #expect(retryAttempts.map { $0["status"] as? String } == ["failed", "passed"])
        #expect((retryAttempts.first?["message"] as? String)?.contains("$.state") == true)
        #expect((results["summary"] as? [String: Any])?["flaky"] as? Int == 1)

        let html = try String(contentsOfFile: file("report.html"), encoding: .utf8)
        #expect(html.contains("data-status=\"flaky\"") && html.contains("Run 1 of 2: failed"))
        let tap = try String(contentsOfFile: file("report.tap"), encoding: .utf8)
        #expect(tap.contains("ok 3 - Jobs › job is done\n  ---\n  flaky:"), "\(tap)")
    }

    @Test func flakyPassExitsZeroAndATestsOwnRetriesWork() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try suite(demo)
        // Without retries the job test fails once and the run fails.
        let once = try await runAPITest(["run", suite, "--filter", "job is done"])
        #expect(once.exitCode == 1, "\(once.stdout)")
        #expect(once.stdout.contains("1 failed"), "\(once.stdout)")
        // --flaky pass: a flaky test does not fail the run.
        let passing = try await runAPITest([
            "run", suite, "--filter", "fine|job is done", "--retries", "1", "--flaky", "pass",
        ])
        #expect(passing.exitCode == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("1 flaky"), "\(passing.stdout)")
        // A test's retries: runs it again without --retries.
        let own = file("own.yaml")
        try String(contentsOfFile: suite, encoding: .utf8)
            .replacingOccurrences(of: "  - name: job is done\n", with: "  - name: job is done\n    retries: 1\n")
            .write(toFile: own, atomically: true, encoding: .utf8)
        let ownRun = try await runAPITest(["run", own, "--filter", "job is done", "--flaky", "pass"])
        #expect(ownRun.exitCode == 0, "\(ownRun.stdout)\(ownRun.stderr)")
        #expect(ownRun.stdout.contains("flaky: passed on run 2 of 2"), "\(ownRun.stdout)")
        // Bad values are usage errors.
        for arguments in [["--retries", "101"], ["--retries", "-1"], ["--flaky", "maybe"]] {
            let bad = try await runAPITest(["run", suite] + arguments)
            #expect(bad.exitCode == 2, "\(arguments): \(bad.stderr)")
        }
    }

    @Test func aTestThatErrorsEveryTimeHasARerunErrorPerEarlierRun() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let path = file("close.yaml")
        try """
        name: Faults
        tests:
          - name: no answer
            request: {url: "\(server.baseURL)/close"}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await runAPITest([
            "run", path, "--retries", "2", "--report-junit", file("junit.xml"), "--report-ctrf", file("ctrf.json"),
        ])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("run 3 times"), "\(result.stdout)")
        #expect(server.receivedRequestLines.filter { $0.contains("/close") }.count == 3)
        let junit = try String(contentsOfFile: file("junit.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<rerunError ").count == 3, "\(junit)")
        #expect(junit.contains("<error message="), "\(junit)")
        let xmllint = try await runProcess(
            try TestBinaries.tool("xmllint"),
            ["--noout", "--schema", try JUnitSchemas.withLocations(in: scratch), file("junit.xml")])
        #expect(xmllint.exitCode == 0, "\(xmllint.stderr)")
        try await validate(json: file("ctrf.json"), schema: Self.ctrfSchema, draft: "Draft7Validator")
        let ctrf = try json(file("ctrf.json"))
        let test = try #require(((ctrf["results"] as? [String: Any])?["tests"] as? [[String: Any]])?.first)
        #expect(test["status"] as? String == "failed" && test["rawStatus"] as? String == "errored")
        #expect(test["retries"] as? Int == 2)
    }

    // MARK: - Last failed

    @Test func lastFailedRunsExactlyTheTestsThatFailedAndRefusesBadReports() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try suite(demo)
        let first = try await runAPITest(["run", suite, "--report-json", file("first.json")])
        #expect(first.exitCode == 1)
        // `job is done` and `always wrong` failed.
        let again = try await runAPITest([
            "run", suite, "--last-failed", file("first.json"), "--report-json", file("again.json"),
        ])
        #expect(again.exitCode == 1, "\(again.stdout)\(again.stderr)")
        let names = try tests(try json(file("again.json"))).keys.sorted()
        #expect(names == ["always wrong", "job is done", "setup"], "\(names)")
        #expect(!again.stdout.contains("Jobs › fine"), "\(again.stdout)")

        // `list` shows the same selection.
        let list = try await runAPITest(["list", suite, "--last-failed", file("first.json")])
        #expect(list.stdout.contains("job is done") && !list.stdout.contains("fine"), "\(list.stdout)")

        // A test the report names that no longer exists.
        let renamed = file("renamed.yaml")
        try String(contentsOfFile: suite, encoding: .utf8)
            .replacingOccurrences(of: "- name: always wrong", with: "- name: now right")
            .write(toFile: renamed, atomically: true, encoding: .utf8)
        let report = try String(contentsOfFile: file("first.json"), encoding: .utf8)
            .replacingOccurrences(of: suite, with: renamed)
        try report.write(toFile: file("renamed.json"), atomically: true, encoding: .utf8)
        let missing = try await runAPITest(["run", renamed, "--last-failed", file("renamed.json")])
        #expect(missing.exitCode == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("1 test that failed no longer exists:\n"), "\(missing.stderr)")
        #expect(missing.stderr.contains("Jobs › always wrong"), "\(missing.stderr)")

        // Unreadable, not JSON, not a report: usage errors naming the file.
        try "not json".write(toFile: file("bad.json"), atomically: true, encoding: .utf8)
        try "{\"a\": 1}".write(toFile: file("other.json"), atomically: true, encoding: .utf8)
        // A load report and a CTRF report are named as what they are (the old message said only "no 'suites'").
        let load = try await runAPITest([
            "load", suite, "--filter", "fine", "--rate", "5/s", "--duration", "1s", "--quiet", "--report-json",
            file("load.json"),
        ])
        #expect(load.exitCode == 0, "\(load.stdout)\(load.stderr)")
        let ctrf = try await runAPITest(["run", suite, "--filter", "fine", "--report-ctrf", file("fine.ctrf.json")])
        #expect(ctrf.exitCode == 0, "\(ctrf.stdout)\(ctrf.stderr)")
        for (path, words) in [
            (file("absent.json"), "--last-failed"), (file("bad.json"), "not JSON"),
            (file("other.json"), "not an apitest JSON report"),
            (
                file("load.json"),
                "a report of apitest load, which runs no test to fail; use the JSON report of apitest run"
            ),
            (file("fine.ctrf.json"), "a CTRF report; use the JSON report of apitest run (--report-json)"),
        ] {
            let bad = try await runAPITest(["run", suite, "--last-failed", path])
            #expect(bad.exitCode == 2, "\(path): \(bad.stderr)")
            #expect(bad.stderr.contains(words), "\(path): \(bad.stderr)")
        }

        // Nothing failed: nothing to run, and that is a success.
        let passed = try await runAPITest(["run", suite, "--filter", "fine", "--report-json", file("passed.json")])
        #expect(passed.exitCode == 0)
        let nothing = try await runAPITest(["run", suite, "--last-failed", file("passed.json")])
        #expect(nothing.exitCode == 0, "\(nothing.stderr)")
        #expect(nothing.stderr.contains("no test failed or errored"), "\(nothing.stderr)")

        // The report read is an input: writing a report over it is refused before anything runs.
        let overwrite = try await runAPITest([
            "run", suite, "--last-failed", file("first.json"), "--report-json", file("first.json"),
        ])
        #expect(overwrite.exitCode == 2, "\(overwrite.stderr)")
    }

    // MARK: - Merge

    @Test func mergeExitsOneOnAFlakyTestUnlessFlakyPass() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try suite(demo)
        let run = try await runAPITest([
            "run", suite, "--filter", "job is done", "--retries", "1", "--report-json", file("run.json"),
        ])
        #expect(run.exitCode == 1, "\(run.stdout)")
        let merged = try await runAPITest(["merge", file("run.json"), "--report-junit", file("merged.xml")])
        #expect(merged.exitCode == 1, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.contains("1 flaky"), "\(merged.stdout)")
        let junit = try String(contentsOfFile: file("merged.xml"), encoding: .utf8)
        #expect(junit.contains("<flakyFailure "), "\(junit)")
        let passing = try await runAPITest(["merge", file("run.json"), "--flaky", "pass"])
        #expect(passing.exitCode == 0, "\(passing.stdout)\(passing.stderr)")
        let bad = try await runAPITest(["merge", file("run.json"), "--flaky", "never"])
        #expect(bad.exitCode == 2, "\(bad.stderr)")
    }

    @Test func mergeWritesCTRFFromTheShardsJSONReports() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try suite(demo)
        for shard in 1...2 {
            let run = try await runAPITest([
                "run", suite, "--shard", "\(shard)/2", "--retries", "1", "--report-json", file("shard-\(shard).json"),
                "--report-ctrf", file("shard-\(shard).ctrf.json"),
            ])
            #expect(run.exitCode == 1 || run.exitCode == 0, "\(run.stderr)")
        }
        let merged = try await runAPITest([
            "merge", file("shard-1.json"), file("shard-2.json"), "--report-ctrf", file("merged.ctrf.json"),
        ])
        #expect(merged.exitCode == 1, "\(merged.stdout)\(merged.stderr)")
        try await validate(json: file("merged.ctrf.json"), schema: Self.ctrfSchema, draft: "Draft7Validator")
        let ctrf = try json(file("merged.ctrf.json"))
        let names = ((ctrf["results"] as? [String: Any])?["tests"] as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        #expect(Set(names) == ["setup", "fine", "job is done", "always wrong"], "\(names)")

        // The shards' CTRF files merge as their JSON reports do.
        let fromCTRF = try await runAPITest([
            "merge", file("shard-1.ctrf.json"), file("shard-2.ctrf.json"), "--report-json", file("from-ctrf.json"),
        ])
        #expect(fromCTRF.exitCode == 1, "\(fromCTRF.stdout)\(fromCTRF.stderr)")
        let fromJSON = try await runAPITest([
            "merge", file("shard-1.json"), file("shard-2.json"), "--report-json", file("from-json.json"),
        ])
        #expect(fromCTRF.stdout == fromJSON.stdout, "\(fromCTRF.stdout) vs \(fromJSON.stdout)")
        let ctrfTests = try tests(try json(file("from-ctrf.json")))
        let jsonTests = try tests(try json(file("from-json.json")))
        #expect(ctrfTests.keys.sorted() == jsonTests.keys.sorted())
        #expect(ctrfTests.mapValues { $0["status"] as? String } == jsonTests.mapValues { $0["status"] as? String })
    }

    /// `--report-ctrf` of a whole run, and `apitest merge` of its two shards' CTRF files, are the same document up to
    /// what differs from run to run: times, durations, ids, and the run's own identity (`extra.apitest.run`); the
    /// flaky test's attempts, the failures' messages and traces, the files and lines and the counts are equal.
    @Test func mergedCTRFShardsAreTheUnshardedRunsCTRF() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try suite(demo)
        let whole = try await runAPITest(["run", suite, "--retries", "1", "--report-ctrf", file("whole.ctrf.json")])
        #expect(whole.exitCode == 1, "\(whole.stdout)\(whole.stderr)")
        for shard in 1...2 {
            let run = try await runAPITest([
                "run", suite, "--shard", "\(shard)/2", "--retries", "1", "--report-ctrf",
                file("shard-\(shard).ctrf.json"),
            ])
            #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        }
        let merged = try await runAPITest([
            "merge", file("shard-1.ctrf.json"), file("shard-2.ctrf.json"), "--report-ctrf", file("merged.ctrf.json"),
        ])
        #expect(merged.exitCode == 1, "\(merged.stdout)\(merged.stderr)")
        try await validate(json: file("merged.ctrf.json"), schema: Self.ctrfSchema, draft: "Draft7Validator")
        let expected = Self.timeless(try json(file("whole.ctrf.json")))
        let actual = Self.timeless(try json(file("merged.ctrf.json")))
        #expect(
            NSDictionary(dictionary: expected as? [String: Any] ?? [:]).isEqual(to: actual as? [String: Any] ?? [:]),
            "\(expected)\n\(actual)")
        let summary = ((actual as? [String: Any])?["results"] as? [String: Any])?["summary"] as? [String: Any]
        #expect(summary?["flaky"] as? Int == 1 && summary?["tests"] as? Int == 4, "\(summary ?? [:])")
    }

    /// `value` without what differs between two runs of the same tests: times and durations, the report's id and
    /// the run's identity, and numbers inside text (ids, ports and times in messages and step lines).
    static func timeless(_ value: Any) -> Any {
        let volatile: Set<String> = [
            "duration", "durationMs", "start", "stop", "timestamp", "reportId", "run", "startedAt", "timings",
        ]
        if let object = value as? [String: Any] {
            return object.filter { !volatile.contains($0.key) }.mapValues(timeless)
        }
        if let list = value as? [Any] { return list.map(timeless) }
        if let text = value as? String {
            return text.replacing(#/[0-9]+(\.[0-9]+)?( ?(ms|µs|s)\b)?/#, with: "#")
        }
        return value
    }
}
