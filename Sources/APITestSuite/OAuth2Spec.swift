// MARK: - OAuth2Spec

/// `auth: {oauth2: {...}}`: a bearer token obtained from an OAuth2 token endpoint (RFC 6749), shared by every
/// request of the run that names the same grant.
package struct OAuth2Spec: Sendable, Hashable {
    /// The grant the token endpoint is asked for.
    package enum Flow: String, Sendable, Hashable, CaseIterable {
        /// `client_credentials` (RFC 6749 §4.4): the client acts on its own behalf.
        case clientCredentials
        /// `password` (§4.3): the resource owner's user name and password.
        case password
        /// `refresh_token` (§6): a refresh token the suite already holds.
        case refreshToken

        /// The keys this flow needs besides `flow` and `tokenURL`.
        package var requiredKeys: [Key] {
            switch self {
            case .clientCredentials: [.clientId, .clientSecret]
            case .password: [.clientId, .username, .password]
            case .refreshToken: [.clientId, .refreshToken]
            }
        }

        /// The keys only this flow takes (a key of another flow is an error).
        package var ownKeys: [Key] {
            switch self {
            case .clientCredentials: []
            case .password: [.username, .password]
            case .refreshToken: [.refreshToken]
            }
        }
    }

    /// How the client authenticates to the token endpoint (RFC 6749 §2.3.1).
    package enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// `Authorization: Basic` of the form-encoded id and secret (the default: every server must accept it).
        case basic
        /// `client_id` and `client_secret` in the form body.
        case body
    }

    /// The grant.
    package var flow: Flow
    /// The token endpoint: absolute, or relative to the suite's `baseURL`.
    package var tokenURL: Template
    /// The client id.
    package var clientID: Template
    /// The client secret; nil for a public client (then `client_id` goes in the body).
    package var clientSecret: Template?
    /// The scopes asked for, space-separated.
    package var scope: Template?
    /// The `audience` parameter many providers (Auth0, Okta) take.
    package var audience: Template?
    /// The resource owner's user name (`password` flow).
    package var username: Template?
    /// The resource owner's password (`password` flow).
    package var password: Template?
    /// The refresh token (`refreshToken` flow).
    package var refreshToken: Template?
    /// How the client authenticates.
    package var clientAuthentication: ClientAuthentication

    /// A grant from its parts.
    package init(
        flow: Flow, tokenURL: Template, clientID: Template, clientSecret: Template?, scope: Template?,
        audience: Template?, username: Template?, password: Template?, refreshToken: Template?,
        clientAuthentication: ClientAuthentication
    ) {
        self.flow = flow
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.audience = audience
        self.username = username
        self.password = password
        self.refreshToken = refreshToken
        self.clientAuthentication = clientAuthentication
    }

    /// Every template of the grant, in the order of `OAuth2Spec.keys`.
    package var templates: [Template] {
        [tokenURL, clientID] + [clientSecret, scope, audience, username, password, refreshToken].compactMap { $0 }
    }

    /// The keys of `oauth2:`.
    package enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case flow, tokenURL, clientId, clientSecret, scope, audience, username, password, refreshToken, clientAuth
    }

    /// The keys of `oauth2:`, as written.
    package static let keys = Key.names
}
