import APITestHTTP
import APITestSuite
import APITestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestAuth

/// The run's OAuth2 tokens: the state machine's transitions, single flight under concurrency, renewal, the kept
/// failure, and how a token endpoint's answer and a server's challenge are read.
@Suite struct OAuth2TokenStoreTests {
    static let grant = OAuth2Grant(
        flow: .clientCredentials, tokenURL: "https://idp.example.test/token", clientID: "app",
        clientSecret: "client-secret-1", scope: nil, audience: nil, username: nil, password: nil, refreshToken: nil,
        clientAuthentication: .basic)

    static func token(_ name: String, refresh: String? = nil, renewAt: ContinuousClock.Instant? = nil) -> OAuth2Token {
        OAuth2Token(accessToken: name, refreshToken: refresh, renewAt: renewAt)
    }

    static let failure = OAuth2Failure(
        reason: .refused(status: 500, error: "server_error", description: "down"), tokenURL: "https://idp/token",
        grantType: "client_credentials")

    // MARK: - State machine

    @Test func theFirstStepFetchesAndTheOthersJoin() {
        var machine = OAuth2TokenStore.StateMachine()
        let now = ContinuousClock.now
        #expect(machine.tokenNeeded(at: now) == .fetch(.grant))
        #expect(machine.tokenNeeded(at: now) == .join)
        let issued = Self.token("t1", renewAt: now + .seconds(10))
        #expect(machine.fetchFinished(.grant, .success(issued)) == .done(.success(issued)))
        #expect(machine.tokenNeeded(at: now + .seconds(9)) == .use(issued))
    }

    @Test func aTokenDueForRenewalIsRefreshedWithItsRefreshTokenElseGrantedAgain() {
        let now = ContinuousClock.now
        var machine = OAuth2TokenStore.StateMachine()
        _ = machine.tokenNeeded(at: now)
        _ = machine.fetchFinished(.grant, .success(Self.token("t1", refresh: "r1", renewAt: now + .seconds(1))))
        #expect(machine.tokenNeeded(at: now + .seconds(1)) == .fetch(.refresh("r1")))
        #expect(machine.tokenNeeded(at: now + .seconds(1)) == .join)

        var plain = OAuth2TokenStore.StateMachine()
        _ = plain.tokenNeeded(at: now)
        _ = plain.fetchFinished(.grant, .success(Self.token("t1", renewAt: now + .seconds(1))))
        #expect(plain.tokenNeeded(at: now + .seconds(2)) == .fetch(.grant))
    }

    @Test func aFailedRefreshAsksForTheGrantOnceThenTheFailureIsKept() {
        let now = ContinuousClock.now
        var machine = OAuth2TokenStore.StateMachine()
        _ = machine.tokenNeeded(at: now)
        _ = machine.fetchFinished(.grant, .success(Self.token("t1", refresh: "r1", renewAt: now)))
        #expect(machine.tokenNeeded(at: now) == .fetch(.refresh("r1")))
        #expect(machine.fetchFinished(.refresh("r1"), .failure(Self.failure)) == .fetchAgain(.grant))
        #expect(machine.fetchFinished(.grant, .failure(Self.failure)) == .done(.failure(Self.failure)))
        #expect(machine.tokenNeeded(at: now) == .fail(Self.failure))
        #expect(machine.tokenNeeded(at: now + .seconds(3600)) == .fail(Self.failure))
    }

    @Test func aRejectedTokenIsRenewedOnceHoweverManyStepsReportIt() {
        let now = ContinuousClock.now
        var machine = OAuth2TokenStore.StateMachine()
        _ = machine.tokenNeeded(at: now)
        let first = Self.token("t1")
        _ = machine.fetchFinished(.grant, .success(first))
        #expect(machine.tokenRejected(first, at: now) == .fetch(.grant))
        // A second step refused the same token while the renewal is under way: it waits for that renewal.
        #expect(machine.tokenRejected(first, at: now) == .join)
        let second = Self.token("t2")
        _ = machine.fetchFinished(.grant, .success(second))
        // A step that was refused the old token after the renewal gets the new one, no new request.
        #expect(machine.tokenRejected(first, at: now) == .use(second))
    }

    @Test func anInterruptedRequestLeavesNoFailureBehind() {
        let now = ContinuousClock.now
        var machine = OAuth2TokenStore.StateMachine()
        #expect(machine.tokenNeeded(at: now) == .fetch(.grant))
        #expect(
            machine.fetchFinished(.grant, .failure(Self.failure), interrupted: true) == .done(.failure(Self.failure)))
        // The next step asks the endpoint again instead of getting a kept failure.
        #expect(machine.tokenNeeded(at: now) == .fetch(.grant))

        // An interrupted refresh does not go on to ask for the grant.
        _ = machine.fetchFinished(.grant, .success(Self.token("t1", refresh: "r1", renewAt: now)))
        #expect(machine.tokenNeeded(at: now) == .fetch(.refresh("r1")))
        #expect(
            machine.fetchFinished(.refresh("r1"), .failure(Self.failure), interrupted: true)
                == .done(.failure(Self.failure)))
        #expect(machine.tokenNeeded(at: now) == .fetch(.grant))

        // A token that came although nobody waited any more is kept.
        let late = Self.token("t2")
        #expect(machine.fetchFinished(.grant, .success(late), interrupted: true) == .done(.success(late)))
        #expect(machine.tokenNeeded(at: now) == .use(late))
    }

    // MARK: - The store under concurrency

    /// A token endpoint that counts its requests and answers after a pause.
    final class CountingFetcher: OAuth2TokenFetching {
        let requests = Mutex<[OAuth2FetchKind]>([])
        let lifetime: Duration?
        let fails: Bool

        init(lifetime: Duration?, fails: Bool = false) {
            self.lifetime = lifetime
            self.fails = fails
        }

        func fetch(_ grant: OAuth2Grant, _ kind: OAuth2FetchKind) async -> Result<OAuth2Token, OAuth2Failure> {
            let number = requests.withLock { requests in
                requests.append(kind)
                return requests.count
            }
            try? await Task.sleep(for: .milliseconds(50))
            if fails { return .failure(OAuth2TokenStoreTests.failure) }
            return .success(
                OAuth2Token(
                    accessToken: "token-\(number)", refreshToken: "refresh-\(number)",
                    renewAt: lifetime.map { ContinuousClock.now + $0 }))
        }
    }

    @Test func manyConcurrentStepsShareOneTokenRequest() async {
        let store = OAuth2TokenStore()
        let fetcher = CountingFetcher(lifetime: .seconds(60))
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<200 {
                group.addTask { try? await store.token(for: Self.grant, fetcher: fetcher).get().accessToken }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["token-1"])
        #expect(fetcher.requests.withLock { $0 } == [.grant])
        #expect(await store.requestsSent == 1)
    }

    @Test func aFailingEndpointIsAskedOnceForEveryStep() async {
        let store = OAuth2TokenStore()
        let fetcher = CountingFetcher(lifetime: nil, fails: true)
        let results = await withTaskGroup(of: Result<OAuth2Token, OAuth2Failure>.self) { group in
            for _ in 0..<50 { group.addTask { await store.token(for: Self.grant, fetcher: fetcher) } }
            return await group.reduce(into: [Result<OAuth2Token, OAuth2Failure>]()) { $0.append($1) }
        }
        #expect(results.count == 50)
        #expect(results.allSatisfy { $0 == .failure(Self.failure) })
        // Later steps get the kept failure too.
        #expect(await store.token(for: Self.grant, fetcher: fetcher) == .failure(Self.failure))
        #expect(fetcher.requests.withLock { $0.count } == 1)
    }

    @Test func anExpiredTokenIsRefreshedOnceAndDifferentGrantsHaveTheirOwnTokens() async throws {
        let store = OAuth2TokenStore()
        let fetcher = CountingFetcher(lifetime: .milliseconds(100))
        let first = try await store.token(for: Self.grant, fetcher: fetcher).get()
        try await Task.sleep(for: .milliseconds(150))
        let renewed = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 {
                group.addTask { try? await store.token(for: Self.grant, fetcher: fetcher).get().accessToken }
            }
            return await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(first.accessToken == "token-1")
        #expect(renewed == ["token-2"])
        #expect(fetcher.requests.withLock { $0 } == [.grant, .refresh("refresh-1")])

        var other = Self.grant
        other.scope = "admin"
        _ = try await store.token(for: other, fetcher: fetcher).get()
        #expect(fetcher.requests.withLock { $0.count } == 3)
    }

    // MARK: - Interruption

    /// A token endpoint whose first request hangs until its task is cancelled, and notes that it was. A cancelled
    /// request then returns at once, or, built with `holdsCancelledRequest`, only once the test calls `release()`
    /// (as a transfer being torn down takes a while): what a test checks while it is held depends on no timing. Later
    /// requests are answered at once.
    final class HangingFetcher: OAuth2TokenFetching {
        let requests = Mutex(0)
        let cancelled = Mutex(0)
        let firstReturned = Mutex(false)
        /// Whether a later request was sent before the first had returned.
        let overlapped = Mutex(false)
        private let holdsCancelledRequest: Bool
        /// Whether `release()` was called, and the held request's continuation while it waits for it.
        private let gate = Mutex<(released: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))

        init(holdsCancelledRequest: Bool = false) {
            self.holdsCancelledRequest = holdsCancelledRequest
        }

        /// Lets the held cancelled request return.
        func release() {
            let waiting = gate.withLock { gate in
                gate.released = true
                defer { gate.waiting = nil }
                return gate.waiting
            }
            waiting?.resume()
        }

        func fetch(_ grant: OAuth2Grant, _ kind: OAuth2FetchKind) async -> Result<OAuth2Token, OAuth2Failure> {
            let number = requests.withLock { requests in
                requests += 1
                return requests
            }
            guard number == 1 else {
                if !firstReturned.withLock({ $0 }) { overlapped.withLock { $0 = true } }
                return .success(OAuth2TokenStoreTests.token("token-\(number)"))
            }
            defer { firstReturned.withLock { $0 = true } }
            do {
                // Far longer than any test waits: a store that waited for this request fails its test's checks.
                try await Task.sleep(for: .seconds(600))
                return .success(OAuth2TokenStoreTests.token("token-1"))
            } catch {
                cancelled.withLock { $0 += 1 }
                if holdsCancelledRequest {
                    await withCheckedContinuation { continuation in
                        let released = gate.withLock { gate in
                            if !gate.released { gate.waiting = continuation }
                            return gate.released
                        }
                        if released { continuation.resume() }
                    }
                }
                return .failure(
                    OAuth2Failure(
                        reason: .transfer(HTTPError(.shutDownDuringTransfer)), tokenURL: grant.tokenURL,
                        grantType: "client_credentials"))
            }
        }
    }

    static let interrupted = OAuth2Failure(
        reason: .interrupted, tokenURL: grant.tokenURL, grantType: "client_credentials")

    /// Polls `condition` every 5 ms for up to 10 s.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<2000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return await condition()
    }

    @Test func interruptedStepsStopWaitingAtOnceAndTheRequestIsCancelled() async {
        let store = OAuth2TokenStore()
        let fetcher = HangingFetcher()
        let waiting = (0..<3).map { _ in Task { await store.token(for: Self.grant, fetcher: fetcher) } }
        #expect(await Self.eventually { await store.stepsWaiting(for: Self.grant) == 3 })
        #expect(fetcher.requests.withLock { $0 } == 1)
        for task in waiting { task.cancel() }
        // The request hangs for ten minutes unless cancelled: steps that waited for it would not end here.
        for task in waiting { #expect(await task.value == .failure(Self.interrupted)) }
        // Nobody waits for the request any more: it is cancelled.
        #expect(await Self.eventually { fetcher.cancelled.withLock { $0 } == 1 })
        #expect(await Self.eventually { fetcher.firstReturned.withLock { $0 } })
        // The interruption is not kept as the grant's failure: the next step gets a token.
        #expect(await store.token(for: Self.grant, fetcher: fetcher) == .success(Self.token("token-2")))
        #expect(fetcher.requests.withLock { $0 } == 2)
    }

    /// A token endpoint that answers only when the test opens its gate, and notes whether its request was cancelled.
    final class GatedFetcher: OAuth2TokenFetching {
        private struct State {
            var open = false
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        private let state = Mutex(State())
        let requests = Mutex(0)
        let cancelled = Mutex(false)

        func fetch(_ grant: OAuth2Grant, _ kind: OAuth2FetchKind) async -> Result<OAuth2Token, OAuth2Failure> {
            let number = requests.withLock { requests in
                requests += 1
                return requests
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let open = state.withLock { state in
                        if !state.open { state.waiting.append(continuation) }
                        return state.open
                    }
                    if open { continuation.resume() }
                }
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
            return .success(OAuth2TokenStoreTests.token("token-\(number)"))
        }

        /// Lets every request, waiting or to come, be answered.
        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting.removeAll() }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    @Test func aStepStillWaitingKeepsTheRequestGoing() async throws {
        let store = OAuth2TokenStore()
        let fetcher = GatedFetcher()
        let interrupted = Task { await store.token(for: Self.grant, fetcher: fetcher) }
        let waiting = Task { await store.token(for: Self.grant, fetcher: fetcher) }
        #expect(await Self.eventually { await store.stepsWaiting(for: Self.grant) == 2 })
        interrupted.cancel()
        #expect(await interrupted.value == .failure(Self.interrupted))
        // The other step still waits: the request was not cancelled, and its answer is that step's.
        #expect(!fetcher.cancelled.withLock { $0 })
        fetcher.open()
        #expect(try await waiting.value.get().accessToken == "token-1")
        #expect(!fetcher.cancelled.withLock { $0 })
        #expect(fetcher.requests.withLock { $0 } == 1)
    }

    @Test func anInterruptedStepSendsNoTokenRequest() async {
        let store = OAuth2TokenStore()
        let fetcher = GatedFetcher()
        fetcher.open()
        let step = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await store.token(for: Self.grant, fetcher: fetcher)
        }
        #expect(await step.value == .failure(Self.interrupted))
        #expect(fetcher.requests.withLock { $0 } == 0)
        #expect(await store.requestsSent == 0)
        // Nor did it leave the grant fetching: the next step gets a token.
        #expect(await store.token(for: Self.grant, fetcher: fetcher) == .success(Self.token("token-1")))
    }

    /// However the cancelled request's end and a new step's arrival interleave, the new step never gets that
    /// request's failure: it gets a token (a race a single run rarely shows, so it is run many times).
    @Test func aStepArrivingAsAnAbandonedRequestEndsNeverGetsItsFailure() async {
        var failures: [OAuth2Failure] = []
        for _ in 0..<500 {
            let store = OAuth2TokenStore()
            let fetcher = HangingFetcher()
            let interrupted = Task { await store.token(for: Self.grant, fetcher: fetcher) }
            guard await Self.eventually({ await store.stepsWaiting(for: Self.grant) == 1 }) else {
                Issue.record("the first step never waited")
                return
            }
            interrupted.cancel()
            _ = await interrupted.value
            _ = await Self.eventually { fetcher.cancelled.withLock { $0 } == 1 }
            if case .failure(let failure) = await Task(operation: {
                await store.token(for: Self.grant, fetcher: fetcher)
            }).value {
                failures.append(failure)
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 500: \(failures.first.map { "\($0)" } ?? "")")
    }

    @Test func aStepAfterAnAbandonedRequestAsksAgainOnceItHasEnded() async throws {
        let store = OAuth2TokenStore()
        let fetcher = HangingFetcher(holdsCancelledRequest: true)
        let interrupted = Task { await store.token(for: Self.grant, fetcher: fetcher) }
        #expect(await Self.eventually { fetcher.requests.withLock { $0 } == 1 })
        interrupted.cancel()
        #expect(await interrupted.value == .failure(Self.interrupted))
        #expect(await Self.eventually { fetcher.cancelled.withLock { $0 } == 1 })
        // The cancelled request has not ended yet (it is held): a step that needs the token now (a teardown, which
        // an interruption does not cancel) must not be handed its "interrupted", but wait for the request to end.
        #expect(!fetcher.firstReturned.withLock { $0 })
        let next = Task { await store.token(for: Self.grant, fetcher: fetcher) }
        // Time for a wrong store to send its second request while the first is held (it is noted if it does).
        try await Task.sleep(for: .milliseconds(100))
        fetcher.release()
        let token = try await next.value.get()
        #expect(token.accessToken == "token-2")
        #expect(fetcher.firstReturned.withLock { $0 })
        #expect(!fetcher.overlapped.withLock { $0 }, "a second request went out before the first had ended")
        #expect(await store.requestsSent == 2)
    }

    // MARK: - Reading the endpoint's answer

    static func response(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: status, httpVersion: "1.1", headers: ["Content-Type": "application/json"],
            body: Data(body.utf8), effectiveURL: "https://idp/token")
    }

    @Test func aTokenAnswerIsRead() throws {
        let sent = ContinuousClock.now
        let token = try OAuth2TokenClient.token(
            from: Self.response(
                200, #"{"access_token":"abc.def","token_type":"bearer","expires_in":100,"refresh_token":"r"}"#),
            sentAt: sent
        ).get()
        #expect(token.accessToken == "abc.def")
        #expect(token.refreshToken == "r")
        // Renewed a tenth of the lifetime early.
        #expect(token.renewAt == sent + .seconds(90))
        // An hour's token is renewed 30 seconds early; a lifetime given as a string (some providers) is read.
        let hour = try OAuth2TokenClient.token(
            from: Self.response(200, #"{"access_token":"x","expires_in":"3600"}"#), sentAt: sent
        ).get()
        #expect(hour.renewAt == sent + .seconds(3570))
        let forever = try OAuth2TokenClient.token(from: Self.response(200, #"{"access_token":"x"}"#), sentAt: sent)
            .get()
        #expect(forever.renewAt == nil)
        #expect(forever.isFresh(at: sent + .seconds(86_400)))
    }

    @Test func unusableAnswersAreRefusedWithTheReason() {
        let sent = ContinuousClock.now
        func reason(_ status: Int, _ body: String) -> OAuth2Failure.Reason? {
            if case .failure(let reason) = OAuth2TokenClient.token(from: Self.response(status, body), sentAt: sent) {
                return reason
            }
            return nil
        }
        #expect(
            reason(401, #"{"error":"invalid_client","error_description":"bad secret"}"#)
                == .refused(status: 401, error: "invalid_client", description: "bad secret"))
        #expect(reason(502, "<html>bad gateway</html>") == .refused(status: 502, error: nil, description: nil))
        // A server's text reaches messages without its control characters.
        #expect(
            reason(400, #"{"error":"invalid_grant\u001b[31m","error_description":"a\r\nb"}"#)
                == .refused(status: 400, error: "invalid_grant[31m", description: "ab"))
        #expect(reason(200, "not json") == .malformedResponse("the body is not a JSON object"))
        #expect(reason(200, #"{"token_type":"Bearer"}"#) != nil)
        #expect(reason(200, #"{"access_token":"a b"}"#) != nil)
        #expect(reason(200, #"{"access_token":"a\r\nX-Injected: 1"}"#) != nil)
        #expect(reason(200, #"{"access_token":"a","token_type":"mac"}"#) == .unsupportedTokenType("mac"))
        #expect(reason(200, #"{"access_token":"a","expires_in":-5}"#) != nil)
        #expect(reason(200, #"{"access_token":"a","expires_in":"soon"}"#) != nil)
    }

    @Test func theFailureMessageNamesTheEndpointStatusAndError() {
        #expect(
            Self.failure.message
                == "OAuth2 token request (client_credentials) to https://idp/token failed with status 500: "
                + "server_error (down) (not asked again in this run: every step that needs this token errors)")
    }

    // MARK: - Bearer challenges

    @Test func theBearerChallengesErrorIsFoundAmongOthers() {
        #expect(BearerChallenge.error(in: #"Bearer realm="a", error="invalid_token""#) == "invalid_token")
        #expect(BearerChallenge.error(in: #"bearer error=invalid_token"#) == "invalid_token")
        #expect(
            BearerChallenge.error(
                in: #"Basic realm="x, error=\"invalid_token\"", Bearer realm="y", error="insufficient_scope""#)
                == "insufficient_scope")
        #expect(BearerChallenge.error(in: #"Basic realm="x", error="invalid_token""#) == nil)
        #expect(BearerChallenge.error(in: #"Bearer realm="apitest""#) == nil)
        #expect(BearerChallenge.error(in: #"Negotiate abc==, Bearer error="invalid_token""#) == "invalid_token")
        #expect(BearerChallenge.error(in: "") == nil)
    }
}
