import APITestSupport

// MARK: - OAuth2TokenFetching

/// Sends one token request and reads its answer (`OAuth2TokenClient` over the run's transport; a scripted one in
/// unit tests).
package protocol OAuth2TokenFetching: Sendable {
    /// The token the endpoint issues for `grant` when asked for `kind`, or why there is none.
    func fetch(_ grant: OAuth2Grant, _ kind: OAuth2FetchKind) async -> Result<OAuth2Token, OAuth2Failure>
}

// MARK: - OAuth2TokenStore

/// The run's OAuth2 access tokens, one per grant: fetched by the first step that needs one while every other step
/// that needs it waits for that one request (single flight), reused until due for renewal, renewed once when a
/// server rejects it, and a failure kept for the rest of the run.
///
/// An interruption is not a failure: a waiting step whose task is cancelled stops waiting at once, the request is
/// cancelled when no step waits for it any more, and the grant is asked for again by the next step that needs it.
package actor OAuth2TokenStore {
    private var machines: [OAuth2Grant: StateMachine] = [:]
    private var flights: [OAuth2Grant: OAuth2TokenFlight] = [:]
    /// How many token requests were sent in the run.
    private(set) var requestsSent = 0

    /// An empty store.
    package init() {}

    /// How many steps wait for a token request of `grant` now (0 when none is under way).
    func stepsWaiting(for grant: OAuth2Grant) -> Int {
        flights[grant]?.waiting ?? 0
    }

    /// The token of `grant` to send now: the one held while fresh, else the answer of a token request (the one
    /// under way, or one `fetcher` sends now).
    package func token(
        for grant: OAuth2Grant, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
        // An interrupted step sends no token request.
        if Task.isCancelled { return .failure(Self.interrupted(grant)) }
        var machine = machines[grant] ?? StateMachine()
        let action = machine.tokenNeeded(at: .now)
        machines[grant] = machine
        return await perform(action, grant: grant, fetcher: fetcher)
    }

    /// The token to send instead of `rejected`, which a server refused as `invalid_token`: a renewed one (one
    /// request however many steps were refused the same token).
    package func replacement(
        for rejected: OAuth2Token, grant: OAuth2Grant, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
        if Task.isCancelled { return .failure(Self.interrupted(grant)) }
        var machine = machines[grant] ?? StateMachine()
        let action = machine.tokenRejected(rejected, at: .now)
        machines[grant] = machine
        return await perform(action, grant: grant, fetcher: fetcher)
    }

    /// Carries out `action` of `grant`'s state machine.
    private func perform(
        _ action: StateMachine.Action, grant: OAuth2Grant, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
        switch action {
        case .use(let token):
            return .success(token)
        case .fail(let failure):
            return .failure(failure)
        case .join:
            // The flight was registered in the same turn that moved the machine to `fetching`.
            guard let flight = flights[grant] else { preconditionFailure("a grant is fetching without a flight") }
            return await wait(on: flight, grant: grant, fetcher: fetcher)
        case .fetch(let kind):
            let flight = OAuth2TokenFlight()
            flights[grant] = flight
            flight.start(Task { await self.fetch(grant, kind, fetcher: fetcher, flight: flight) })
            return await wait(on: flight, grant: grant, fetcher: fetcher)
        }
    }

    /// The answer of `flight` for a step of the calling task: `interrupted` when that task is cancelled first; when
    /// the flight was abandoned (every step that waited was interrupted), the store is asked again once its request
    /// has ended.
    private func wait(
        on flight: OAuth2TokenFlight, grant: OAuth2Grant, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
        switch await flight.wait() {
        case .answered(let answer):
            return answer
        case .abandoned where !Task.isCancelled:
            await flight.ended()
            return await token(for: grant, fetcher: fetcher)
        case .interrupted, .abandoned:
            return .failure(Self.interrupted(grant))
        }
    }

    /// The failure of a step of `grant` whose task was cancelled before it had a token.
    private static func interrupted(_ grant: OAuth2Grant) -> OAuth2Failure {
        OAuth2Failure(
            reason: .interrupted, tokenURL: grant.tokenURL, grantType: OAuth2Grant.grantType(of: grant.flow, .grant))
    }

    /// Sends token requests for `grant` until its state machine has an answer, which `flight` hands to the waiting
    /// steps. A request that ends after the flight was abandoned (its task cancelled) leaves no failure behind.
    private func fetch(
        _ grant: OAuth2Grant, _ first: OAuth2FetchKind, fetcher: some OAuth2TokenFetching, flight: OAuth2TokenFlight
    ) async {
        var kind = first
        while true {
            requestsSent += 1
            let result = await fetcher.fetch(grant, kind)
            var machine = machines[grant] ?? StateMachine()
            let outcome = machine.fetchFinished(kind, result, interrupted: Task.isCancelled)
            machines[grant] = machine
            switch outcome {
            case .done(let answer):
                flights[grant] = nil
                flight.finish(answer)
                return
            case .fetchAgain(let next):
                kind = next
            }
        }
    }
}
