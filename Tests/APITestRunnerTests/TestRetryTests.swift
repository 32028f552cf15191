import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// Whole-test retries (`--retries N`, a test's `retries:`) on a scripted transport: a test that fails and then
/// passes is flaky with every attempt kept, one that never passes is failed with its attempts, and a step's
/// `retry:` stays the step's own.
@Suite struct TestRetryTests {
    /// Keeps every finished test result.
    final class Results: Reporter {
        private let results = Mutex<[TestResult]>([])
        func handle(_ event: RunEvent) {
            if case .testFinished(let result) = event { results.withLock { $0.append(result) } }
        }
        var all: [TestResult] { results.withLock { $0 } }
        func named(_ name: String) -> TestResult? { all.first { $0.name == name } }
    }

    private func run(
        _ yaml: String, retries: Int = 0, on transport: ScriptedTransport
    ) async throws -> (RunSummary, Results) {
        let suite = try SuiteLoader(environment: [:]).load(source: yaml, file: "suite.yaml")
        let results = Results()
        var options = RunOptions(jobs: 1)
        options.retries = retries
        let summary = await Runner(transport: transport, options: options).run([suite], reporter: results)
        return (summary, results)
    }

    /// Answers 500 to the first `failures` requests to each path, 200 after.
    private func failingFirst(_ failures: Int) -> ScriptedTransport {
        let counts = Mutex<[String: Int]>([:])
        return ScriptedTransport { request, _ in
            let seen = counts.withLock { counts in
                let path = URLComponents(string: request.url)?.path ?? request.url
                counts[path, default: 0] += 1
                return counts[path]!
            }
            return ScriptedTransport.response(to: request, status: seen <= failures ? 500 : 200)
        }
    }

    @Test func aTestThatFailsThenPassesIsFlakyWithItsEarlierAttempt() async throws {
        let transport = failingFirst(1)
        let (summary, results) = try await run(
            """
            tests:
              - name: sometimes
                steps:
                  - request: {url: "http://api.test/first"}
                    expect: {status: 200}
                  - request: {url: "http://api.test/second"}
                    expect: {status: 200}
            """, retries: 2, on: transport)
        let result = try #require(results.named("sometimes"))
        #expect(result.status == .passed)
        #expect(result.isFlaky)
        // Run 1 fails on its first step; run 2 passes it and fails on the second (its first request); run 3 passes.
        // Each run is the whole test again, from its first step.
        #expect(result.earlierAttempts.count == 2)
        #expect(result.earlierAttempts.map(\.status) == [.failed, .failed])
        #expect(result.earlierAttempts.first?.steps.count == 1)
        #expect(result.earlierAttempts.last?.steps.count == 2)
        #expect(result.earlierAttempts.first?.failures.first?.message.contains("500") == true)
        #expect(result.steps.count == 2)
        #expect(transport.paths == ["/first", "/first", "/second", "/first", "/second"])
        #expect(summary.flaky == 1 && summary.passed == 0 && summary.failed == 0)
        #expect(!summary.succeeded)
        #expect(summary.succeeded(flakyFails: false))
    }

    @Test func aTestThatNeverPassesFailsAfterItsRetriesWithEveryAttempt() async throws {
        let transport = failingFirst(100)
        let (summary, results) = try await run(
            """
            tests:
              - name: broken
                request: {url: "http://api.test/x"}
                expect: {status: 200}
            """, retries: 2, on: transport)
        let result = try #require(results.named("broken"))
        #expect(result.status == .failed)
        #expect(!result.isFlaky)
        #expect(result.attemptCount == 3)
        #expect(transport.paths.count == 3)
        #expect(summary.failed == 1 && summary.flaky == 0)
    }

    @Test func aTestsOwnRetriesWinOverTheRunsAndZeroRunsOnce() async throws {
        let transport = failingFirst(1)
        let (summary, results) = try await run(
            """
            tests:
              - name: own
                retries: 1
                request: {url: "http://api.test/own"}
                expect: {status: 200}
              - name: none
                retries: 0
                request: {url: "http://api.test/none"}
                expect: {status: 200}
            """, retries: 5, on: transport)
        #expect(results.named("own")?.isFlaky == true)
        #expect(results.named("none")?.status == .failed)
        #expect(results.named("none")?.earlierAttempts.isEmpty == true)
        #expect(transport.paths.filter { $0 == "/none" }.count == 1)
        #expect(summary.flaky == 1 && summary.failed == 1)
    }

    @Test func withoutRetriesAFailedTestRunsOnceAndAPassedOneIsNotRerun() async throws {
        let transport = failingFirst(1)
        let (summary, results) = try await run(
            """
            tests:
              - name: once
                request: {url: "http://api.test/once"}
                expect: {status: 200}
            """, on: transport)
        #expect(results.named("once")?.status == .failed)
        #expect(transport.paths == ["/once"])
        #expect(summary.failed == 1)

        let passing = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let (passed, _) = try await run(
            """
            tests:
              - name: fine
                request: {url: "http://api.test/fine"}
            """, retries: 3, on: passing)
        #expect(passing.paths == ["/fine"])
        #expect(passed.passed == 1 && passed.flaky == 0)
    }

    @Test func aStepsRetryStaysInsideOneAttemptOfTheTest() async throws {
        // The step's own retry absorbs the first 500: the test passes on its first run, not flaky.
        let transport = failingFirst(1)
        let (summary, results) = try await run(
            """
            tests:
              - name: polled
                request: {url: "http://api.test/poll"}
                retry: {attempts: 3, interval: 1ms}
                expect: {status: 200}
            """, retries: 2, on: transport)
        let result = try #require(results.named("polled"))
        #expect(result.status == .passed && !result.isFlaky)
        #expect(result.steps.first?.attempts == 2)
        #expect(summary.passed == 1)
    }

    /// The diagnostics of loading `yaml`; empty when it loads.
    private func diagnostics(_ yaml: String) -> [Diagnostic] {
        do {
            _ = try SuiteLoader(environment: [:]).load(source: yaml, file: "suite.yaml")
            return []
        } catch let error as SuiteLoadError {
            return error.diagnostics
        } catch {
            return []
        }
    }

    @Test func retriesThatAreNotAWholeNumberUpTo100AreLocatedErrors() {
        for value in ["101", "many", "-1"] {
            let found = diagnostics(
                """
                tests:
                  - name: t
                    retries: \(value)
                    request: {url: "http://api.test/"}
                """)
            #expect(found.count == 1, "\(value): \(found.map(\.message))")
            #expect(found.first?.message.contains("retries") == true, "\(value)")
            #expect(found.first?.location.line == 3, "\(value)")
        }
        #expect(diagnostics("tests:\n  - name: t\n    retries: 3\n    request: {url: \"http://api.test/\"}\n").isEmpty)
    }
}
