import Foundation
import Testing

/// `apitest run` with `OTEL_EXPORTER_OTLP_ENDPOINT` against a real OTLP receiver (`Fixtures/otlp_receiver.py`, which
/// parses every export with PyPI's opentelemetry-proto, protobuf or JSON), which is also the tested service: the
/// span tree run → suite → test attempt → step with its attributes, errors and masking, the `traceparent` the
/// service saw naming the exported step spans, a CI parent's `TRACEPARENT`, a collector that is down, and
/// `OTEL_SDK_DISABLED`.
@Suite final class OTLPTracingTests {
    /// The folder of this test's files, removed when the test ends.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString)")
    let receiver: OTLPReceiver

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        receiver = try OTLPReceiver(output: scratch.appendingPathComponent("received.jsonl"))
    }

    deinit {
        receiver.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The token the suite sends in a query string, from the environment (so secret), and the collector's.
    static let token = "tr4ce-s3cret-7781"
    static let collectorToken = "c0llector-t0ken-5521"

    /// A suite against the receiver: `passes` (a named step whose URL holds the secret token), `fails` (run twice:
    /// `retries: 1`), both after a setup.
    func suite() throws -> String {
        let path = scratch.appendingPathComponent("traced.yaml").path
        try """
        name: Traced API
        baseURL: \(receiver.baseURL)
        setup:
          - request: {method: POST, url: /setup}
            expect: {status: 200}
        tests:
          - name: passes
            steps:
              - name: read item
                request: {url: "/items/1?token={{ env.TRACE_TOKEN }}"}
                expect: {status: 200, json: {$.ok: true}}
          - name: fails
            retries: 1
            request: {url: /items/2}
            expect: {status: 201}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `apitest run` on the suite with `environment`: the token, a CI without pipeline variables unless given.
    func run(_ environment: [String: String]) async throws -> ProcessResult {
        var env = environment
        env["TRACE_TOKEN"] = Self.token
        for name in [
            "GITHUB_ACTIONS", "GITLAB_CI", "TRACEPARENT", "TRACESTATE", "OTEL_SDK_DISABLED", "OTEL_TRACES_SAMPLER",
            "OTEL_TRACES_SAMPLER_ARG",
        ]
        where env[name] == nil {
            env[name] = ""
        }
        return try await runAPITest(["run", try suite(), "--no-color"], environment: env)
    }

    static func attributes(_ span: [String: Any]) -> [String: Any] { span["attributes"] as? [String: Any] ?? [:] }

    static func named(_ name: String, in spans: [[String: Any]]) -> [[String: Any]] {
        spans.filter { $0["name"] as? String == name }
    }

    // MARK: - The span tree

    @Test func aRunExportsItsSpanTreeAndTheServiceSawEachStepsTraceparent() async throws {
        let result = try await run([
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL,
            "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20\(Self.collectorToken)",
            "OTEL_SERVICE_NAME": "checkout-tests",
            "GITHUB_ACTIONS": "true", "GITHUB_WORKFLOW": "API checks", "GITHUB_RUN_ID": "987654",
            "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/shop",
        ])
        // `fails` fails: exit 1, and no warning about the export.
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(!result.stderr.contains("not exported"), "\(result.stderr)")
        let entries = try receiver.entries()
        #expect(entries.allSatisfy { $0["kind"] as? String != "invalid" }, "\(entries)")
        let exports = entries.filter { $0["kind"] as? String == "export" }
        #expect(!exports.isEmpty, "\(receiver.diagnostics())")
        // The default protocol, the collector's headers, the resource.
        for export in exports {
            #expect(export["contentType"] as? String == "application/x-protobuf")
            #expect(export["authorization"] as? String == "Bearer \(Self.collectorToken)")
            let resource = (export["resources"] as? [[String: Any]])?.first ?? [:]
            #expect(resource["service.name"] as? String == "checkout-tests")
        }
        let spans = try receiver.spans()
        let traceIDs = Set(spans.compactMap { $0["traceId"] as? String })
        #expect(traceIDs.count == 1)
        #expect(Set(spans.compactMap { $0["spanId"] as? String }).count == spans.count)

        // run → suite.
        let runs = Self.named("apitest run", in: spans)
        try #require(runs.count == 1)
        let run = runs[0]
        #expect(run["parentSpanId"] as? String == "")
        #expect(run["statusCode"] as? Int == 2)
        let runAttributes = Self.attributes(run)
        #expect(runAttributes["cicd.pipeline.name"] as? String == "API checks")
        #expect(runAttributes["cicd.pipeline.run.id"] as? String == "987654")
        let suites = Self.named("Traced API", in: spans)
        try #require(suites.count == 1)
        let suite = suites[0]
        #expect(suite["parentSpanId"] as? String == run["spanId"] as? String)
        #expect(Self.attributes(suite)["test.suite.name"] as? String == "Traced API")
        #expect(Self.attributes(suite)["test.suite.run.status"] as? String == "failure")

        // suite → tests: setup, passes, and fails twice (its retry), each attempt a span.
        let setup = Self.named("setup", in: spans)
        let passes = Self.named("passes", in: spans)
        let fails = Self.named("fails", in: spans)
        #expect(setup.count == 1)
        try #require(passes.count == 1)
        try #require(fails.count == 2)
        for test in setup + passes + fails {
            #expect(test["parentSpanId"] as? String == suite["spanId"] as? String)
            #expect(Self.attributes(test)["test.suite.name"] as? String == "Traced API")
        }
        #expect(Self.attributes(passes[0])["test.case.name"] as? String == "passes")
        #expect(Self.attributes(passes[0])["test.case.result.status"] as? String == "pass")
        #expect(passes[0]["statusCode"] as? Int == 0)
        #expect(fails.compactMap { Self.attributes($0)["apitest.test.attempt"] as? Int }.sorted() == [1, 2])
        for attempt in fails {
            #expect(Self.attributes(attempt)["test.case.result.status"] as? String == "fail")
            #expect(attempt["statusCode"] as? Int == 2)
            #expect((attempt["statusMessage"] as? String)?.contains("expected status 201, got 200") == true)
        }

        // tests → steps: each test's step spans are its children, client spans with the HTTP attributes.
        let testIDs = Set((setup + passes + fails).compactMap { $0["spanId"] as? String })
        let steps = spans.filter { ($0["kind"] as? Int) == 3 }
        #expect(steps.count == 4)
        for step in steps {
            #expect(testIDs.contains(step["parentSpanId"] as? String ?? ""))
            let attributes = Self.attributes(step)
            #expect(attributes["http.response.status_code"] as? Int == 200)
            #expect(attributes["server.address"] as? String == "127.0.0.1")
            #expect((attributes["url.full"] as? String)?.hasPrefix(receiver.baseURL + "/") == true)
            let start = step["start"] as? Int ?? 0
            let end = step["end"] as? Int ?? 0
            #expect(start > 0 && start <= end)
        }
        let read = try #require(Self.named("read item", in: spans).first)
        #expect(read["parentSpanId"] as? String == passes[0]["spanId"] as? String)
        #expect(Self.attributes(read)["http.request.method"] as? String == "GET")
        let failing = steps.filter { ($0["statusCode"] as? Int) == 2 }
        #expect(failing.count == 2)
        #expect(
            Set(failing.compactMap { $0["parentSpanId"] as? String })
                == Set(fails.compactMap { $0["spanId"] as? String }))

        // The secrets: the token is masked in url.full, and no secret appears anywhere in what was exported.
        let exported = String(decoding: try JSONSerialization.data(withJSONObject: spans), as: UTF8.self)
        #expect(!exported.contains(Self.token))
        #expect(!exported.contains(Self.collectorToken))
        #expect((Self.attributes(read)["url.full"] as? String)?.contains("token=") == true)

        // The service saw, on each request, a traceparent naming the run's trace and the step span that sent it.
        let requests = try receiver.requests()
        #expect(requests.count == 4)
        let trace = try #require(traceIDs.first)
        let stepIDs = Set(steps.compactMap { $0["spanId"] as? String })
        var seen = Set<String>()
        for request in requests {
            let header = try #require(request["traceparent"] as? String, "\(request)")
            let fields = header.split(separator: "-").map(String.init)
            try #require(fields.count == 4)
            #expect(fields[0] == "00")
            #expect(fields[1] == trace)
            #expect(stepIDs.contains(fields[2]))
            #expect(fields[3] == "01")
            seen.insert(fields[2])
        }
        #expect(seen == stepIDs)
        let readRequest = try #require(requests.first { ($0["path"] as? String)?.hasPrefix("/items/1") == true })
        #expect((readRequest["traceparent"] as? String)?.contains(read["spanId"] as? String ?? "?") == true)
    }

    // MARK: - A CI parent, JSON

    @Test func aCIParentsTraceparentMakesTheRunItsChildOverJSON() async throws {
        let parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
        let parentSpan = "00f067aa0ba902b7"
        let result = try await run([
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": receiver.baseURL + "/v1/traces",
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "TRACEPARENT": "00-\(parentTrace)-\(parentSpan)-01", "TRACESTATE": "ci=build-42",
        ])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let entries = try receiver.entries()
        #expect(entries.allSatisfy { $0["kind"] as? String != "invalid" }, "\(entries)")
        let exports = entries.filter { $0["kind"] as? String == "export" }
        #expect(!exports.isEmpty, "\(receiver.diagnostics())")
        #expect(exports.allSatisfy { $0["contentType"] as? String == "application/json" })
        let spans = try receiver.spans()
        #expect(spans.count == 10) // run, suite, setup, passes, fails ×2, and a step under each of the four tests
        #expect(spans.allSatisfy { $0["traceId"] as? String == parentTrace })
        #expect(spans.allSatisfy { $0["traceState"] as? String == "ci=build-42" })
        let run = try #require(Self.named("apitest run", in: spans).first)
        #expect(run["parentSpanId"] as? String == parentSpan)
        for request in try receiver.requests() {
            #expect((request["traceparent"] as? String)?.hasPrefix("00-\(parentTrace)-") == true)
            #expect(request["tracestate"] as? String == "ci=build-42")
        }
    }

    // MARK: - When nothing is exported

    @Test func aCollectorThatIsDownIsOneWarningNotAFailedRun() async throws {
        let down = try closedPort()
        let path = scratch.appendingPathComponent("passing.yaml").path
        try """
        name: Passing
        tests:
          - name: one
            request: {url: "\(receiver.baseURL)/one"}
            expect: {status: 200}
          - name: two
            request: {url: "\(receiver.baseURL)/two"}
            expect: {status: 200}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await runAPITest(
            ["run", path, "--no-color"],
            environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(down)", "OTEL_SDK_DISABLED": ""])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("not exported") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.hasPrefix("warning: apitest: ") == true)
        #expect(warnings.first?.contains("127.0.0.1:\(down)/v1/traces") == true)
        // The requests still carried their traceparent.
        let requests = try receiver.requests()
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0["traceparent"] is String })
    }

    @Test func aDisabledSDKSendsNothingAndNoTraceparent() async throws {
        let result = try await run(["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_SDK_DISABLED": "true"])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let entries = try receiver.entries()
        #expect(entries.allSatisfy { $0["kind"] as? String == "request" }, "\(entries)")
        #expect(entries.count == 4)
        #expect(entries.allSatisfy { $0["traceparent"] is NSNull || $0["traceparent"] == nil })
    }

    /// `OTEL_TRACES_SAMPLER=always_off`, and an unsampled CI parent under the default sampler
    /// (`parentbased_always_on`): no span is exported, and every request still carries `traceparent`, flagged
    /// unsampled (`-00`). The old code ignored the sampler and exported every span of both runs.
    @Test func anUnsampledTraceExportsNoSpanAndItsRequestsSaySo() async throws {
        let off = try await run(["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_TRACES_SAMPLER": "always_off"])
        #expect(off.exitCode == 1, "\(off.stdout)\n\(off.stderr)")
        let parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
        let unsampledParent = try await run([
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "TRACEPARENT": "00-\(parentTrace)-00f067aa0ba902b7-00",
        ])
        #expect(unsampledParent.exitCode == 1, "\(unsampledParent.stdout)\n\(unsampledParent.stderr)")
        let entries = try receiver.entries()
        #expect(entries.allSatisfy { $0["kind"] as? String == "request" }, "\(entries)")
        // setup, passes, fails twice: for each run.
        let requests = try receiver.requests()
        #expect(requests.count == 8, "\(entries)")
        for request in requests {
            let traceparent = request["traceparent"] as? String ?? ""
            #expect(traceparent.hasPrefix("00-") && traceparent.hasSuffix("-00"), "\(request)")
        }
        #expect(requests.suffix(4).allSatisfy { ($0["traceparent"] as? String)?.contains(parentTrace) == true })
    }

    /// A collector that accepts the connection and never answers holds the exit for the export timeout
    /// (`OTEL_EXPORTER_OTLP_TIMEOUT`) at most: one warning saying the export timed out, the tests' exit code. The
    /// traces endpoint is used as it is (no `/v1/traces` added).
    @Test func aCollectorThatNeverAnswersIsCutByTheExportTimeout() async throws {
        let fault = try FaultServer()
        defer { fault.stop() }
        let path = scratch.appendingPathComponent("passing.yaml").path
        try """
        name: Passing
        tests:
          - name: one
            request: {url: "\(receiver.baseURL)/one"}
            expect: {status: 200}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await runAPITest(
            ["run", path, "--no-color"],
            environment: [
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": fault.baseURL + "/stall", "OTEL_EXPORTER_OTLP_TIMEOUT": "500",
                "OTEL_SDK_DISABLED": "", "OTEL_TRACES_SAMPLER": "", "TRACEPARENT": "",
            ])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("not exported") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(
            warnings.first?.contains("spans not exported to \(fault.baseURL)/stall: timed out") == true, "\(warnings)")
    }

    @Test func gRPCIsAUsageErrorBeforeAnythingIsSent() async throws {
        let result = try await run([
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ])
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(
            result.stderr.contains("error: OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' is not supported"), "\(result.stderr)")
        #expect(try receiver.entries().isEmpty)
    }
}
