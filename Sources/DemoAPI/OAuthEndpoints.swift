import Foundation
import HTTPTypes
import Hummingbird

// MARK: - OAuthEndpoints

/// `/oauth/*`: an OAuth2 authorization server (RFC 6749 token endpoint: client credentials, password and refresh
/// token grants; client authentication by HTTP Basic or in the body) that issues short-lived bearer tokens, a
/// protected resource that accepts only a live one (RFC 6750 `invalid_token` otherwise), a broken token endpoint,
/// a switch that revokes every access token, and the counts tests read.
enum OAuthEndpoints {
    /// The largest token request body read.
    static let bodyLimit = 64 * 1024

    static func routes(issuer: OAuthTokenIssuer) -> [Route] {
        [
            Route(["POST"], "/oauth/token") { request in try await token(request, issuer: issuer) },
            Route(["POST"], "/oauth/token-broken") { _ in
                await issuer.countBrokenAttempt()
                return tokenError(
                    .internalServerError, "server_error", "the token service is down (demo: this endpoint always fails)"
                )
            },
            Route(["GET"], "/oauth/me") { request in try await protected(request, issuer: issuer) },
            Route(["POST"], "/oauth/revoke-all") { _ in
                Reply.json(["revoked": .int(await issuer.revokeAccessTokens())])
            },
            Route(["GET"], "/oauth/issued") { _ in
                Reply.json(["tokens": .array(await issuer.everyToken.map(JSON.string))])
            },
            Route(["GET"], "/oauth/stats") { _ in
                let counts = await issuer.counts
                return Reply.json([
                    "issued": .int(counts.issued), "refreshed": .int(counts.refreshed), "refused": .int(counts.refused),
                    "rejected": .int(counts.rejected), "served": .int(counts.served),
                    "brokenAttempts": .int(counts.brokenAttempts),
                    "lifetime": .int(issuer.lifetime.components.seconds),
                ])
            },
        ]
    }

    // MARK: - Token endpoint

    /// `POST /oauth/token`.
    private static func token(_ request: DemoRequest, issuer: OAuthTokenIssuer) async throws -> Response {
        let contentType = (request.header(.contentType) ?? "").lowercased()
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            await issuer.countRefused()
            return tokenError(.badRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
        }
        let body = try await request.readBody(limit: bodyLimit)
        let pairs = FormEncoding.pairs(String(decoding: body, as: UTF8.self))
        var parameters: [String: String] = [:]
        for (name, value) in pairs {
            // RFC 6749 §3.2: a parameter must not be sent more than once.
            guard parameters[name] == nil else {
                await issuer.countRefused()
                return tokenError(.badRequest, "invalid_request", "parameter '\(name)' is repeated")
            }
            parameters[name] = value
        }
        // Client authentication: HTTP Basic (each part form-encoded, RFC 6749 §2.3.1) or client_id/client_secret.
        var client: (id: String, secret: String)?
        var usedBasic = false
        if let authorization = request.header(.authorization) {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "basic",
                let data = Data(base64Encoded: parts[1].trimmingHTTPWhitespace()),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            {
                client = (
                    FormEncoding.percentDecode(pair[..<colon], plusAsSpace: true),
                    FormEncoding.percentDecode(pair[pair.index(after: colon)...], plusAsSpace: true)
                )
                usedBasic = true
            }
        }
        if let id = parameters["client_id"], let secret = parameters["client_secret"] {
            guard client == nil else {
                await issuer.countRefused()
                return tokenError(.badRequest, "invalid_request", "the client authenticated in two ways")
            }
            client = (id, secret)
        }
        guard let client, client.id == OAuthTokenIssuer.clientID, client.secret == OAuthTokenIssuer.clientSecret else {
            await issuer.countRefused()
            var headers = HTTPFields()
            if usedBasic { headers[.wwwAuthenticate] = "Basic realm=\"apitest-demo\"" }
            return tokenError(.unauthorized, "invalid_client", "unknown client or wrong secret", headers: headers)
        }
        let scope = parameters["scope"]
        let audience = parameters["audience"]
        let issued: (access: String, refresh: String?)
        var grantedScope = scope
        switch parameters["grant_type"] {
        case "client_credentials":
            issued = await issuer.issue(
                client: client.id, user: nil, scope: scope, audience: audience, withRefresh: false, refreshing: false)
        case "password":
            guard let user = parameters["username"], let password = parameters["password"],
                OAuthTokenIssuer.users[user] == password
            else {
                await issuer.countRefused()
                return tokenError(.badRequest, "invalid_grant", "wrong user name or password")
            }
            issued = await issuer.issue(
                client: client.id, user: user, scope: scope, audience: audience, withRefresh: true, refreshing: false)
        case "refresh_token":
            guard let refresh = parameters["refresh_token"],
                let grant = await issuer.redeem(refreshToken: refresh, client: client.id)
            else {
                await issuer.countRefused()
                return tokenError(.badRequest, "invalid_grant", "unknown, used or foreign refresh token")
            }
            grantedScope = scope ?? grant.scope
            issued = await issuer.issue(
                client: client.id, user: grant.user, scope: grantedScope, audience: grant.audience, withRefresh: true,
                refreshing: true)
        case nil:
            await issuer.countRefused()
            return tokenError(.badRequest, "invalid_request", "grant_type is missing")
        case let other?:
            await issuer.countRefused()
            return tokenError(.badRequest, "unsupported_grant_type", "grant type '\(other)' is not supported")
        }
        var members: [(String, JSON)] = [
            ("access_token", .string(issued.access)), ("token_type", .string("Bearer")),
            ("expires_in", .int(issuer.lifetime.components.seconds)),
        ]
        if let refresh = issued.refresh { members.append(("refresh_token", .string(refresh))) }
        if let grantedScope { members.append(("scope", .string(grantedScope))) }
        return Reply.json(.object(members), headers: noStore())
    }

    /// An RFC 6749 §5.2 error reply.
    private static func tokenError(
        _ status: HTTPResponse.Status, _ code: String, _ description: String, headers: HTTPFields = [:]
    ) -> Response {
        var fields = noStore()
        for field in headers { fields.append(field) }
        return Reply.json(
            ["error": .string(code), "error_description": .string(description)], status: status, headers: fields)
    }

    /// `Cache-Control: no-store` and `Pragma: no-cache`, as RFC 6749 §5.1 asks of token replies.
    private static func noStore() -> HTTPFields {
        var fields = HTTPFields()
        fields[.cacheControl] = "no-store"
        if let pragma = HTTPField.Name("Pragma") { fields[pragma] = "no-cache" }
        return fields
    }

    // MARK: - Protected resource

    /// `GET /oauth/me[?delay=MS]`: who the live bearer token speaks for; the reply waits `delay` ms after the token
    /// was checked (a slow API). A missing token gets a bare challenge, an unknown or expired one `invalid_token`.
    private static func protected(_ request: DemoRequest, issuer: OAuthTokenIssuer) async throws -> Response {
        let delay = try request.intQuery("delay", default: 0, in: 0...5000)
        let authorization = request.header(.authorization) ?? ""
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            await issuer.countRejected()
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer realm=\"apitest-demo\""
            return Reply.json(["error": "missing bearer token"], status: .unauthorized, headers: headers)
        }
        let (grant, expired) = await issuer.check(accessToken: parts[1].trimmingHTTPWhitespace())
        guard let grant else {
            let description = expired ? "the access token expired" : "unknown access token"
            var headers = HTTPFields()
            headers[.wwwAuthenticate] =
                "Bearer realm=\"apitest-demo\", error=\"invalid_token\", error_description=\"\(description)\""
            return Reply.json(
                ["error": "invalid_token", "error_description": .string(description)], status: .unauthorized,
                headers: headers)
        }
        let left = await issuer.secondsLeft(grant)
        if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
        return Reply.json([
            "client": .string(grant.client), "user": grant.user.map(JSON.string) ?? .null,
            "scope": grant.scope.map(JSON.string) ?? .null, "audience": grant.audience.map(JSON.string) ?? .null,
            "expiresIn": .int(left),
        ])
    }
}
