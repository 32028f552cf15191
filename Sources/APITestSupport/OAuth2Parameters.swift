// MARK: - OAuth2Parameters

/// What an OAuth2 token is asked for with (RFC 6749): the grant, the token endpoint, the client and the grant's own
/// parameters. The one declaration of an `oauth2:` setting, over the type of its fields (as
/// ``AWSSigV4Credentials`` is): templates in a loaded suite (`OAuth2Spec`, `APITestSuite`), rendered per request
/// with ``map(_:)`` into values (`OAuth2Grant`, `APITestAuth`, the token store's key and the token request's
/// parameters); text as written into a suite by `apitest import` (`SuiteDocument.Auth.oauth2`).
///
/// It lives in `APITestSupport`, the one target below the suite, auth, runner and suite-writing targets that all of
/// them already import.
package struct OAuth2Parameters<Field> {
    /// The grant asked for.
    package var flow: OAuth2Flow
    /// The token endpoint (in a suite, absolute or relative to its `baseURL`; rendered, absolute).
    package var tokenURL: Field
    /// The client id.
    package var clientID: Field
    /// The client secret; nil for a public client (then `client_id` goes in the body).
    package var clientSecret: Field?
    /// The scopes asked for, space-separated.
    package var scope: Field?
    /// The `audience` parameter many providers (Auth0, Okta) take.
    package var audience: Field?
    /// The resource owner's user name (`password` flow).
    package var username: Field?
    /// The resource owner's password (`password` flow).
    package var password: Field?
    /// The refresh token the suite holds (`refreshToken` flow).
    package var refreshToken: Field?
    /// How the client authenticates to the token endpoint.
    package var clientAuthentication: OAuth2ClientAuthentication

    /// A grant of `flow` at `tokenURL` for `clientID`, with the parameters the flow takes.
    package init(
        flow: OAuth2Flow, tokenURL: Field, clientID: Field, clientSecret: Field? = nil, scope: Field? = nil,
        audience: Field? = nil, username: Field? = nil, password: Field? = nil, refreshToken: Field? = nil,
        clientAuthentication: OAuth2ClientAuthentication = .basic
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

    /// The same parameters with every field transformed, in the order `tokenURL`, `clientID`, then those that are
    /// set of `clientSecret`, `scope`, `audience`, `username`, `password`, `refreshToken`: a suite's templates
    /// rendered into values.
    package func map<Other, Failure: Error>(
        _ transform: (Field) throws(Failure) -> Other
    ) throws(Failure) -> OAuth2Parameters<Other> {
        try map(tokenURL: transform, transform)
    }

    /// The same parameters with `tokenURL` transformed by `transformTokenURL` (a rendered URL also made absolute)
    /// and every other field by `transform`, in the order of ``map(_:)``.
    package func map<Other, Failure: Error>(
        tokenURL transformTokenURL: (Field) throws(Failure) -> Other, _ transform: (Field) throws(Failure) -> Other
    ) throws(Failure) -> OAuth2Parameters<Other> {
        func optional(_ field: Field?) throws(Failure) -> Other? {
            guard let field else { return nil }
            return try transform(field)
        }
        let tokenURL = try transformTokenURL(tokenURL)
        let clientID = try transform(clientID)
        let clientSecret = try optional(clientSecret)
        let scope = try optional(scope)
        let audience = try optional(audience)
        let username = try optional(username)
        let password = try optional(password)
        return OAuth2Parameters<Other>(
            flow: flow, tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret, scope: scope,
            audience: audience, username: username, password: password, refreshToken: try optional(refreshToken),
            clientAuthentication: clientAuthentication)
    }

    /// Every field that is set, in the order of ``map(_:)``.
    package var fields: [Field] {
        [tokenURL, clientID] + [clientSecret, scope, audience, username, password, refreshToken].compactMap { $0 }
    }
}

// MARK: - Conformances

extension OAuth2Parameters: Sendable where Field: Sendable {}
extension OAuth2Parameters: Equatable where Field: Equatable {}
extension OAuth2Parameters: Hashable where Field: Hashable {}

// MARK: - The grant and the client's authentication

/// The grant a token endpoint is asked for, by the name a suite writes.
package enum OAuth2Flow: String, Sendable, Hashable, CaseIterable {
    /// `client_credentials` (RFC 6749 §4.4): the client acts on its own behalf.
    case clientCredentials
    /// `password` (§4.3): the resource owner's user name and password.
    case password
    /// `refresh_token` (§6): a refresh token the suite already holds.
    case refreshToken
}

/// How the client authenticates to the token endpoint (RFC 6749 §2.3.1), by the name a suite writes.
package enum OAuth2ClientAuthentication: String, Sendable, Hashable, CaseIterable {
    /// `Authorization: Basic` of the form-encoded id and secret (the default: every server must accept it).
    case basic
    /// `client_id` and `client_secret` in the form body.
    case body
}
