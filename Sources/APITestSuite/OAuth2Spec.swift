package import APITestSupport

// MARK: - OAuth2Spec

/// `auth: {oauth2: {...}}`: a bearer token obtained from an OAuth2 token endpoint (RFC 6749), shared by every
/// request of the run that names the same grant. The one model of the parameters (``OAuth2Parameters``) over the
/// suite's templates; the runner renders it into an `OAuth2Grant` with `map`.
package typealias OAuth2Spec = OAuth2Parameters<Template>

extension OAuth2Parameters where Field == Template {
    /// The grant the token endpoint is asked for.
    package typealias Flow = OAuth2Flow

    /// How the client authenticates to the token endpoint (RFC 6749 §2.3.1).
    package typealias ClientAuthentication = OAuth2ClientAuthentication

    /// Every template of the grant, in the order of `OAuth2Spec.keys`.
    package var templates: [Template] { fields }

    /// The keys of `oauth2:`.
    package enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case flow, tokenURL, clientId, clientSecret, scope, audience, username, password, refreshToken, clientAuth
    }

    /// The keys of `oauth2:`, as written.
    package static let keys = Key.names
}

extension OAuth2Flow {
    /// The keys this flow needs besides `flow` and `tokenURL`.
    package var requiredKeys: [OAuth2Spec.Key] {
        switch self {
        case .clientCredentials: [.clientId, .clientSecret]
        case .password: [.clientId, .username, .password]
        case .refreshToken: [.clientId, .refreshToken]
        }
    }

    /// The keys only this flow takes (a key of another flow is an error).
    package var ownKeys: [OAuth2Spec.Key] {
        switch self {
        case .clientCredentials: []
        case .password: [.username, .password]
        case .refreshToken: [.refreshToken]
        }
    }
}
