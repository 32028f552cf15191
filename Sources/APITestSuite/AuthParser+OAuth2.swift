import APITestSupport

// MARK: - OAuth2

extension AuthParser {
    /// `oauth2: {flow, tokenURL, clientId, clientSecret, scope, audience, username, password, refreshToken,
    /// clientAuth}`: the keys the flow needs must be there, and no key of another flow.
    static func oauth2(_ entry: MapEntry, in context: SuiteParseContext) -> OAuth2Spec? {
        guard let entries = context.mapping(entry.value, for: "oauth2") else { return nil }
        context.checkKeys(entries, allowed: OAuth2Spec.keys, in: "oauth2")
        let flowNames = OAuth2Spec.Flow.allCases.map(\.rawValue)
        guard let flowEntry = entries[key: "flow"] else {
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
        for key in ["tokenURL"] + flow.requiredKeys where entries[key: key] == nil {
            context.error("'oauth2' with flow '\(flow.rawValue)' needs a '\(key)'", at: entry.value)
            failed = true
        }
        for other in OAuth2Spec.Flow.allCases where other != flow {
            for key in other.ownKeys where !flow.ownKeys.contains(key) {
                guard let stray = entries[key: key] else { continue }
                context.error(
                    "'\(key)' belongs to flow '\(other.rawValue)', not '\(flow.rawValue)'", at: stray.keyNode)
                failed = true
            }
        }
        var clientAuthentication = OAuth2Spec.ClientAuthentication.basic
        if let member = entries[key: "clientAuth"] {
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
        var templates: [String: Template] = [:]
        for key in OAuth2Spec.keys where key != "flow" && key != "clientAuth" {
            guard let member = entries[key: key] else { continue }
            // The client's id and secret go into a `Basic` header (clientAuth basic).
            let isHeaderValue = key == "clientId" || key == "clientSecret"
            guard
                let template = isHeaderValue
                    ? headerTemplate(member.value, for: key, in: context) : context.template(member.value, for: key)
            else {
                failed = true
                continue
            }
            if key == "tokenURL", template.isLiteral, let problem = tokenURLProblem(template.source) {
                context.error(problem, at: member.value)
                failed = true
            }
            templates[key] = template
        }
        guard !failed, let tokenURL = templates["tokenURL"], let clientID = templates["clientId"] else { return nil }
        return OAuth2Spec(
            flow: flow, tokenURL: tokenURL, clientID: clientID, clientSecret: templates["clientSecret"],
            scope: templates["scope"], audience: templates["audience"], username: templates["username"],
            password: templates["password"], refreshToken: templates["refreshToken"],
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
