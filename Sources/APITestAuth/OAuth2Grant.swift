package import APITestSupport

// MARK: - OAuth2Grant

/// The rendered parameters of an `oauth2` setting: what a token is asked for with, and the key under which the run
/// shares the token (two suites that name the same grant share one token). The one model of the parameters
/// (``OAuth2Parameters``) over values: the runner renders a suite's `OAuth2Spec` into it with `map`, its token URL
/// made absolute.
package typealias OAuth2Grant = OAuth2Parameters<String>

extension OAuth2Parameters where Field == String {
    /// The grant type a token request of `kind` asks for under `flow` (RFC 6749's names).
    package static func grantType(of flow: OAuth2Flow, _ kind: OAuth2FetchKind) -> String {
        if case .refresh = kind { return "refresh_token" }
        switch flow {
        case .clientCredentials: return "client_credentials"
        case .password: return "password"
        case .refreshToken: return "refresh_token"
        }
    }

    /// The secrets of the grant, to mask wherever they show up.
    package var secrets: [String] { [clientSecret, password, refreshToken].compactMap { $0 } }
}

// MARK: - OAuth2Token

/// An access token a token endpoint issued, with when it is to be renewed.
package struct OAuth2Token: Sendable, Hashable {
    /// The bearer token.
    package var accessToken: String
    /// The refresh token issued with it, if any.
    package var refreshToken: String?
    /// When it is to be renewed: the issue time (taken before the request was sent) plus `expires_in` minus a
    /// margin; nil when the endpoint gave no lifetime (renewed only when a server rejects it).
    package var renewAt: ContinuousClock.Instant?

    /// The margin before expiry at which a token is renewed: a tenth of its lifetime, at most 30 seconds, so that a
    /// request sent just before renewal still arrives while the token lives.
    static func renewalMargin(lifetime: Duration) -> Duration {
        min(.seconds(30), lifetime / 10)
    }

    /// The token's secrets, to mask wherever they show up.
    package var secrets: [String] { [accessToken] + (refreshToken.map { [$0] } ?? []) }

    /// Whether the token can still be sent at `now`.
    func isFresh(at now: ContinuousClock.Instant) -> Bool {
        renewAt.map { now < $0 } ?? true
    }
}

// MARK: - OAuth2FetchKind

/// What a token request asks the endpoint for.
package enum OAuth2FetchKind: Sendable, Hashable {
    /// The grant itself (client credentials, password, or the suite's refresh token).
    case grant
    /// A new access token for the refresh token the endpoint issued earlier.
    case refresh(String)
}
