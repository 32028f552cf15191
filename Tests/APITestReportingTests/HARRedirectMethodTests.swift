import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// The HAR entry of a redirected request's last hop shows the method and body the redirects left, by the HTTP
/// layer's one rule (`RedirectMethodRewrite`): a `303` after a `POST` is a `GET` without body, a `307` keeps the
/// `POST` and its body.
@Suite("HAR redirect method")
struct HARRedirectMethodTests {
    /// The entries of one step: a `POST` with a form body redirected once with `status`, then answered `200`.
    static func entries(afterA status: Int) throws -> [[String: Any]] {
        let location = SourceLocation(file: "suites/a.yaml", line: 3, column: 5)
        func post(offset: Double, status: Int) -> ExchangeDraft {
            var draft = HARReportTests.draft("POST", "http://127.0.0.1:8080/form", offset: offset, status: status)
            draft.requestHeaders.append(.init(name: "Content-Type", value: "application/x-www-form-urlencoded"))
            draft.requestBody = .text("name=carol", readBytes: 10, totalSize: 10)
            draft.requestBodySize = 10
            return draft
        }
        var hop = post(offset: 1, status: status)
        hop.responseHeaders.append(.init(name: "Location", value: "/done"))
        var final = post(offset: 1, status: 200)
        final.effectiveURL = "http://127.0.0.1:8080/done"
        final.redirectHops = [hop]
        let step = StepDraft(index: 0, location: location, exchange: final).sealed(by: HARReportTests.Sealer())
        let result = TestResult(
            suiteName: "Forms", suiteFile: "suites/a.yaml", name: "post", location: location, status: .passed,
            duration: .milliseconds(5), steps: [step])
        let record = RunRecord(
            plan: nil, results: [result], summary: nil, startedAt: HARReportTests.start, hostname: "host")
        let log = try #require(try HARReportTests.document(record)["log"] as? [String: Any])
        return try #require(log["entries"] as? [[String: Any]])
    }

    static func request(_ entry: [String: Any]) -> [String: Any] { entry["request"] as? [String: Any] ?? [:] }

    @Test func aSeeOtherAfterAPostShowsTheGetWithoutBodyThatFollowed() throws {
        let entries = try Self.entries(afterA: 303)
        #expect(entries.count == 2)
        let hop = Self.request(entries[0])
        #expect(hop["method"] as? String == "POST" && hop["postData"] != nil)
        let last = Self.request(entries[1])
        #expect(last["method"] as? String == "GET")
        #expect(last["url"] as? String == "http://127.0.0.1:8080/done")
        #expect(last["postData"] == nil)
        #expect(last["bodySize"] as? Int == 0)
    }

    @Test func aTemporaryRedirectKeepsThePostAndItsBody() throws {
        let entries = try Self.entries(afterA: 307)
        #expect(entries.count == 2)
        let last = Self.request(entries[1])
        #expect(last["method"] as? String == "POST")
        #expect(last["url"] as? String == "http://127.0.0.1:8080/done")
        let postData = try #require(last["postData"] as? [String: Any])
        #expect(postData["text"] as? String == "name=carol")
    }
}
