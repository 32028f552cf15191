import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// The runner on a scripted transport: retries and `until`, setup shared by concurrent tests, teardown after an
/// interruption, failing fast on an unreachable host, and masking before truncating. No server, no socket.
@Suite struct RunnerTransportTests {
    /// Keeps every finished test result.
    final class Results: Reporter {
        private let results = Mutex<[TestResult]>([])
        func handle(_ event: RunEvent) {
            if case .testFinished(let result) = event { results.withLock { $0.append(result) } }
        }
        var all: [TestResult] { results.withLock { $0 } }
        func named(_ name: String) -> TestResult? { all.first { $0.name == name } }
    }

    private func suite(_ yaml: String, environment: [String: String] = [:]) throws -> Suite {
        try SuiteLoader(environment: environment).load(source: yaml, file: "suite.yaml")
    }

    private func run(
        _ suite: Suite, on transport: ScriptedTransport, jobs: Int = 1
    ) async -> (RunSummary, Results) {
        let results = Results()
        var options = RunOptions(jobs: jobs)
        options.failFastUnreachable = true
        let summary = await Runner(transport: transport, options: options).run([suite], reporter: results)
        return (summary, results)
    }

    // MARK: - Retry and until

    @Test func aStepPollsUntilItsConditionHolds() async throws {
        let transport = ScriptedTransport { request, index in
            ScriptedTransport.response(to: request, body: index < 2 ? #"{"state":"pending"}"# : #"{"state":"done"}"#)
        }
        let suite = try suite(
            """
            tests:
              - name: poll
                request: {url: "http://api.test/job"}
                retry: {attempts: 5, interval: 1ms, until: {json: {$.state: done}}}
                expect: {status: 200}
            """)
        let (summary, results) = await run(suite, on: transport)
        #expect(summary.passed == 1)
        #expect(transport.paths == ["/job", "/job", "/job"])
        #expect(results.named("poll")?.steps.first?.attempts == 3)
    }

    @Test func pollingGivesUpAfterItsAttemptsAndSaysWhy() async throws {
        let transport = ScriptedTransport { request, _ in
            ScriptedTransport.response(to: request, body: #"{"state":"pending"}"#)
        }
        let suite = try suite(
            """
            tests:
              - name: poll
                request: {url: "http://api.test/job"}
                retry: {attempts: 3, interval: 1ms, until: {json: {$.state: done}}}
            """)
        let (summary, results) = await run(suite, on: transport)
        #expect(summary.failed == 1)
        #expect(transport.requests.count == 3)
        let message = results.named("poll")?.failures.first?.message
        #expect(message == "'until' never held after 3 attempts, 1.0 ms apart", "\(message ?? "none")")
    }

    @Test func aRequestThatCannotBeBuiltIsNotRetried() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let suite = try suite(
            """
            tests:
              - name: capture missing
                steps:
                  - request: {url: "http://api.test/a"}
                    capture: {id: {jsonpath: $.id}}
            """)
        let (summary, _) = await run(suite, on: transport)
        #expect(summary.failed == 1)
        #expect(transport.requests.count == 1)
    }

    // MARK: - Setup and teardown

    @Test func concurrentTestsWaitForOneSetupAndSeeItsCaptures() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.url.hasSuffix("/login") {
                try await Task.sleep(for: .milliseconds(50))
                return ScriptedTransport.response(to: request, body: #"{"token":"t0k"}"#)
            }
            let sent = request.headers["X-Token"] ?? "none"
            return ScriptedTransport.response(to: request, body: "{\"sent\":\"\(sent)\"}")
        }
        let suite = try suite(
            """
            setup:
              - request: {url: "http://api.test/login"}
                capture: {token: {jsonpath: $.token}}
            tests:
              - {name: a, request: {url: "http://api.test/a", headers: {X-Token: "{{ token }}"}}, expect: {json: {$.sent: t0k}}}
              - {name: b, request: {url: "http://api.test/b", headers: {X-Token: "{{ token }}"}}, expect: {json: {$.sent: t0k}}}
              - {name: c, request: {url: "http://api.test/c", headers: {X-Token: "{{ token }}"}}, expect: {json: {$.sent: t0k}}}
            """)
        let (summary, _) = await run(suite, on: transport, jobs: 3)
        #expect(summary.passed == 4, "setup and three tests")
        #expect(transport.paths.first == "/login")
        #expect(transport.paths.filter { $0 == "/login" }.count == 1)
        #expect(Set(transport.paths.dropFirst()) == ["/a", "/b", "/c"])
        // Every test's own cookie jar, and the suite's, is released.
        #expect(transport.closedJars.count == 4)
    }

    @Test func teardownRunsAfterAnInterruption() async throws {
        let (slowStarted, signal) = AsyncStream<Void>.makeStream()
        let transport = ScriptedTransport { request, _ in
            if request.url.hasSuffix("/slow") {
                signal.yield()
                try await Task.sleep(for: .seconds(60))
            }
            return ScriptedTransport.response(to: request)
        }
        let suite = try suite(
            """
            setup:
              - request: {url: "http://api.test/setup"}
            tests:
              - name: slow
                request: {url: "http://api.test/slow"}
            teardown:
              - request: {url: "http://api.test/teardown"}
            """)
        let results = Results()
        let run = Task {
            await Runner(transport: transport, options: RunOptions(jobs: 1)).run([suite], reporter: results)
        }
        // Interrupt once the test's request is in flight (however long a loaded machine takes to get there).
        for await _ in slowStarted { break }
        run.cancel()
        let summary = await run.value
        #expect(summary.interrupted)
        #expect(transport.paths == ["/setup", "/slow", "/teardown"])
        #expect(results.named("slow")?.status == .cancelled)
        #expect(results.named("teardown")?.status == .passed)
    }

    // MARK: - Upload progress

    @Test func uploadProgressArrivesInOrderAndBeforeTheResult() async throws {
        final class Events: Reporter {
            private let log = Mutex<[String]>([])
            func handle(_ event: RunEvent) {
                switch event {
                case .uploadProgress(_, _, let sent, _): log.withLock { $0.append("progress \(sent)") }
                case .testFinished(let result): log.withLock { $0.append("finished \(result.name)") }
                default: break
                }
            }
            var all: [String] { log.withLock { $0 } }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("body".utf8).write(to: folder.appendingPathComponent("upload.bin"))
        let total: Int64 = 8 << 20
        let transport = ScriptedTransport { request, _ in
            // The transfer thread's ticks, as fast as libcurl would give them.
            for step in 1...200 { request.uploadProgress?(total * Int64(step) / 200, total) }
            return ScriptedTransport.response(to: request)
        }
        let suite = try SuiteLoader(environment: [:]).load(
            source: "tests:\n  - {name: up, request: {method: PUT, url: 'http://h.test/u', bodyFile: upload.bin}}\n",
            file: folder.appendingPathComponent("suite.yaml").path)
        let events = Events()
        let summary = await Runner(transport: transport, options: RunOptions(jobs: 1)).run([suite], reporter: events)
        #expect(summary.passed == 1)
        let log = events.all
        #expect(log.last == "finished up")
        let sent = log.dropLast().map { Int64($0.dropFirst("progress ".count))! }
        #expect(!sent.isEmpty)
        #expect(sent == sent.sorted(), "ticks out of order: \(sent)")
        #expect(sent.last == total, "the last tick is delivered before the result")
    }

    // MARK: - Unreachable hosts

    @Test func testsOfAnUnreachableHostErrorAtOnceAfterTheFirst() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.url.contains("down.test") {
                // 7 is libcurl's CURLE_COULDNT_CONNECT.
                var refused = HTTPError(.connectionRefused, .curl(code: 7, errorBuffer: "Connection refused"))
                refused.failedToConnect = true
                throw refused
            }
            return ScriptedTransport.response(to: request)
        }
        let suite = try suite(
            """
            tests:
              - {name: first, request: {url: "http://down.test:81/a"}}
              - {name: second, request: {url: "http://down.test:81/b"}}
              - {name: other host, request: {url: "http://up.test/c"}}
              - {name: third, request: {url: "http://down.test:81/d"}}
            """)
        let (summary, results) = await run(suite, on: transport)
        #expect(summary.errored == 3)
        #expect(summary.passed == 1)
        #expect(transport.paths == ["/a", "/c"], "only the first request to the host is sent")
        #expect(results.named("first")?.error?.kind == .transfer(.connectionRefused))
        let second = results.named("second")?.error
        #expect(second?.kind == .unreachable)
        #expect(second?.message.contains("down.test:81 was unreachable (connection refused) since") == true)
    }

    // MARK: - Masking

    @Test func failureValuesAreMaskedBeforeTheyAreCut() async throws {
        let secret = "s3cr3t-T0KEN-value"
        // The secret straddles the 120-character cut of a value in a failure message.
        let padding = String(repeating: "x", count: 110)
        let transport = ScriptedTransport { request, _ in
            ScriptedTransport.response(
                to: request, body: "\(padding)\(secret)\(padding)", contentType: "text/plain")
        }
        let suite = try suite(
            """
            variables: {token: "{{ env.TOKEN }}"}
            tests:
              - name: echo
                request: {url: "http://api.test/echo", headers: {X-Token: "{{ token }}"}}
                expect: {body: {equals: "something else"}}
            """, environment: ["TOKEN": secret])
        let (_, results) = await run(suite, on: transport)
        let failure = try #require(results.named("echo")?.failures.first)
        for text in [failure.message, failure.actual ?? ""] {
            #expect(!text.contains("s3cr"), "\(text)")
            #expect(text.contains("•••••") || text.count < 120 + padding.count, "\(text)")
        }
        #expect(failure.actual?.contains(padding + "•••••" + padding) == true)
        let exchange = try #require(results.named("echo")?.steps.first?.exchange)
        #expect(exchange.requestHeaders.first { $0.name == "X-Token" }?.value == "•••••")
    }
}
