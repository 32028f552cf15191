import APITestHTTP
import APITestResults
import APITestSuite
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// A traced run (`RunOptions.tracing`, set from `OTEL_EXPORTER_OTLP_ENDPOINT`) on a scripted transport: every
/// request carries a W3C `traceparent` with the run's trace and its step's span id, which the step's result holds
/// (``StepResult/trace``) with when it ran; a step's retries share its span; an untraced run sends no header.
@Suite struct TraceContextRunTests {
    /// Keeps every finished test result.
    final class Results: Reporter {
        private let results = Mutex<[TestResult]>([])
        func handle(_ event: RunEvent) {
            if case .testFinished(let result) = event { results.withLock { $0.append(result) } }
        }
        var all: [TestResult] { results.withLock { $0 } }
    }

    private static let yaml = """
        tests:
          - name: two steps
            steps:
              - request: {url: "http://api.test/first"}
                expect: {status: 200}
              - request: {url: "http://api.test/second"}
                retry: {attempts: 3, interval: 1ms}
                expect: {status: 200}
        """

    /// Answers 500 to the first request to /second, 200 to everything else.
    private func transport() -> ScriptedTransport {
        let seenSecond = Mutex(false)
        return ScriptedTransport { request, _ in
            let first =
                request.url.hasSuffix("/second")
                && !seenSecond.withLock { seen in
                    defer { seen = true }
                    return seen
                }
            return ScriptedTransport.response(to: request, status: first ? 500 : 200)
        }
    }

    private func run(tracing: TraceContext?, transport: ScriptedTransport) async throws -> [TestResult] {
        let suite = try SuiteLoader(environment: [:]).load(source: Self.yaml, file: "suite.yaml")
        var options = RunOptions(jobs: 1)
        options.tracing = tracing
        let results = Results()
        _ = await Runner(transport: transport, options: options).run([suite], reporter: results)
        return results.all
    }

    @Test func everyRequestNamesItsStepsSpanInTheRunsTrace() async throws {
        let trace = try #require(TraceID(hex: "4bf92f3577b34da6a3ce929d0e0e4736"))
        let transport = transport()
        let before = WallClock.nanosecondsSinceEpoch()
        let results = try await run(
            tracing: TraceContext(traceID: trace, sampled: true, traceState: "vendor=abc"), transport: transport)
        let after = WallClock.nanosecondsSinceEpoch()
        let steps = try #require(results.first?.steps)
        #expect(steps.count == 2)
        let spans = try steps.map { try #require($0.trace) }
        #expect(Set(spans.map(\.spanID)).count == 2)
        // Three requests: /first, then /second twice (its retry). Both of /second's name the same step span.
        let requests = transport.requests
        #expect(requests.count == 3)
        let headers = requests.map { $0.headers["traceparent"] }
        #expect(headers[0] == "00-\(trace.hex)-\(spans[0].spanID.hex)-01")
        #expect(headers[1] == "00-\(trace.hex)-\(spans[1].spanID.hex)-01")
        #expect(headers[2] == headers[1])
        #expect(requests.allSatisfy { $0.headers["tracestate"] == "vendor=abc" })
        for span in spans {
            #expect(span.startNanoseconds >= before && span.endNanoseconds <= after)
            #expect(span.startNanoseconds <= span.endNanoseconds)
        }
        #expect(spans[0].endNanoseconds <= spans[1].startNanoseconds)
    }

    @Test func anUnsampledParentIsPassedOnWithItsFlag() async throws {
        let trace = try #require(TraceID(hex: "0af7651916cd43dd8448eb211c80319c"))
        let transport = transport()
        let results = try await run(tracing: TraceContext(traceID: trace, sampled: false), transport: transport)
        let span = try #require(results.first?.steps.first?.trace)
        #expect(transport.requests.first?.headers["traceparent"] == "00-\(trace.hex)-\(span.spanID.hex)-00")
        #expect(transport.requests.first?.headers["tracestate"] == nil)
    }

    @Test func anUntracedRunSendsNoTraceHeaders() async throws {
        let transport = transport()
        let results = try await run(tracing: nil, transport: transport)
        #expect(results.first?.steps.allSatisfy { $0.trace == nil } == true)
        #expect(transport.requests.allSatisfy { !$0.headers.contains("traceparent") })
        #expect(transport.requests.allSatisfy { !$0.headers.contains("tracestate") })
    }

    @Test func aSuitesOwnTraceparentIsKept() async throws {
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                tests:
                  - name: own header
                    request:
                      url: "http://api.test/first"
                      headers: {traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}
                """, file: "suite.yaml")
        var options = RunOptions(jobs: 1)
        options.tracing = TraceContext(traceID: .random())
        let transport = transport()
        _ = await Runner(transport: transport, options: options).run([suite], reporter: Results())
        #expect(
            transport.requests.first?.headers["traceparent"]
                == "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
    }

    @Test func idsAreW3CHex() throws {
        #expect(SpanID(0xb7ad_6b71_6920_3331).hex == "b7ad6b7169203331")
        #expect(SpanID(1).hex == "0000000000000001")
        #expect(TraceID(high: 0, low: 1).hex == "00000000000000000000000000000001")
        #expect(TraceID(hex: "00000000000000000000000000000000") == nil)
        #expect(TraceID(hex: "4BF92F3577B34DA6A3CE929D0E0E4736") == nil)
        #expect(SpanID(hex: "0000000000000000") == nil)
        #expect(SpanID(hex: "b7ad6b716920333") == nil)
        #expect(SpanID(hex: "b7ad6b7169203331")?.value == 0xb7ad_6b71_6920_3331)
    }
}
