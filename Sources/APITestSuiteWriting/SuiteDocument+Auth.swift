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

        /// The values of `oauth2`, as written into the suite (the one model of the parameters, over text); nil ones
        /// are left out, and `clientAuth` when it is the default (`basic`).
        package typealias OAuth2 = OAuth2Parameters<String>
    }
}
