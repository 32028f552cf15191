// MARK: - The state of one grant's token

extension OAuth2TokenStore {
    /// The token of one grant through the run: none yet, being fetched (once, whoever asks meanwhile waits for that
    /// fetch), ready until it is due for renewal or a server rejects it, or failed for good. A value whose methods
    /// return what the store is to do, so that every transition is tested without a server or a clock.
    struct StateMachine: Sendable {
        /// Where the grant's token stands.
        enum State: Sendable, Hashable {
            /// No token asked for yet.
            case idle
            /// A token request is under way.
            case fetching
            /// A token to use while it is fresh.
            case ready(OAuth2Token)
            /// The endpoint failed; every later request gets this.
            case failed(OAuth2Failure)
        }

        /// What the store does for a step that needs the token.
        enum Action: Sendable, Hashable {
            /// Send this token.
            case use(OAuth2Token)
            /// Send a token request of this kind; the step waits for it.
            case fetch(OAuth2FetchKind)
            /// Wait for the token request under way.
            case join
            /// Error the step with this failure.
            case fail(OAuth2Failure)
        }

        /// What the store does when a token request is answered.
        enum FetchOutcome: Sendable, Hashable {
            /// The fetch is over: every waiting step gets this.
            case done(Result<OAuth2Token, OAuth2Failure>)
            /// Ask again, for this (a refresh failed: the grant itself is asked for once).
            case fetchAgain(OAuth2FetchKind)
        }

        /// Where the token stands.
        private(set) var state = State.idle

        /// A step needs the token at `now`.
        mutating func tokenNeeded(at now: ContinuousClock.Instant) -> Action {
            switch state {
            case .idle:
                state = .fetching
                return .fetch(.grant)
            case .fetching:
                return .join
            case .ready(let token):
                return token.isFresh(at: now) ? .use(token) : renew(token)
            case .failed(let failure):
                return .fail(failure)
            }
        }

        /// A server answered `rejected` with `401` and `error="invalid_token"`: renew it, unless another step has
        /// already (then that token is used).
        mutating func tokenRejected(_ rejected: OAuth2Token, at now: ContinuousClock.Instant) -> Action {
            if case .ready(let current) = state, current.accessToken == rejected.accessToken {
                return renew(current)
            }
            return tokenNeeded(at: now)
        }

        /// A token request of `kind` was answered with `result`; `interrupted` when nobody waits for it any more (its
        /// task was cancelled: the run is being interrupted).
        mutating func fetchFinished(
            _ kind: OAuth2FetchKind, _ result: Result<OAuth2Token, OAuth2Failure>, interrupted: Bool = false
        ) -> FetchOutcome {
            switch result {
            case .success(let token):
                state = .ready(token)
                return .done(result)
            case .failure(let failure):
                // An interrupted request says nothing of the endpoint: the next step that needs the token asks again.
                if interrupted {
                    state = .idle
                    return .done(result)
                }
                // A refresh token may have been revoked or have expired: the grant itself is asked for once.
                if case .refresh = kind { return .fetchAgain(.grant) }
                state = .failed(failure)
                return .done(result)
            }
        }

        /// Renews `token`: with its refresh token when it came with one, else by asking for the grant again.
        private mutating func renew(_ token: OAuth2Token) -> Action {
            state = .fetching
            return .fetch(token.refreshToken.map(OAuth2FetchKind.refresh) ?? .grant)
        }
    }
}
