import APITestReporting
import APITestResults
import APITestSupport
import APITestTestSupport
import Foundation
import FoundationXML
import Testing

/// Tests run more than once (`--retries`) in every report: a flaky test is reported flaky with every attempt, not
/// passed; one that never passed carries its earlier runs. JUnit is checked with junit-10.xsd (Surefire's schema,
/// which has the rerun and flaky elements), the JSON report with its schema and CTRF with CTRF's schema.
@Suite("Flaky tests in reports")
struct FlakyReportTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let ctrfSchema = repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/ctrf/ctrf.schema.json")

    private func element(_ document: XMLNode, _ path: String) throws -> XMLElement {
        try #require(try document.nodes(forXPath: path).first as? XMLElement, "no \(path)")
    }

    private func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    /// Validates `text` (a JSON document) against the JSON Schema at `schema` with Python's jsonschema.
    private func validate(_ text: String, schema: URL, draft: String) throws {
        let python = try #require(ReportConsumers.tool("python3"), "python3 is missing: run scripts/install-deps.sh")
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.json")
        try Data(text.utf8).write(to: file)
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[2]))
            jsonschema.\(draft).check_schema(schema)
            jsonschema.validate(json.load(open(sys.argv[1])), schema, cls=jsonschema.\(draft))
            print("valid")
            """
        let result = try ReportConsumers.run(python, ["-c", script, file.path, schema.path])
        #expect(result.status == 0 && result.output.contains("valid"), "\(result.output)")
    }

    // MARK: - JUnit

    @Test("JUnit: flakyFailure for a flaky test, failure and rerunError/rerunFailure for one that never passed")
    func junit() throws {
        let xml = JUnitReportFormat().render(ReportFixtures.retriedRecord)
        let document = try XMLDocument(data: Data(xml.utf8))
        let flaky = try element(document, "//testcase[@name='get job']")
        #expect(try flaky.nodes(forXPath: "failure|error|rerunFailure|rerunError").isEmpty)
        let flakyFailure = try element(flaky, "flakyFailure")
        #expect(attribute(flakyFailure, "message") == "$.state: expected \"done\", got \"pending\"")
        #expect(attribute(flakyFailure, "type") == "assertion")
        let trace = try element(flakyFailure, "stackTrace").stringValue ?? ""
        #expect(trace.contains("attempt 1 of 2"))
        #expect(trace.contains("suites/users.yaml:73:17: $.state: expected"))
        #expect(
            try element(flakyFailure, "system-out").stringValue?.contains("GET http://127.0.0.1:8080/api/jobs/1")
                == true)

        let never = try element(document, "//testcase[@name='flaky server']")
        #expect(attribute(try element(never, "failure"), "message")?.hasPrefix("expected status 201, got 400") == true)
        #expect(try never.nodes(forXPath: "flakyFailure|flakyError").isEmpty)
        let rerunError = try element(never, "rerunError")
        #expect(attribute(rerunError, "type") == "connectionRefused")
        #expect(try element(rerunError, "stackTrace").stringValue?.contains("attempt 1 of 3") == true)
        #expect(attribute(try element(never, "rerunFailure"), "type") == "assertion")
        #expect(try element(never, "system-out").stringValue?.contains("run 3 times") == true)
        // Counts: the flaky test passed in the end (Surefire counts it among the passed), the other failed.
        let suite = try element(document, "//testsuite")
        #expect(attribute(suite, "failures") == "1" && attribute(suite, "errors") == "0")
        #expect(attribute(suite, "tests") == "3")
    }

    @Test("JUnit with reruns is valid for junit-10.xsd (xmllint), with and without locations")
    func junitSchema() throws {
        let schema = JUnitSchemas.surefire.path
        try #require(FileManager.default.fileExists(atPath: schema), "missing \(schema)")
        let xmllint = try #require(ReportConsumers.tool("xmllint"), "xmllint is missing: run scripts/install-deps.sh")
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let strict = directory.appendingPathComponent("strict.xml")
        try Data(JUnitReportFormat(locations: false).render(ReportFixtures.retriedRecord).utf8).write(to: strict)
        let result = try ReportConsumers.run(xmllint, ["--noout", "--schema", schema, strict.path])
        #expect(result.status == 0, "\(result.output)")
        let located = directory.appendingPathComponent("located.xml")
        try Data(JUnitReportFormat().render(ReportFixtures.retriedRecord).utf8).write(to: located)
        let extended = try JUnitSchemas.withLocations(in: directory)
        let locatedResult = try ReportConsumers.run(xmllint, ["--noout", "--schema", extended, located.path])
        #expect(locatedResult.status == 0, "\(locatedResult.output)")
    }

    // MARK: - JSON

    @Test("JSON: status flaky with earlierAttempts, counted apart; valid for report.schema.json")
    func json() throws {
        let text = JSONReportFormat().render(ReportFixtures.retriedRecord)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["flaky"] == 1 && summary["passed"] == 1 && summary["failed"] == 1 && summary["total"] == 3)
        let suites = try #require(report["suites"] as? [[String: Any]])
        let tests = try #require(suites.first?["tests"] as? [[String: Any]])
        #expect(tests.map { $0["status"] as? String } == ["passed", "flaky", "failed"])
        #expect(tests[0]["earlierAttempts"] == nil)
        let flakyAttempts = try #require(tests[1]["earlierAttempts"] as? [[String: Any]])
        #expect(flakyAttempts.map { $0["status"] as? String } == ["failed"])
        let neverAttempts = try #require(tests[2]["earlierAttempts"] as? [[String: Any]])
        #expect(neverAttempts.map { $0["status"] as? String } == ["errored", "failed"])
        try validate(
            text, schema: Self.repository.appendingPathComponent("schemas/report.schema.json"),
            draft: "Draft202012Validator")
    }

    @Test("a report without flaky tests has no flaky count (as before)")
    func noFlakyCount() throws {
        let text = JSONReportFormat().render(ReportFixtures.interruptedRecord)
        #expect(!text.contains("flaky"))
        #expect(!text.contains("earlierAttempts"))
    }

    @Test("merge reads flaky tests and their attempts back, and writes them to CTRF")
    func mergeRoundTrip() throws {
        let format = JSONReportFormat(
            id: "run-1", shard: nil, selection: "abc", suiteFiles: [ReportFixtures.file])
        let text = format.render(ReportFixtures.retriedRecord)
        let merged = try ReportMerger.merge(
            [ReportMerger.Input(name: "a.json", data: Data(text.utf8))], allowMissing: false)
        let record = try #require(merged.record)
        #expect(record.summary.flaky == 1 && record.summary.passed == 1 && record.summary.failed == 1)
        let flaky = try #require(record.results.first { $0.name == "get job" })
        #expect(flaky.isFlaky)
        #expect(flaky.earlierAttempts.first?.failures.first?.location.line == 73)
        let never = try #require(record.results.first { $0.name == "flaky server" })
        #expect(never.earlierAttempts.map(\.status) == [.errored, .failed])
        #expect(JUnitReportFormat().render(record) == JUnitReportFormat().render(ReportFixtures.retriedRecord))
    }

    // MARK: - CTRF

    @Test("CTRF: file, line, message, trace, retries, flaky and every attempt; valid for CTRF's schema")
    func ctrf() throws {
        let text = CTRFReportFormat(toolVersion: "9.9.9").render(ReportFixtures.retriedRecord)
        try validate(text, schema: Self.ctrfSchema, draft: "Draft7Validator")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["reportFormat"] as? String == "CTRF")
        #expect(document["specVersion"] as? String == "1.0.0")
        let results = try #require(document["results"] as? [String: Any])
        #expect((results["tool"] as? [String: Any])?["version"] as? String == "9.9.9")
        let summary = try #require(results["summary"] as? [String: Any])
        #expect(summary["tests"] as? Int == 3 && summary["passed"] as? Int == 2 && summary["failed"] as? Int == 1)
        #expect(summary["flaky"] as? Int == 1)
        let tests = try #require(results["tests"] as? [[String: Any]])
        let flaky = try #require(tests.first { $0["name"] as? String == "get job" })
        #expect(flaky["status"] as? String == "passed" && flaky["flaky"] as? Bool == true)
        #expect(flaky["retries"] as? Int == 1)
        #expect(flaky["filePath"] as? String == "suites/users.yaml" && flaky["line"] as? Int == 70)
        #expect(flaky["suite"] as? [String] == ["Users API"])
        let attempts = try #require(flaky["retryAttempts"] as? [[String: Any]])
        #expect(attempts.map { $0["status"] as? String } == ["failed", "passed"])
        #expect(attempts.map { $0["attempt"] as? Int } == [1, 2])
        #expect(attempts[0]["message"] as? String == "$.state: expected \"done\", got \"pending\"")
        #expect((attempts[0]["trace"] as? String)?.contains("suites/users.yaml:73:17") == true)
        let never = try #require(tests.first { $0["name"] as? String == "flaky server" })
        #expect(never["status"] as? String == "failed" && never["flaky"] == nil && never["retries"] as? Int == 2)
        #expect((never["message"] as? String)?.hasPrefix("expected status 201, got 400") == true)
        #expect((never["trace"] as? String)?.contains("reproduce") == true || never["trace"] != nil)
        let attemptsNever = try #require(never["retryAttempts"] as? [[String: Any]])
        #expect(attemptsNever.map { $0["status"] as? String } == ["failed", "failed", "failed"])
    }

    @Test("CTRF: every status, and a test the interrupted run never started, valid for CTRF's schema")
    func ctrfStatuses() throws {
        let text = CTRFReportFormat().render(ReportFixtures.interruptedRecord)
        try validate(text, schema: Self.ctrfSchema, draft: "Draft7Validator")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let results = try #require(document["results"] as? [String: Any])
        let tests = try #require(results["tests"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: tests.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["list users"]?["status"] as? String == "passed")
        #expect(byName["connection refused"]?["status"] as? String == "failed")
        #expect(byName["connection refused"]?["rawStatus"] as? String == "errored")
        #expect(byName["export"]?["status"] as? String == "skipped")
        #expect(byName["slow report"]?["status"] as? String == "other")
        #expect(byName["never started"]?["status"] as? String == "skipped")
        #expect(byName["never started"]?["rawStatus"] as? String == "notRun")
        let summary = try #require(results["summary"] as? [String: Any])
        #expect(summary["tests"] as? Int == 6 && summary["skipped"] as? Int == 2 && summary["other"] as? Int == 1)
    }

    // MARK: - Text reports

    @Test("console: the flaky mark with every run, and flaky counted apart in the summary")
    func console() {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        let record = ReportFixtures.retriedRecord
        for result in record.results { console.handle(.testFinished(result)) }
        console.handle(.runFinished(record.summary))
        let text = output.text
        #expect(text.contains("~ Users API › get job (12 ms, flaky: passed on run 2 of 2)"), "\(text)")
        #expect(text.contains("    run 1 of 2: failed\n"))
        #expect(text.contains("suites/users.yaml:73:17: $.state: expected \"done\", got \"pending\""))
        #expect(text.contains("✘ Users API › flaky server (8.0 ms, run 3 times)"), "\(text)")
        #expect(text.contains("3 tests: 1 passed, 1 flaky, 1 failed"), "\(text)")
    }

    @Test("TAP: a flaky test is ok with flaky and its earlier runs; the closing line counts it")
    func tap() {
        let text = TAPReportFormat().render(ReportFixtures.retriedRecord)
        #expect(
            text.contains(
                "ok 2 - Users API › get job\n  ---\n  flaky: \"failed, then passed when run again\"\n  runs: 2\n  earlier_runs:\n    - run: 1\n      status: \"failed\""
            ), "\(text)")
        #expect(text.contains("not ok 3 - Users API › flaky server"))
        #expect(text.contains("      status: \"errored\""))
        #expect(text.contains(", 1 flaky"))
    }

    @Test("HTML: a flaky section with a filter button and each earlier run")
    func html() {
        let text = HTMLReportFormat().render(ReportFixtures.retriedRecord)
        #expect(text.contains("data-status=\"flaky\""))
        #expect(text.contains("<title>apitest: 1 of 3 tests did not pass, 1 flaky</title>"))
        #expect(text.contains("data-filter=\"flaky\" aria-pressed=\"false\">Flaky <b>1</b>"))
        #expect(text.contains("Run 1 of 2: failed"))
        #expect(text.contains("Run 2 of 3: failed"))
    }
}

/// `apitest merge` reads CTRF files apitest wrote as it reads JSON reports.
@Suite("Merging CTRF")
struct CTRFMergeTests {
    @Test("the shards' CTRF files merge into the same record as their JSON reports; other CTRF is refused")
    func mergeCTRF() throws {
        let json = JSONReportFormat(id: "run-1", shard: nil, selection: "abc", suiteFiles: [ReportFixtures.file])
        let ctrf = CTRFReportFormat(toolVersion: "1.0", identity: json).render(ReportFixtures.retriedRecord)
        let fromCTRF = try #require(
            try ReportMerger.merge(
                [ReportMerger.Input(name: "a.ctrf.json", data: Data(ctrf.utf8))], allowMissing: false
            )
            .record)
        let fromJSON = try #require(
            try ReportMerger.merge(
                [ReportMerger.Input(name: "a.json", data: Data(json.render(ReportFixtures.retriedRecord).utf8))],
                allowMissing: false
            ).record)
        #expect(JUnitReportFormat().render(fromCTRF) == JUnitReportFormat().render(fromJSON))
        #expect(fromCTRF.summary.flaky == 1 && fromCTRF.summary.failed == 1)
        #expect(fromCTRF.results.first { $0.name == "get job" }?.isFlaky == true)
        // A CTRF file of a run without identity, or another tool's, cannot be merged.
        let anonymous = CTRFReportFormat().render(ReportFixtures.retriedRecord)
        #expect(throws: ReportMerger.MergeError.self) {
            try ReportMerger.merge(
                [ReportMerger.Input(name: "b.json", data: Data(anonymous.utf8))], allowMissing: false)
        }
        let other =
            #"{"reportFormat": "CTRF", "specVersion": "1.0.0", "results": {"tool": {"name": "jest"}, "#
            + #""summary": {"tests": 0, "passed": 0, "failed": 0, "skipped": 0, "pending": 0, "other": 0, "#
            + #""start": 0, "stop": 0}, "tests": []}}"#
        do {
            _ = try ReportMerger.merge(
                [ReportMerger.Input(name: "jest.json", data: Data(other.utf8))], allowMissing: false)
            Issue.record("merged another tool's CTRF")
        } catch {
            #expect(error.message.contains("jest.json: neither an apitest JSON report"), "\(error.message)")
        }
    }
}
