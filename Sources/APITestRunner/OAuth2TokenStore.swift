// MARK: - OAuth2TokenFetching

/// Sends one token request and reads its answer (`OAuth2TokenClient` over the run's transport; a scripted one in
/// unit tests).
protocol OAuth2TokenFetching: Sendable {
    /// The token the endpoint issues for `grant` when asked for `kind`, or why there is none.
    func fetch(_ grant: OAuth2Grant, _ kind: OAuth2FetchKind) async -> Result<OAuth2Token, OAuth2Failure>
}

// MARK: - OAuth2TokenStore

/// The run's OAuth2 access tokens, one per grant: fetched by the first step that needs one while every other step
/// that needs it waits for that one request (single flight), reused until due for renewal, renewed once when a
/// server rejects it, and a failure kept for the rest of the run.
actor OAuth2TokenStore {
    private var machines: [OAuth2Grant: StateMachine] = [:]
    private var fetches: [OAuth2Grant: Task<Result<OAuth2Token, OAuth2Failure>, Never>] = [:]
    /// How many token requests were sent in the run.
    private(set) var requestsSent = 0

    /// An empty store.
    init() {}

    /// The token of `grant` to send now: the one held while fresh, else the answer of a token request (the one
    /// under way, or one `fetcher` sends now).
    func token(
        for grant: OAuth2Grant, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
        var machine = machines[grant] ?? StateMachine()
        let action = machine.tokenNeeded(at: .now)
        machines[grant] = machine
        return await perform(action, grant: grant, fetcher: fetcher)
    }

    /// The token to send instead of `rejected`, which a server refused as `invalid_token`: a renewed one (one
    /// request however many steps were refused the same token).
    func replacement(
        for rejected: OAuth2Token, grant: OAuth2Grant, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
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
            // The fetch was registered in the same turn that moved the machine to `fetching`.
            guard let fetch = fetches[grant] else { preconditionFailure("a grant is fetching without a fetch") }
            return await fetch.value
        case .fetch(let kind):
            let fetch = Task { await self.fetch(grant, kind, fetcher: fetcher) }
            fetches[grant] = fetch
            return await fetch.value
        }
    }

    /// Sends token requests for `grant` until its state machine has an answer for the waiting steps.
    private func fetch(
        _ grant: OAuth2Grant, _ first: OAuth2FetchKind, fetcher: some OAuth2TokenFetching
    ) async -> Result<OAuth2Token, OAuth2Failure> {
        var kind = first
        while true {
            requestsSent += 1
            let result = await fetcher.fetch(grant, kind)
            var machine = machines[grant] ?? StateMachine()
            let outcome = machine.fetchFinished(kind, result)
            machines[grant] = machine
            switch outcome {
            case .done(let answer):
                fetches[grant] = nil
                return answer
            case .fetchAgain(let next):
                kind = next
            }
        }
    }
}
