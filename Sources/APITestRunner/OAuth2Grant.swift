import APITestSuite

// MARK: - OAuth2Grant

/// The rendered parameters of an `oauth2` setting: what a token is asked for with, and the key under which the run
/// shares the token (two suites that name the same grant share one token).
struct OAuth2Grant: Sendable, Hashable {
    /// The grant type.
    var flow: OAuth2Spec.Flow
    /// The token endpoint, absolute.
    var tokenURL: String
    /// The client id.
    var clientID: String
    /// The client secret; nil for a public client.
    var clientSecret: String?
    /// The scopes asked for.
    var scope: String?
    /// The `audience` parameter.
    var audience: String?
    /// The resource owner's user name (`password` flow).
    var username: String?
    /// The resource owner's password (`password` flow).
    var password: String?
    /// The refresh token the suite holds (`refreshToken` flow).
    var refreshToken: String?
    /// How the client authenticates to the endpoint.
    var clientAuthentication: OAuth2Spec.ClientAuthentication

    /// The secrets of the grant, to mask wherever they show up.
    var secrets: [String] { [clientSecret, password, refreshToken].compactMap { $0 } }
}

// MARK: - OAuth2Token

/// An access token a token endpoint issued, with when it is to be renewed.
struct OAuth2Token: Sendable, Hashable {
    /// The bearer token.
    var accessToken: String
    /// The refresh token issued with it, if any.
    var refreshToken: String?
    /// When it is to be renewed: the issue time (taken before the request was sent) plus `expires_in` minus a
    /// margin; nil when the endpoint gave no lifetime (renewed only when a server rejects it).
    var renewAt: ContinuousClock.Instant?

    /// The margin before expiry at which a token is renewed: a tenth of its lifetime, at most 30 seconds, so that a
    /// request sent just before renewal still arrives while the token lives.
    static func renewalMargin(lifetime: Duration) -> Duration {
        min(.seconds(30), lifetime / 10)
    }

    /// The token's secrets, to mask wherever they show up.
    var secrets: [String] { [accessToken] + (refreshToken.map { [$0] } ?? []) }

    /// Whether the token can still be sent at `now`.
    func isFresh(at now: ContinuousClock.Instant) -> Bool {
        renewAt.map { now < $0 } ?? true
    }
}

// MARK: - OAuth2FetchKind

/// What a token request asks the endpoint for.
enum OAuth2FetchKind: Sendable, Hashable {
    /// The grant itself (client credentials, password, or the suite's refresh token).
    case grant
    /// A new access token for the refresh token the endpoint issued earlier.
    case refresh(String)
}
