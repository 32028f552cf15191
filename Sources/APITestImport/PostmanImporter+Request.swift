import APITestJSON
import APITestSuiteWriting
import APITestSupport

extension PostmanImporter {
    // MARK: - Request

    /// The request of `entry`: every text with its placeholders converted, auth and body translated.
    func request(
        _ entry: Entry, scope: inout PostmanVariableScope, notes: inout [SuiteDocument.Note]
    ) -> SuiteDocument.Request {
        let source = entry.item.request
        let local = entry.localVariables
        var url = scope.convert(source.url, local: local).trimmingSpaces
        if Self.isTyped(source.url), source.url.contains("://") {
            // A password in the user information and credential query parameters: read from the environment.
            url = scope.typedSecrets.url(source.url.trimmingSpaces, entry: 0)
        }
        if !url.isEmpty, !url.hasPrefix("{{"), !url.lowercased().hasPrefix("http://"),
            !url.lowercased().hasPrefix("https://")
        {
            url = "http://" + url // Postman's default scheme
        }
        var request = SuiteDocument.Request(method: source.method, url: url)
        for header in source.headers {
            let name = scope.convert(header.name, local: local, escaping: false)
            if request.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                notes.append(
                    SuiteDocument.Note(
                        location: entry.location,
                        text: "header '\(name)' is given twice: apitest sends the first value only"))
                continue
            }
            if CredentialNames.isCredential(name) || name.lowercased() == "proxy-authorization",
                Self.isTyped(header.value)
            {
                // A credential typed into the header: read from the environment (the scheme of Authorization
                // stays), as import har writes it.
                request.headers.append(
                    SuiteDocument.Header(name, scope.typedSecrets.header(name, header.value, entry: 0)))
                continue
            }
            request.headers.append(SuiteDocument.Header(name, scope.convert(header.value, local: local)))
        }
        if let auth = entry.auth { self.auth(auth, to: &request, entry: entry, scope: &scope, notes: &notes) }
        if let body = source.body {
            self.body(body, to: &request, entry: entry, scope: &scope, notes: &notes)
        }
        return request
    }

    /// Writes `auth` onto `request`: basic, bearer and API key; any other type is a note.
    func auth(
        _ auth: PostmanAuth, to request: inout SuiteDocument.Request, entry: Entry, scope: inout PostmanVariableScope,
        notes: inout [SuiteDocument.Note]
    ) {
        let local = entry.localVariables
        func value(_ key: String, escaping: Bool = true) -> String {
            scope.convert(auth.parameters[key] ?? "", local: local, escaping: escaping)
        }
        // A credential typed into the auth settings (not a `{{variable}}`) is read from an environment variable,
        // named after the auth type and the setting (`BASIC_PASSWORD`), never written into the suite.
        func secret(_ key: String) -> String {
            let raw = auth.parameters[key] ?? ""
            guard Self.isTyped(raw) else { return value(key) }
            return scope.typedSecrets.placeholder(
                for: raw, base: auth.type + "_" + PostmanVariableScope.environmentName(for: key),
                source: "\(auth.type) auth \(key)", entry: 0)
        }
        let hasAuthorization = request.headers.contains { $0.name.lowercased() == "authorization" }
        if hasAuthorization, ["digest", "ntlm", "awsv4"].contains(auth.type) {
            // A suite gives authentication in one place: the request's own header wins, as it does in Postman.
            notes.append(
                SuiteDocument.Note(
                    location: entry.location,
                    text: "auth '\(auth.type)' is not translated: the request sets its own Authorization header"))
            return
        }
        switch auth.type {
        case "basic":
            request.basicAuth = (value("username"), secret("password"))
        case "bearer":
            if !hasAuthorization { request.auth = .bearer(secret("token")) }
        case "apikey":
            let apiKey = secret("value")
            if auth.parameters["in"] == "query" {
                request.url += (request.url.contains("?") ? "&" : "?") + value("key") + "=" + apiKey
            } else {
                let key = value("key", escaping: false)
                if !request.headers.contains(where: { $0.name.lowercased() == key.lowercased() }) {
                    request.headers.append(SuiteDocument.Header(key, apiKey))
                }
            }
        case "digest":
            request.auth = .digest(user: value("username"), password: secret("password"))
            let ignored = ["realm", "nonce", "algorithm", "qop", "nonceCount", "clientNonce", "opaque"].filter {
                !(auth.parameters[$0] ?? "").isEmpty
            }
            if !ignored.isEmpty {
                notes.append(
                    SuiteDocument.Note(
                        location: entry.location,
                        text: "digest auth: \(ignored.joined(separator: ", ")) not translated (libcurl answers the "
                            + "server's challenge itself)"))
            }
        case "ntlm":
            let domain = value("domain")
            let user = domain.isEmpty ? value("username") : domain + "\\" + value("username")
            request.auth = .ntlm(user: user, password: secret("password"))
            if !value("workstation").isEmpty {
                notes.append(
                    SuiteDocument.Note(location: entry.location, text: "ntlm auth: the workstation is not translated"))
            }
        case "awsv4":
            let token = secret("sessionToken")
            request.auth = .awsSigV4(
                AWSSigV4Credentials(
                    accessKey: secret("accessKey"), secretKey: secret("secretKey"),
                    sessionToken: token.isEmpty ? nil : token, region: value("region"), service: value("service")))
        case "oauth2"
        where ["client_credentials", "password_credentials"].contains(auth.parameters["grant_type"] ?? "")
            && !value("accessTokenUrl").isEmpty && !hasAuthorization:
            // Grants apitest runs itself: the token is fetched when the suite runs and renewed as it expires
            // (Newman sends the stored token, and never renews it).
            let password = auth.parameters["grant_type"] == "password_credentials"
            func optional(_ key: String) -> String? {
                let text = value(key)
                return text.isEmpty ? nil : text
            }
            func optionalSecret(_ key: String) -> String? {
                let text = secret(key)
                return text.isEmpty ? nil : text
            }
            request.auth = .oauth2(
                SuiteDocument.Auth.OAuth2(
                    flow: password ? .password : .clientCredentials, tokenURL: value("accessTokenUrl"),
                    clientID: value("clientId"), clientSecret: optionalSecret("clientSecret"), scope: optional("scope"),
                    audience: optional("tokenRequestParams.audience"),
                    username: password ? value("username") : nil, password: password ? secret("password") : nil,
                    clientAuthentication: auth.parameters["client_authentication"] == "body" ? .body : .basic))
            let dropped = auth.parameters.keys.filter {
                $0.hasPrefix("tokenRequestParams.") && $0 != "tokenRequestParams.audience"
            }.sorted()
            if !dropped.isEmpty {
                notes.append(
                    SuiteDocument.Note(
                        location: entry.location,
                        text:
                            "oauth2: token request parameters \(dropped.map { String($0.dropFirst(19)) }.joined(separator: ", ")) "
                            + "are not translated (apitest sends scope and audience)"))
            }
            if !(auth.parameters["accessToken"] ?? "").isEmpty {
                notes.append(
                    SuiteDocument.Note(
                        location: entry.location,
                        text: "oauth2: the stored access token is not kept: apitest fetches one from the token URL "
                            + "when the suite runs, and renews it"))
            }
        case "oauth2" where !(auth.parameters["accessToken"] ?? "").isEmpty:
            // Newman sends the token the collection holds; it never fetches a new one.
            let token = secret("accessToken")
            if auth.parameters["addTokenTo"] == "queryParams" {
                request.url += (request.url.contains("?") ? "&" : "?") + "access_token=" + token
            } else if !hasAuthorization {
                let prefix = auth.parameters["headerPrefix"].map { scope.convert($0, local: local) } ?? "Bearer"
                request.headers.append(
                    SuiteDocument.Header("Authorization", prefix.isEmpty ? token : prefix + " " + token))
            }
            notes.append(
                SuiteDocument.Note(
                    location: entry.location,
                    text: "oauth2: the access token the collection holds is sent as it is; apitest fetches and renews "
                        + "tokens only for the client credentials and password grants"))
        default:
            notes.append(
                SuiteDocument.Note(
                    location: entry.location,
                    text: "auth '\(auth.type)' is not translated: apitest sends the request without it (basic, "
                        + "bearer, apikey, digest, ntlm, awsv4, oauth2 client credentials and password grants, and oauth2 with a "
                        + "stored token are translated)"))
        }
    }

    /// Writes `body` onto `request`.
    func body(
        _ body: PostmanBody, to request: inout SuiteDocument.Request, entry: Entry, scope: inout PostmanVariableScope,
        notes: inout [SuiteDocument.Note]
    ) {
        let local = entry.localVariables
        let hasContentType = request.headers.contains { $0.name.lowercased() == "content-type" }
        switch body {
        case .raw(let text, let language):
            let contentType = hasContentType ? nil : Self.contentType(language: language)
            request.body = .text(scope.convert(text, local: local), contentType: contentType)
        case .urlencoded(let fields):
            request.body = .form(
                fields.map {
                    (
                        name: scope.convert($0.name, local: local, escaping: false),
                        value: .string(scope.convert($0.value, local: local))
                    )
                })
        case .formdata(let parts):
            var result: [SuiteDocument.Part] = []
            for part in parts {
                let name = scope.convert(part.name, local: local)
                let contentType = part.contentType.map { scope.convert($0, local: local) }
                if part.isFile {
                    guard !part.value.isEmpty else {
                        notes.append(
                            SuiteDocument.Note(
                                location: entry.location, text: "form part '\(name)' names no file: left out"))
                        continue
                    }
                    notes.append(
                        SuiteDocument.Note(
                            location: entry.location,
                            text:
                                "form part '\(name)' sends the file \(part.value), read relative to the suite's folder "
                                + "(Newman reads it relative to its working directory)"))
                    result.append(SuiteDocument.Part(name: name, content: .file(part.value), contentType: contentType))
                } else {
                    result.append(
                        SuiteDocument.Part(
                            name: name, content: .value(scope.convert(part.value, local: local)),
                            contentType: contentType))
                }
            }
            request.body = result.isEmpty ? nil : .multipart(result)
        case .file(let path):
            notes.append(
                SuiteDocument.Note(
                    location: entry.location,
                    text: "the body is the file \(path), read relative to the suite's folder (Newman reads it relative "
                        + "to its working directory)"))
            request.body = .file(path: path, contentType: nil)
        case .graphql(let query, let variables):
            let convertedQuery = scope.convert(query, local: local)
            let convertedVariables = scope.convert(variables, local: local).trimmingSpaces
            var parsedVariables: JSONValue?
            if !convertedVariables.isEmpty {
                if let parsed = try? JSONParser.parse(convertedVariables), case .object = parsed {
                    parsedVariables = parsed
                } else {
                    // Unquoted placeholders (`{"id": {{id}}}`): sent as text, as Postman substitutes them.
                    let text = "{\"query\":\(JSONWriter.quoted(convertedQuery)),\"variables\":\(convertedVariables)}"
                    request.body = .text(text, contentType: hasContentType ? nil : "application/json")
                    return
                }
            }
            // A `graphql:` request (POSTed as JSON, its response's `errors` checked): its own Content-Type.
            request.headers.removeAll { $0.name.lowercased() == "content-type" }
            request.body = .graphql(query: convertedQuery, variables: parsedVariables)
        }
    }

    /// Whether `text` is a typed value: not empty and without `{{variable}}` placeholders (a value made of
    /// variables is theirs to keep secret, ``PostmanVariableScope/isSecret(_:)``).
    static func isTyped(_ text: String) -> Bool {
        !text.allSatisfy { $0 == " " } && !text.contains("{{")
    }

    /// The `Content-Type` Postman sends for a raw body of `language` when the request sets none.
    static func contentType(language: String?) -> String? {
        switch language {
        case "json"?: return "application/json"
        case "xml"?: return "application/xml"
        case "html"?: return "text/html"
        case "javascript"?: return "application/javascript"
        case "text"?: return "text/plain"
        default: return nil
        }
    }
}
