import APITestSupport
import APITestYAML

// MARK: - OAuth2

extension AuthParser {
    /// `oauth2: {flow, tokenURL, clientId, clientSecret, scope, audience, username, password, refreshToken,
    /// clientAuth}`: the keys the flow needs must be there, and no key of another flow.
    static func oauth2(_ entry: MapEntry, in context: SuiteParseContext) -> OAuth2Spec? {
        guard let entries = context.mapping(entry.value, for: "oauth2") else { return nil }
        context.checkKeys(entries, of: OAuth2Spec.Key.self, in: "oauth2")
        let flowNames = OAuth2Spec.Flow.allCases.map(\.rawValue)
        guard let flowEntry = entries[OAuth2Spec.Key.flow] else {
            context.error(
                "'oauth2' needs a 'flow': \(flowNames.joined(separator: ", "))", at: entry.value)
            return nil
        }
        guard let flowText = context.text(flowEntry.value, for: "flow") else { return nil }
        guard let flow = OAuth2Spec.Flow(rawValue: flowText) else {
            context.error(
                "unknown OAuth2 flow '\(flowText)'; use \(flowNames.joined(separator: ", "))"
                    + Suggestion.didYouMean(flowText, in: flowNames), at: flowEntry.value)
            return nil
        }
        var failed = false
        for key in [.tokenURL] + flow.requiredKeys where entries[key] == nil {
            context.error("'oauth2' with flow '\(flow.rawValue)' needs a '\(key.rawValue)'", at: entry.value)
            failed = true
        }
        for other in OAuth2Spec.Flow.allCases where other != flow {
            for key in other.ownKeys where !flow.ownKeys.contains(key) {
                guard let stray = entries[key] else { continue }
                context.error(
                    "'\(key.rawValue)' belongs to flow '\(other.rawValue)', not '\(flow.rawValue)'", at: stray.keyNode)
                failed = true
            }
        }
        var clientAuthentication = OAuth2Spec.ClientAuthentication.basic
        if let member = entries[OAuth2Spec.Key.clientAuth] {
            let names = OAuth2Spec.ClientAuthentication.allCases.map(\.rawValue)
            if let text = context.text(member.value, for: "clientAuth") {
                if let value = OAuth2Spec.ClientAuthentication(rawValue: text) {
                    clientAuthentication = value
                } else {
                    context.error(
                        "unknown clientAuth '\(text)'; use basic or body" + Suggestion.didYouMean(text, in: names),
                        at: member.value)
                    failed = true
                }
            } else {
                failed = true
            }
        }
        var templates: [OAuth2Spec.Key: Template] = [:]
        for key in OAuth2Spec.Key.allCases where key != .flow && key != .clientAuth {
            guard let member = entries[key] else { continue }
            // The client's id and secret go into a `Basic` header (clientAuth basic).
            let isHeaderValue = key == .clientId || key == .clientSecret
            guard
                let template = isHeaderValue
                    ? headerTemplate(member.value, for: key.rawValue, in: context)
                    : context.template(member.value, for: key.rawValue)
            else {
                failed = true
                continue
            }
            if key == .tokenURL, template.isLiteral, let problem = tokenURLProblem(template.source) {
                context.error(problem, at: member.value)
                failed = true
            }
            templates[key] = template
        }
        guard !failed, let tokenURL = templates[.tokenURL], let clientID = templates[.clientId] else { return nil }
        return OAuth2Spec(
            flow: flow, tokenURL: tokenURL, clientID: clientID, clientSecret: templates[.clientSecret],
            scope: templates[.scope], audience: templates[.audience], username: templates[.username],
            password: templates[.password], refreshToken: templates[.refreshToken],
            clientAuthentication: clientAuthentication)
    }

    /// Why a literal `tokenURL` cannot be a token endpoint; nil when it can (absolute http(s), or a path relative
    /// to `baseURL`).
    static func tokenURLProblem(_ url: String) -> String? {
        if url.isEmpty { return "'tokenURL' is empty" }
        if url.contains(where: { $0 == " " || $0.isNewline }) { return "'tokenURL' holds white space" }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") {
            let scheme = url[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else {
                return "'tokenURL' must be an http or https URL, not '\(scheme):'"
            }
            if url.contains("#") { return "'tokenURL' must not have a fragment (RFC 6749 §3.2)" }
        }
        return nil
    }
}

// MARK: - Schema

extension OAuth2Spec.Key {
    var schema: SchemaValue {
        switch self {
        case .flow:
            .described(
                "The grant: clientCredentials (needs clientSecret), password (username, password) or refreshToken "
                    + "(refreshToken).", ["enum": .strings(OAuth2Spec.Flow.allCases.map(\.rawValue))])
        case .tokenURL:
            .described("The token endpoint: absolute http(s), or relative to baseURL; templated.", ref: "template")
        case .clientId: .described("The client id; templated.", ref: "template")
        case .clientSecret:
            .described(
                "The client secret (a secret: masked everywhere); templated. Without it the client is public and "
                    + "sends client_id in the body.", ref: "template")
        case .scope: .described("The scopes asked for, space-separated; templated.", ref: "template")
        case .audience: .described("The audience parameter (Auth0, Okta); templated.", ref: "template")
        case .username: .described("The resource owner's user name (flow password); templated.", ref: "template")
        case .password: .described("The resource owner's password (flow password); templated.", ref: "template")
        case .refreshToken:
            .described("The refresh token to start from (flow refreshToken); templated.", ref: "template")
        case .clientAuth:
            .described(
                "How the client authenticates: basic (HTTP Basic, the default) or body (client_id and client_secret "
                    + "in the form).", ["enum": .strings(OAuth2Spec.ClientAuthentication.allCases.map(\.rawValue))])
        }
    }

    /// The definition of `oauth2:`: each flow's keys required, and the keys only other flows take refused.
    static var definition: SchemaValue {
        let flows: [SchemaValue] = OAuth2Spec.Flow.allCases.map { flow in
            let others = OAuth2Spec.Flow.allCases.filter { $0 != flow }.flatMap(\.ownKeys).filter {
                !flow.ownKeys.contains($0)
            }
            let refused: [SchemaValue] = others.map { ["required": [.string($0.rawValue)]] }
            return [
                "if": ["properties": ["flow": ["const": .string(flow.rawValue)]]],
                "then": [
                    "required": .strings(flow.requiredKeys.filter { $0 != .clientId }.map(\.rawValue)),
                    "not": refused.count == 1 ? refused[0] : ["anyOf": .array(refused)],
                ],
            ]
        }
        return .described(
            "A bearer token from an OAuth2 token endpoint, fetched once for the run and renewed before it expires "
                + "(docs/auth.md#oauth2).",
            [
                "type": "object", "additionalProperties": false, "required": ["flow", "tokenURL", "clientId"],
                "properties": properties, "allOf": .array(flows),
            ])
    }
}
