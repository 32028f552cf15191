import Foundation

// MARK: - OAuthTokenIssuer

/// The demo's OAuth2 authorization server state: its one client, its one user, the access tokens it issued (each
/// live for `lifetime`), the refresh tokens, and counts of what it did, for tests that bound how often a client
/// fetched a token.
actor OAuthTokenIssuer {
    /// The registered client's id.
    static let clientID = "demo-client"
    /// The registered client's secret.
    static let clientSecret = "demo-secret"
    /// The resource owner of the password flow: user name and password.
    static let users = ["alice": "wonderland"]

    /// What an access token grants, and until when.
    struct Grant: Sendable {
        var client: String
        var user: String?
        var scope: String?
        var audience: String?
        var expires: ContinuousClock.Instant
    }

    /// How long an access token lives.
    let lifetime: Duration
    private var accessTokens: [String: Grant] = [:]
    private var refreshTokens: [String: Grant] = [:]
    /// Every access and refresh token issued, in order (for tests that look for them in a client's output).
    private(set) var everyToken: [String] = []
    private let clock = ContinuousClock()

    /// Counts of the server's work, as `GET /oauth/stats` shows them.
    struct Counts: Sendable {
        /// Access tokens issued, by any grant.
        var issued = 0
        /// Of those, issued for a refresh token.
        var refreshed = 0
        /// Token requests refused (bad client, bad grant).
        var refused = 0
        /// Protected requests refused for a missing, unknown or expired token.
        var rejected = 0
        /// Protected requests served.
        var served = 0
        /// Requests to the broken token endpoint.
        var brokenAttempts = 0
    }

    private(set) var counts = Counts()

    /// An issuer whose access tokens live for `lifetime`.
    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// A new access token for `grant` (its expiry is set here), with a refresh token when `withRefresh`.
    func issue(
        client: String, user: String?, scope: String?, audience: String?, withRefresh: Bool, refreshing: Bool
    ) -> (access: String, refresh: String?) {
        let grant = Grant(client: client, user: user, scope: scope, audience: audience, expires: clock.now + lifetime)
        let access = Self.randomToken()
        accessTokens[access] = grant
        everyToken.append(access)
        counts.issued += 1
        if refreshing { counts.refreshed += 1 }
        guard withRefresh else { return (access, nil) }
        let refresh = Self.randomToken()
        refreshTokens[refresh] = grant
        everyToken.append(refresh)
        return (access, refresh)
    }

    /// The grant of a refresh token, which is used up (the server rotates refresh tokens).
    func redeem(refreshToken: String, client: String) -> Grant? {
        guard let grant = refreshTokens[refreshToken], grant.client == client else { return nil }
        refreshTokens[refreshToken] = nil
        return grant
    }

    /// The grant of a live access token; nil (and counted as rejected) for an unknown or expired one.
    func check(accessToken: String) -> (grant: Grant?, expired: Bool) {
        guard let grant = accessTokens[accessToken] else {
            counts.rejected += 1
            return (nil, false)
        }
        guard clock.now < grant.expires else {
            counts.rejected += 1
            return (nil, true)
        }
        counts.served += 1
        return (grant, false)
    }

    /// Revokes every access token issued so far (refresh tokens stay valid); returns how many there were.
    func revokeAccessTokens() -> Int {
        defer { accessTokens.removeAll() }
        return accessTokens.count
    }

    /// Counts a protected request that carried no bearer token.
    func countRejected() { counts.rejected += 1 }

    /// Counts a token request refused.
    func countRefused() { counts.refused += 1 }

    /// Counts a request to the broken token endpoint.
    func countBrokenAttempt() { counts.brokenAttempts += 1 }

    /// Seconds left of a grant, rounded down.
    func secondsLeft(_ grant: Grant) -> Int {
        let left = grant.expires - clock.now
        return max(0, Int(left.components.seconds))
    }

    /// 32 random lower-case hex digits.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return String(
            decoding: (0..<32).map { _ in digits[Int(generator.next(upperBound: UInt32(16)))] }, as: UTF8.self)
    }
}
