import APITestReporting
import APITestResults
import Foundation
import Testing

@Suite("JSON report")
struct JSONReportTests {
    private func object(_ record: RunRecord) throws -> [String: Any] {
        let text = JSONReportFormat().render(record)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func dictionary(_ value: Any?) throws -> [String: Any] { try #require(value as? [String: Any]) }
    private func array(_ value: Any?) throws -> [Any] { try #require(value as? [Any]) }

    @Test("version 1, the run's facts and the summary with notRun")
    func topLevel() throws {
        let report = try object(ReportFixtures.interruptedRecord)
        #expect(report["version"] as? Int == 1)
        #expect(report["generator"] as? String == "apitest")
        #expect(report["startedAt"] as? String == "2025-05-01T12:00:00Z")
        #expect(report["hostname"] as? String == "ci-7")
        #expect(report["durationMs"] as? Double == 950)
        #expect(report["interrupted"] as? Bool == true)
        let summary = try dictionary(report["summary"]) as? [String: Int]
        #expect(
            summary == [
                "total": 6, "passed": 1, "failed": 1, "errored": 1, "skipped": 1, "cancelled": 1, "notRun": 1,
            ])
    }

    @Test("suites hold their tests in file order and the names of the tests that never started")
    func suites() throws {
        let report = try object(ReportFixtures.interruptedRecord)
        let suites = try array(report["suites"])
        #expect(suites.count == 1)
        let suite = try dictionary(suites.first)
        #expect(suite["name"] as? String == "Users API")
        #expect(suite["file"] as? String == "suites/users.yaml")
        #expect(suite["notRun"] as? [String] == ["never started"])
        let tests = try array(suite["tests"]).map(dictionary)
        #expect(
            tests.map { $0["name"] as? String } == [
                "list users", "create a user", "connection refused", "export", "slow report",
            ])
        #expect(tests.map { $0["status"] as? String } == ["passed", "failed", "errored", "skipped", "cancelled"])
        #expect(tests[3]["reason"] as? String == "not implemented yet")
        #expect(tests[0]["reason"] == nil)
    }

    @Test("a step has its request, response, timings in milliseconds, failures and captures")
    func steps() throws {
        let report = try object(ReportFixtures.interruptedRecord)
        let suite = try dictionary(try array(report["suites"]).first)
        let tests = try array(suite["tests"]).map(dictionary)
        let step = try dictionary(try array(tests[1]["steps"]).first)
        #expect(step["index"] as? Int == 0)
        let location = try dictionary(step["location"])
        #expect(location["file"] as? String == "suites/users.yaml")
        #expect(location["line"] as? Int == 21 && location["column"] as? Int == 7)
        let request = try dictionary(step["request"])
        #expect(request["method"] as? String == "POST")
        #expect(request["url"] as? String == "http://127.0.0.1:8080/api/users")
        #expect(request["body"] as? String == "{\"name\":\"carol\"}")
        #expect(request["bodySize"] as? Int == 16)
        #expect(
            try array(request["headers"]).map(dictionary) as? [[String: String]] == [
                ["name": "Accept", "value": "application/json"], ["name": "Authorization", "value": "•••••"],
            ])
        let response = try dictionary(step["response"])
        #expect(response["status"] as? Int == 400)
        #expect(response["httpVersion"] as? String == "HTTP/1.1")
        #expect(response["body"] as? String == "{\"error\":\"name taken\"}")
        #expect(
            try dictionary(step["timings"]) as? [String: Double] == [
                "nameLookupMs": 0.1, "connectMs": 0.4, "tlsHandshakeMs": 0, "firstByteMs": 11, "totalMs": 12,
            ])
        let failures = try array(step["failures"]).map(dictionary)
        #expect(failures.map { $0["subject"] as? String } == ["status", "$.name"])
        #expect(failures.first?["expected"] as? String == "201")
        #expect(failures.first?["actual"] as? String == "400")
        #expect(failures.first?["message"] as? String == "expected status 201, got 400")

        let errored = try dictionary(try array(tests[2]["steps"]).first)
        #expect(errored["response"] == nil)
        #expect(errored["timings"] == nil)
        #expect(try dictionary(errored["error"])["kind"] as? String == "connectionRefused")
        let passed = try dictionary(try array(tests[0]["steps"]).first)
        #expect(passed["captured"] as? [String] == ["count"])
    }

    @Test("any text round-trips through the JSON report")
    func weirdText() throws {
        let report = try object(ReportFixtures.weirdRecord)
        let suite = try dictionary(try array(report["suites"]).first)
        let test = try dictionary(try array(suite["tests"]).first)
        #expect(test["name"] as? String == "name \(ReportFixtures.weirdText)")
        let step = try dictionary(try array(test["steps"]).first)
        #expect(try dictionary(step["response"])["body"] as? String == ReportFixtures.weirdText)
    }
}
