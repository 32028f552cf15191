import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// A run records no more of a passing step than its reporter reads (`Reporter.resultDetail`), and a step that
/// fails or errors always whole.
@Suite struct ResultDetailRunTests {
    /// Keeps every finished result and reads results at the detail it is made with.
    final class Results: Reporter {
        let resultDetail: ResultDetail
        private let results = Mutex<[TestResult]>([])
        init(_ detail: ResultDetail) { resultDetail = detail }
        func handle(_ event: RunEvent) {
            if case .testFinished(let result) = event { results.withLock { $0.append(result) } }
        }
        func named(_ name: String) -> TestResult? { results.withLock { $0.first { $0.name == name } } }
    }

    private static let yaml = """
        tests:
          - name: passes
            request: {url: "http://api.test/ok", headers: {X-Trace: abc}}
            expect: {status: 200, json: {$.name: alice}}
          - name: fails
            request: {url: "http://api.test/ok"}
            expect: {status: 200, json: {$.name: bob}}
          - name: errors
            request: {url: "http://api.test/down"}
        """

    private func run(_ detail: ResultDetail) async throws -> Results {
        let transport = ScriptedTransport { request, _ in
            if request.url.hasSuffix("/down") {
                throw HTTPError(.connectionRefused, .curl(code: 7, errorBuffer: "Connection refused"))
            }
            return ScriptedTransport.response(
                to: request, body: #"{"name":"alice"}"#, headers: [("X-Server", "nginx")])
        }
        let suite = try SuiteLoader().load(source: Self.yaml, file: "suite.yaml")
        let results = Results(detail)
        _ = await Runner(transport: transport, options: RunOptions(jobs: 1)).run([suite], reporter: results)
        return results
    }

    @Test func aPassingStepCarriesNothingForAReporterOfFailures() async throws {
        let results = try await run(.failures)
        let passed = try #require(results.named("passes")?.steps.first)
        #expect(passed.exchange == nil)
        #expect(passed.checks.isEmpty)
        // The failing and the erroring step are whole: request, response headers and body.
        let failed = try #require(results.named("fails")?.steps.first)
        #expect(failed.exchange?.statusCode == 200)
        #expect(failed.exchange?.responseHeaders.contains { $0.name == "X-Server" } == true)
        #expect(failed.exchange?.responseBody == #"{"name":"alice"}"#)
        #expect(failed.failures.count == 1)
        let errored = try #require(results.named("errors")?.steps.first)
        #expect(errored.exchange?.requestLine == "GET http://api.test/down")
        #expect(errored.error?.kind == .transfer(.connectionRefused))
    }

    @Test func aPassingStepCarriesItsRequestLineForAReporterOfRequestLines() async throws {
        let results = try await run(.requestLines)
        let passed = try #require(results.named("passes")?.steps.first)
        let exchange = try #require(passed.exchange)
        #expect(exchange.requestLine == "GET http://api.test/ok")
        #expect(exchange.statusCode == 200)
        #expect(exchange.httpVersion == "HTTP/1.1")
        #expect(exchange.requestHeaders.isEmpty)
        #expect(exchange.responseHeaders.isEmpty)
        #expect(exchange.responseBody == nil)
        #expect(passed.checks.isEmpty)
        let failed = try #require(results.named("fails")?.steps.first)
        #expect(failed.exchange?.responseBody == #"{"name":"alice"}"#)
    }

    @Test func everyStepIsWholeForAReporterOfEveryStep() async throws {
        let results = try await run(.everyStep)
        let passed = try #require(results.named("passes")?.steps.first)
        #expect(passed.exchange?.requestHeaders.contains { $0.name == "X-Trace" && $0.value == "abc" } == true)
        #expect(passed.exchange?.responseBody == #"{"name":"alice"}"#)
        #expect(passed.checks.map(\.subject) == ["status", "$.name"])
        #expect(passed.checks.map(\.passed) == [true, true])
        let failed = try #require(results.named("fails")?.steps.first)
        #expect(failed.checks.map(\.passed) == [true, false])
    }
}
