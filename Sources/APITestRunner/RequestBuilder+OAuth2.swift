import APITestAuth
import APITestHTTP
import APITestSuite
import APITestSupport
import Foundation

// MARK: - OAuth2

extension RequestBuilder {
    /// The largest token response read: a token endpoint answers with a few hundred bytes.
    static let tokenResponseLimit = 1 << 20

    /// The `oauth2` setting a request authenticates with, if any (``effectiveAuth(of:defaults:)``).
    static func oauth2(of spec: RequestSpec, defaults: RequestDefaults) -> OAuth2Spec? {
        if case .oauth2(let oauth2)? = effectiveAuth(of: spec, defaults: defaults) { oauth2 } else { nil }
    }

    /// `oauth2` rendered in `context`, its token URL resolved against the suite's base URL: the one place an
    /// `oauth2` setting becomes the parameters of a token request.
    func grant(
        of oauth2: OAuth2Spec, runtime: SuiteRuntime, context: TemplateContext
    ) throws -> OAuth2Grant {
        try oauth2.map(tokenURL: { try URLResolver.resolve(try $0.render(context), against: runtime.baseURL) }) {
            try $0.render(context)
        }
    }

    /// The token request for `grant` (RFC 6749 §4.3, §4.4, §6): a form POST, the client authenticated by HTTP Basic
    /// (id and secret form-encoded, §2.3.1) or in the body, held to the suite's `security:` policy and sent through
    /// its `defaults` transport settings and the run's transport flags; no cookies, no redirects (credentials are
    /// not sent on to another place). With it, every secret it carries as it goes on the wire (``OAuth2TokenRequest``).
    func tokenRequest(
        for grant: OAuth2Grant, _ kind: OAuth2FetchKind, runtime: SuiteRuntime
    ) throws -> OAuth2TokenRequest {
        // Each field with whether its value is a secret.
        var fields: [(name: String, value: String, secret: Bool)] = [
            ("grant_type", OAuth2Grant.grantType(of: grant.flow, kind), false)
        ]
        switch kind {
        case .refresh(let refreshToken):
            fields.append(("refresh_token", refreshToken, true))
        case .grant:
            switch grant.flow {
            case .clientCredentials: break
            case .password:
                fields.append(("username", grant.username ?? "", false))
                fields.append(("password", grant.password ?? "", true))
            case .refreshToken:
                fields.append(("refresh_token", grant.refreshToken ?? "", true))
            }
            if let scope = grant.scope { fields.append(("scope", scope, false)) }
            if let audience = grant.audience { fields.append(("audience", audience, false)) }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "application/json")
        var sentSecrets: [String] = []
        switch (grant.clientAuthentication, grant.clientSecret) {
        case (.basic, let secret?):
            let encodedSecret = PercentEncoding.encode(secret)
            let pair = PercentEncoding.encode(grant.clientID) + ":" + encodedSecret
            let token = Data(pair.utf8).base64EncodedString()
            headers.add(name: "Authorization", value: "Basic " + token)
            sentSecrets += [secret, encodedSecret, pair, token]
        case (.body, let secret?):
            fields.append(("client_id", grant.clientID, false))
            fields.append(("client_secret", secret, true))
        case (_, nil):
            // A public client names itself in the body (§3.2.1).
            fields.append(("client_id", grant.clientID, false))
        }
        var encodedFields: [String] = []
        for field in fields {
            let value = PercentEncoding.encode(field.value)
            if field.secret { sentSecrets += [field.value, value] }
            encodedFields.append(PercentEncoding.encode(field.name) + "=" + value)
        }
        let body = encodedFields.joined(separator: "&")
        var request = try runtime.serializer.request(
            method: "POST", url: grant.tokenURL, headers: headers,
            body: .raw(Data(body.utf8), contentType: "application/x-www-form-urlencoded"))
        try applyTransport(nil, defaults: runtime.suite.defaults, context: runtime.context, to: &request)
        request.timeout = runtime.suite.defaults.timeout
        request.followRedirects = false
        request.maxBodySize = Self.tokenResponseLimit
        request.security = runtime.security
        return OAuth2TokenRequest(request: request, sentSecrets: sentSecrets)
    }
}
