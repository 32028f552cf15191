package import APITestSupport

// MARK: - Authentication

extension SuiteDocument {
    /// The `auth` of a request or of `defaults` (docs/suite-format.md "Authentication"): one kind, its values
    /// as written into the suite (placeholders such as `{{ env.API_PASSWORD }}` allowed). `basicAuth` stays
    /// ``Request/basicAuth``.
    package enum Auth: Sendable, Equatable {
        /// `bearer: TOKEN`: `Authorization: Bearer TOKEN`.
        case bearer(String)
        /// `digest: {user, password}`: libcurl answers the server's Digest challenge.
        case digest(user: String, password: String)
        /// `ntlm: {user, password}`: libcurl's NTLM exchange.
        case ntlm(user: String, password: String)
        /// `awsSigV4: {accessKey, secretKey, sessionToken, region, service}`: libcurl signs the request.
        case awsSigV4(AWSSigV4Credentials<String>)
        /// `netrc: true` (nil: `~/.netrc`) or `netrc: FILE` (as written into the suite).
        case netrc(file: String?)
        /// `oauth2: {flow, tokenURL, clientId, ...}`: apitest fetches and renews the token.
        case oauth2(OAuth2)

        /// The values of `oauth2`, as written into the suite; nil ones are left out.
        package struct OAuth2: Sendable, Equatable {
            /// `flow`: `clientCredentials`, `password` or `refreshToken`.
            package var flow: String
            /// `tokenURL`.
            package var tokenURL: String
            /// `clientId`.
            package var clientID: String
            /// `clientSecret`.
            package var clientSecret: String?
            /// `scope`.
            package var scope: String?
            /// `audience`.
            package var audience: String?
            /// `username` (flow `password`).
            package var username: String?
            /// `password` (flow `password`).
            package var password: String?
            /// `clientAuth`: `basic` or `body`; nil for the default (`basic`).
            package var clientAuth: String?

            /// The grant of `flow` at `tokenURL` for `clientID`.
            package init(
                flow: String, tokenURL: String, clientID: String, clientSecret: String? = nil, scope: String? = nil,
                audience: String? = nil, username: String? = nil, password: String? = nil, clientAuth: String? = nil
            ) {
                self.flow = flow
                self.tokenURL = tokenURL
                self.clientID = clientID
                self.clientSecret = clientSecret
                self.scope = scope
                self.audience = audience
                self.username = username
                self.password = password
                self.clientAuth = clientAuth
            }
        }
    }
}
