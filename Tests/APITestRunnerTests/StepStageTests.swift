import APITestHTTP
import APITestJSON
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// A clock that never sleeps: it records each wait asked of it and moves its time on by it at once.
final class ManualClock: RunClock {
    private let state: Mutex<(now: ContinuousClock.Instant, sleeps: [Duration])>

    init() {
        state = Mutex((ContinuousClock.now, []))
    }

    var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The waits asked so far, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(duration)
            $0.now += duration
        }
    }
}

/// Each stage of a step's attempt on its own, through `ScriptedTransport` and a manual clock: preparation and its
/// masker, sending with token renewal, checking with the decode budget, captures, the retry loop's waits, and the
/// draft sealed at the end. No server, no socket, no sleeping.
@Suite struct StepStageTests {
    static let here = SourceLocation(file: "suite.yaml", line: 1, column: 1)

    /// The executor, the suite's runtime and its first test's first step.
    struct Fixture {
        var executor: TestExecutor
        var runtime: SuiteRuntime
        var step: Step
        var clock: ManualClock
    }

    static func fixture(
        _ yaml: String, environment: [String: String] = [:], transport: ScriptedTransport,
        options: RunOptions = RunOptions(jobs: 1), resultDetail: ResultDetail = .everyStep
    ) throws -> Fixture {
        let suite = try SuiteLoader(environment: environment).load(source: yaml, file: "suite.yaml")
        let clock = ManualClock()
        let executor = TestExecutor(
            transport: transport, options: options, resultDetail: resultDetail, clock: clock)
        let runtime = SuiteRuntime(suite: suite, userAgent: "apitest-tests")
        return Fixture(executor: executor, runtime: runtime, step: suite.tests[0].steps[0], clock: clock)
    }

    // MARK: - Prepare

    @Test func preparationBuildsTheRequestAndAMaskerThatKnowsItsCredentials() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request: {url: "http://api.test/a", auth: {basic: {user: ann, password: "pass-w0rd-42"}}}
            """, transport: transport)
        let preparation = StepPreparation(
            executor: fixture.executor, step: fixture.step, index: 0, runtime: fixture.runtime, until: nil)
        guard case .ready(let prepared) = await preparation.run(context: fixture.runtime.context) else {
            Issue.record("the request should be ready")
            return
        }
        #expect(prepared.request.url == "http://api.test/a")
        #expect(prepared.masker.mask("echo pass-w0rd-42") == "echo \(SecretMasker.mask)")
        #expect(prepared.command == nil, "a run that does not record every request makes no command up front")
        #expect(transport.requests.isEmpty, "preparing sends nothing")
    }

    @Test func aRequestThatCannotBeBuiltEndsThePreparationWithATemplateError() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                steps:
                  - request: {url: "http://api.test/a"}
                    capture: {id: {jsonpath: $.id}}
                  - request: {url: "http://api.test/{{ id }}"}
            """, transport: transport)
        let step = fixture.runtime.suite.tests[0].steps[1]
        let preparation = StepPreparation(
            executor: fixture.executor, step: step, index: 1, runtime: fixture.runtime, until: nil)
        guard case .ended(let draft, let status, _) = await preparation.run(context: fixture.runtime.context) else {
            Issue.record("an undefined variable cannot be sent")
            return
        }
        #expect(status == .errored)
        #expect(draft.error?.kind == .template && draft.error?.undefinedVariable == "id")
        #expect(draft.exchange == nil)
    }

    // MARK: - Send

    @Test func aRefusedTokenIsRenewedOnceAndTheRequestSentAgain() async throws {
        let issued = Atomic<Int>(0)
        let transport = ScriptedTransport { request, _ in
            if request.url.hasSuffix("/token") {
                let number = issued.wrappingAdd(1, ordering: .relaxed).newValue
                return ScriptedTransport.response(
                    to: request, body: #"{"access_token":"tok-\#(number)-abcdefgh","token_type":"Bearer"}"#)
            }
            if request.headers["Authorization"] == "Bearer tok-1-abcdefgh" {
                return ScriptedTransport.response(
                    to: request, status: 401, headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
            }
            return ScriptedTransport.response(to: request)
        }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request:
                  url: "http://api.test/me"
                  auth: {oauth2: {flow: clientCredentials, tokenURL: "http://auth.test/token", clientId: c, clientSecret: "client-s3cret-value"}}
            """, transport: transport)
        let attempt = StepAttempt(
            executor: fixture.executor, step: fixture.step, index: 0, testName: "t", runtime: fixture.runtime,
            until: nil, retrying: false)
        let outcome = await attempt.run(context: fixture.runtime.context)
        #expect(outcome.status == .passed)
        #expect(transport.paths == ["/token", "/me", "/token", "/me"])
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer tok-2-abcdefgh")
        // Both tokens are secrets of the attempt: the sealed exchange shows neither.
        #expect(outcome.sealer.mask("tok-1-abcdefgh tok-2-abcdefgh") == "\(SecretMasker.mask) \(SecretMasker.mask)")
    }

    @Test func aTransferFailureEndsTheSendingWithItsKindAndTheRequest() async throws {
        let transport = ScriptedTransport { _, _ in
            throw HTTPError(.connectionRefused, .curl(code: 7, errorBuffer: "Connection refused"))
        }
        let fixture = try Self.fixture(
            "tests:\n  - {name: t, request: {url: 'http://down.test/a'}}\n", transport: transport)
        let preparation = StepPreparation(
            executor: fixture.executor, step: fixture.step, index: 0, runtime: fixture.runtime, until: nil)
        guard case .ready(var prepared) = await preparation.run(context: fixture.runtime.context) else {
            Issue.record("the request should be ready")
            return
        }
        let sending = StepSending(
            executor: fixture.executor, step: fixture.step, index: 0, testName: "t", runtime: fixture.runtime,
            retrying: false)
        guard case .ended(let draft, let status) = await sending.run(&prepared) else {
            Issue.record("a refused connection has no response")
            return
        }
        #expect(status == .errored)
        #expect(draft.error?.kind == .transfer(.connectionRefused))
        #expect(draft.exchange?.url == "http://down.test/a" && draft.exchange?.statusCode == nil)
    }

    // MARK: - Check and capture

    @Test func checkingReservesTheDecodeBudgetForALargeBodyAndGivesItBack() async throws {
        let large = "{\"items\":\"" + String(repeating: "x", count: 2 << 20) + "\"}"
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, body: large) }
        var options = RunOptions(jobs: 1)
        options.decodeMemoryBudget = 64 << 20
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request: {url: "http://api.test/big"}
                expect: {json: {$.items: {exists: true}}}
            """, transport: transport, options: options)
        let outcome = await StepAttempt(
            executor: fixture.executor, step: fixture.step, index: 0, testName: "t", runtime: fixture.runtime,
            until: nil, retrying: false
        ).run(context: fixture.runtime.context)
        #expect(outcome.status == .passed)
        let budget = fixture.executor.decodeBudget
        #expect(await budget.peak == budget.cost(ofBody: large.utf8.count))
        // Given back: the whole budget can be reserved again at once.
        await budget.reserve(budget.capacity)
        await budget.release(budget.capacity)
    }

    @Test func untilIsCheckedBeforeExpectAndSaysWhetherItHeld() async throws {
        let transport = ScriptedTransport { request, _ in
            ScriptedTransport.response(to: request, body: #"{"state":"done","n":1}"#)
        }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request: {url: "http://api.test/job"}
                retry: {attempts: 3, interval: 1s, until: {json: {$.state: done}}}
                expect: {json: {$.n: 2}}
            """, transport: transport)
        let response = try await transport.perform(HTTPRequest(method: "GET", url: "http://api.test/job"))
        let preparation = StepPreparation(
            executor: fixture.executor, step: fixture.step, index: 0, runtime: fixture.runtime,
            until: fixture.step.retry?.until)
        guard case .ready(let prepared) = await preparation.run(context: fixture.runtime.context) else {
            Issue.record("the request should be ready")
            return
        }
        let checked = await StepChecking(
            executor: fixture.executor, step: fixture.step, runtime: fixture.runtime, until: fixture.step.retry?.until
        ).run(response, prepared)
        #expect(checked.untilHeld)
        #expect(checked.failures.map(\.subject) == ["$.n"], "expect is checked once until holds")
        #expect(checked.captured.isEmpty)
    }

    @Test func capturesGoIntoACopyOfTheContextAndAMissingOneFails() async throws {
        let transport = ScriptedTransport { request, _ in
            ScriptedTransport.response(to: request, body: #"{"id":7,"token":"tok-s3cret-1234"}"#)
        }
        let fixture = try Self.fixture(
            """
            variables: {key: "{{ env.KEY }}"}
            tests:
              - name: t
                request: {url: "http://api.test/a", headers: {X-Key: "{{ key }}"}}
                capture: {id: {jsonpath: $.id}, token: {jsonpath: $.token}, missing: {jsonpath: $.nothing}}
            """, environment: ["KEY": "tok-s3cret-1234"], transport: transport)
        let start = fixture.runtime.context
        let outcome = await StepAttempt(
            executor: fixture.executor, step: fixture.step, index: 0, testName: "t", runtime: fixture.runtime,
            until: nil, retrying: false
        ).run(context: start)
        #expect(outcome.status == .failed)
        #expect(outcome.draft.captured == ["id", "token"])
        #expect(outcome.draft.failures.map(\.subject) == ["capture missing"])
        #expect(outcome.context["id"] == .integer(7))
        #expect(outcome.context.isSecret("token"), "a value holding a secret is captured as a secret")
        #expect(!outcome.context.isSecret("id"))
        #expect(start["id"] == nil, "the context the stage was given is unchanged")
    }

    @Test func theContractIsCheckedAfterExpectAndAnUndeclaredRequestIsAWarning() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            """
            openapi: 3.1.0
            info: {title: pets, version: "1"}
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                  responses:
                    "200":
                      description: a pet
                      content:
                        application/json:
                          schema: {type: object, required: [id], properties: {id: {type: integer}}}
            """.utf8
        ).write(to: folder.appendingPathComponent("api.yaml"))
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, body: #"{"id":"7"}"#)
        }
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                openapi: {file: api.yaml, server: "http://api.test"}
                tests:
                  - {name: pet, request: {url: "http://api.test/pets/7"}, expect: {status: 200}}
                  - {name: other, request: {url: "http://api.test/owners"}, expect: {status: 200}}
                """, file: folder.appendingPathComponent("suite.yaml").path)
        // Through a run, whose coverage counts the suite's contract (an unmatched request is reported once).
        let results = RunnerTransportTests.Results()
        _ = await Runner(transport: transport, options: RunOptions(jobs: 1), clock: ManualClock())
            .run([suite], reporter: results)
        let pet = try #require(results.named("pet")?.steps.first)
        #expect(results.named("pet")?.status == .failed, "the body breaks the schema though expect held")
        #expect(pet.failures.count == 1)
        #expect(pet.failures.first?.message.contains("getPet") == true, "\(pet.failures)")
        let other = try #require(results.named("other")?.steps.first)
        #expect(results.named("other")?.status == .passed)
        #expect(other.warnings.count == 1)
        #expect(other.warnings.first?.message.hasPrefix("GET /owners matches no operation in ") == true)
    }

    // MARK: - Retry on the clock

    @Test func retriesWaitOnTheClockWithoutSleeping() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, status: 500) }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request: {url: "http://api.test/flaky"}
                retry: {attempts: 4, interval: 30s}
            """, transport: transport)
        let began = ContinuousClock.now
        var context = fixture.runtime.context
        let (result, status) = await fixture.executor.run(
            fixture.step, index: 0, testName: "t", runtime: fixture.runtime, context: &context)
        #expect(ContinuousClock.now - began < .seconds(20), "no real waiting")
        #expect(status == .failed)
        #expect(result.attempts == 4)
        #expect(fixture.clock.sleeps == [.seconds(30), .seconds(30), .seconds(30)])
        #expect(result.failures.first?.message == "the step still fails after 4 attempts, 30.0 s apart")
    }

    @Test func pollingStopsWaitingOnceUntilHolds() async throws {
        let transport = ScriptedTransport { request, index in
            ScriptedTransport.response(to: request, body: index < 2 ? #"{"state":"pending"}"# : #"{"state":"done"}"#)
        }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request: {url: "http://api.test/job"}
                retry: {attempts: 10, interval: 5s, until: {json: {$.state: done}}}
            """, transport: transport)
        var context = fixture.runtime.context
        let (result, status) = await fixture.executor.run(
            fixture.step, index: 0, testName: "t", runtime: fixture.runtime, context: &context)
        #expect(status == .passed)
        #expect(result.attempts == 3)
        #expect(fixture.clock.sleeps == [.seconds(5), .seconds(5)])
    }

    @Test func aTestIsTimedOnTheExecutorsClock() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, status: 503) }
        let fixture = try Self.fixture(
            """
            tests:
              - name: t
                request: {url: "http://api.test/a"}
                retry: {attempts: 3, interval: 1m}
            """, transport: transport)
        let result = await fixture.executor.run(fixture.runtime.suite.tests[0], in: fixture.runtime)
        #expect(result.status == .failed)
        #expect(result.duration >= .seconds(120) && result.duration < .seconds(140))
    }

    @Test func aRunWaitsAndIsTimedOnTheRunnersClock() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request, status: 500) }
        let suite = try SuiteLoader(environment: [:]).load(
            source: """
                tests:
                  - {name: a, request: {url: "http://api.test/a"}, retry: {attempts: 3, interval: 10m}}
                """, file: "suite.yaml")
        let clock = ManualClock()
        let results = RunnerTransportTests.Results()
        let summary = await Runner(transport: transport, options: RunOptions(jobs: 1), clock: clock)
            .run([suite], reporter: results)
        #expect(summary.failed == 1)
        #expect(clock.sleeps == [.seconds(600), .seconds(600)])
        #expect(summary.duration >= .seconds(1200) && summary.duration < .seconds(1300))
        #expect(results.named("a")?.duration ?? .zero >= .seconds(1200))
    }

    // MARK: - Sealing

    @Test func theAttemptsDraftHoldsTheSecretAndItsSealedResultDoesNot() async throws {
        let secret = "env-s3cret-value-99"
        let transport = ScriptedTransport { request, _ in
            ScriptedTransport.response(
                to: request, status: 400, body: #"{"echo":"\#(secret)"}"#, headers: [("X-Echo", secret)])
        }
        let fixture = try Self.fixture(
            """
            variables: {token: "{{ env.TOKEN }}"}
            tests:
              - name: t
                request: {url: "http://api.test/a?key={{ token }}", headers: {X-Token: "{{ token }}"}}
                expect: {status: 200, json: {$.echo: "nope"}}
            """, environment: ["TOKEN": secret], transport: transport)
        let outcome = await StepAttempt(
            executor: fixture.executor, step: fixture.step, index: 0, testName: "t", runtime: fixture.runtime,
            until: nil, retrying: false
        ).run(context: fixture.runtime.context)
        #expect(outcome.status == .failed)
        #expect(outcome.draft.exchange?.url.contains(secret) == true, "the draft is raw")
        let sealed = outcome.draft.sealed(by: outcome.sealer)
        let json = String(decoding: try JSONEncoder().encode(sealed), as: UTF8.self)
        #expect(!json.contains(secret), "\(json)")
        #expect(json.contains(SecretMasker.mask))
        #expect(sealed.failures.count == 2)
    }
}
