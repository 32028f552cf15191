package import APITestSupport

/// `auth:` of a request or of `defaults`: how the request authenticates. Exactly one kind, or none.
package enum AuthSpec: Sendable, Hashable {
    /// `auth: none` (or `auth: false`): no authentication, whatever `defaults.auth` says. In `defaults` it switches
    /// off the `auth` of an included settings file.
    case disabled
    /// `basic: {user, password}`: an `Authorization: Basic` header.
    case basic(CredentialsSpec)
    /// `bearer: TOKEN`: an `Authorization: Bearer` header.
    case bearer(Template)
    /// `digest: {user, password}`: HTTP Digest, answered by libcurl.
    case digest(CredentialsSpec)
    /// `ntlm: {user, password}`: NTLM, run by libcurl.
    case ntlm(CredentialsSpec)
    /// `awsSigV4: {accessKey, secretKey, sessionToken, region, service}`: AWS Signature Version 4 by libcurl, its
    /// credentials templates (rendered into the HTTP layer's values per request).
    case awsSigV4(AWSSigV4Credentials<Template>)
    /// `netrc: true` (`~/.netrc`) or `netrc: FILE` (an absolute path, checked when the suite loads).
    case netrc(file: String?)
    /// `oauth2: {flow, tokenURL, clientId, ...}`: a bearer token from an OAuth2 token endpoint, fetched once for the
    /// run and refreshed when it expires.
    case oauth2(OAuth2Spec)

    /// Every template the authentication renders, in order.
    package var templates: [Template] {
        switch self {
        case .basic(let credentials), .digest(let credentials), .ntlm(let credentials):
            [credentials.user, credentials.password]
        case .bearer(let token): [token]
        case .awsSigV4(let credentials): credentials.fields
        case .netrc, .disabled: []
        case .oauth2(let spec): spec.templates
        }
    }

    /// The kinds, as written under `auth:`: the keys of an `auth:` map, which takes one of them.
    package enum Kind: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case basic, bearer, digest, ntlm, awsSigV4, netrc, oauth2
    }

    /// The kinds, as written under `auth:`.
    package static let kinds = Kind.names

    /// How `auth: none` is written (`false` too).
    package static let disabledName = "none"

    /// A user name and a password, templated.
    package struct CredentialsSpec: Sendable, Hashable {
        /// The user name.
        package var user: Template
        /// The password.
        package var password: Template

        /// Credentials from two templates.
        package init(user: Template, password: Template) {
            self.user = user
            self.password = password
        }
    }
}
