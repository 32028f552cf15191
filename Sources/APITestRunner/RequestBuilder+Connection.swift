import APITestHTTP
import APITestSuite
import APITestSupport

// MARK: - Authentication and transport

extension RequestBuilder {
    /// How a request authenticates, rendered: basic credentials for the serializer, a bearer token for the
    /// `Authorization` header, or a scheme libcurl runs.
    struct RenderedAuthentication {
        var basic: (username: String, password: String)?
        var bearer: String?
        var scheme: HTTPAuthentication?
    }

    /// The `auth` a request uses: its own (`basicAuth` included), else (unless it sends its own `Authorization`
    /// header) `defaults.auth`; none for `auth: none` (`.disabled`), the request's or the defaults'. The one place
    /// that decides, so no header, no OAuth2 token and no libcurl scheme comes from a switched-off `defaults.auth`.
    static func effectiveAuth(of spec: RequestSpec, defaults: RequestDefaults) -> AuthSpec? {
        // `hasAuth` first: `spec.auth` copies the setting out of its box, and most requests have none.
        if spec.hasAuth, let auth = spec.auth { return auth == .disabled ? nil : auth }
        // Asked several times for every request: without a suite-wide auth there is nothing to look for.
        guard let auth = defaults.auth, auth != .disabled else { return nil }
        let ownHeader = spec.headers.contains { $0.name.caseInsensitiveEquals("authorization") }
        return ownHeader ? nil : auth
    }

    /// Whether the request leaves out the `defaults.headers` entry `name`: a request with `auth: none` sends no
    /// `Authorization` header from the defaults (a suite has no other way to drop a default header); one the request
    /// sets itself is sent. `Proxy-Authorization` is the proxy's, not the server's, and is kept.
    static func dropsDefaultHeader(_ name: String, for spec: RequestSpec) -> Bool {
        spec.hasAuth && spec.auth == .disabled && name.caseInsensitiveEquals("authorization")
    }

    /// The request's `auth` (``effectiveAuth(of:defaults:)``) rendered, with `accessToken` the token an `oauth2`
    /// setting obtained. The one place an auth setting becomes what the HTTP layer sends.
    func authentication(
        _ spec: RequestSpec, defaults: RequestDefaults, context: TemplateContext, accessToken: String?
    ) throws -> RenderedAuthentication {
        // Most requests have none: returned as made (a `result` made first was copied out).
        guard let auth = Self.effectiveAuth(of: spec, defaults: defaults) else { return RenderedAuthentication() }
        var result = RenderedAuthentication()
        switch auth {
        case .basic(let credentials):
            result.basic = (try credentials.user.render(context), try credentials.password.render(context))
        case .bearer(let token):
            result.bearer = try token.render(context)
        case .digest(let credentials):
            result.scheme = .digest(
                username: try credentials.user.render(context), password: try credentials.password.render(context))
        case .ntlm(let credentials):
            result.scheme = .ntlm(
                username: try credentials.user.render(context), password: try credentials.password.render(context))
        case .awsSigV4(let signing):
            // The suite's templates rendered into the values libcurl signs with: one credentials type for both.
            result.scheme = .awsSigV4(try signing.map { template in try template.render(context) })
        case .netrc(let file):
            result.scheme = .netrc(file: file)
        case .disabled:
            // `effectiveAuth` gives none for it.
            break
        case .oauth2:
            // The executor obtains the token before it builds the request (`TestExecutor+OAuth2.swift`).
            guard let accessToken else { throw MissingAccessToken() }
            result.bearer = accessToken
        }
        return result
    }

    /// An `oauth2` request built without the token its grant obtained: a runner defect, not a suite's mistake.
    struct MissingAccessToken: Error, CustomStringConvertible {
        var description: String { "internal error: the OAuth2 access token was not obtained before the request" }
    }

    /// A rendered `resolve` or `connectTo` entry that libcurl would not accept.
    struct InvalidTransportEntry: Error, CustomStringConvertible {
        /// `resolve` or `connectTo`.
        var key: String
        /// The entry as rendered.
        var entry: String
        /// What is wrong with it.
        var problem: String

        var description: String { "invalid '\(key)' entry '\(entry)': \(problem)" }
    }

    /// The run's transport flags over the request's transport settings (`own`) over `defaults`' (each set one
    /// replacing), rendered into `request`. The one place these settings become transfer options.
    func applyTransport(
        _ own: TransportSpec?, defaults: RequestDefaults, context: TemplateContext, to request: inout HTTPRequest
    ) throws {
        guard own != nil || defaults.transport != nil || overridesTransport else { return }
        let transport = (own ?? TransportSpec()).over(defaults.transport)
        let flags = transportOverrides
        request.resolve =
            try flags.resolve
            ?? rendered(transport.resolve, key: "resolve", check: TransportEntry.resolveProblem, context)
        request.transport.connectTo =
            try flags.connectTo
            ?? rendered(transport.connectTo, key: "connectTo", check: TransportEntry.connectToProblem, context)
        request.transport.unixSocketPath = flags.unixSocket ?? transport.unixSocket
        request.transport.httpVersion = (flags.httpVersion ?? transport.httpVersion).map {
            switch $0 {
            case .http11: .http11
            case .http2: .http2
            case .http2PriorKnowledge: .http2PriorKnowledge
            }
        }
        request.transport.proxy = try flags.proxy ?? transport.proxy?.render(context)
        request.transport.noProxy = try flags.noProxy ?? transport.noProxy?.render(context)
    }

    /// Entries rendered and checked again (a variable may have made them invalid).
    private func rendered(
        _ templates: [Template]?, key: String, check: (String) -> String?, _ context: TemplateContext
    ) throws -> [String] {
        try (templates ?? []).map { template in
            let entry = try template.render(context)
            if let problem = check(entry) { throw InvalidTransportEntry(key: key, entry: entry, problem: problem) }
            return entry
        }
    }
}
