import APITestSupport
import APITestYAML

/// `auth:`: one kind of authentication with its settings.
enum AuthParser {
    /// The keys of `basic`, `digest` and `ntlm` (`username` is the same as `user`, as in `basicAuth`).
    enum CredentialKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case user, username, password

        var schema: SchemaValue { .ref("template") }
    }

    /// The keys of `awsSigV4`.
    enum AWSSigV4Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case accessKey, secretKey, sessionToken, region, service

        var schema: SchemaValue { .ref("template") }
    }

    /// The keys of `basic`, `digest` and `ntlm`, as written.
    static let credentialKeys = CredentialKey.names
    /// The keys of `awsSigV4`, as written.
    static let awsSigV4Keys = AWSSigV4Key.names

    /// The authentication of an `auth:` map, or `auth: none` / `auth: false`; nil when it has errors (reported).
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> AuthSpec? {
        // `auth:` with nothing after it is an empty map (reported below), as every key's.
        if let scalar = context.scalar(node), YAMLScalar(scalar) != .null {
            return disabled(YAMLScalar(scalar), text: scalar.string, at: node, in: context)
        }
        guard let entries = context.mapping(node, for: "auth") else { return nil }
        context.checkKeys(entries, of: AuthSpec.Kind.self, in: "auth")
        let kinds = entries.compactMap { entry in AuthSpec.Kind(named: entry.key).map { (entry, $0) } }
        guard let (entry, kind) = kinds.first else {
            if entries.isEmpty {
                // `auth:`, `auth: ~`, `auth: null`, `auth: {}`: say how to switch authentication off, too.
                context.error(
                    "'auth' needs one of \(AuthSpec.kinds.map { "'\($0)'" }.joined(separator: ", ")), or 'none' "
                        + "(or false) for no authentication",
                    at: node)
            }
            return nil
        }
        if kinds.count > 1 {
            context.error(
                "'auth' takes one kind; found both '\(entry.key)' and '\(kinds[1].0.key)'", at: kinds[1].0.keyNode)
            return nil
        }
        switch kind {
        case .basic: return credentials(entry, in: context).map(AuthSpec.basic)
        case .digest: return credentials(entry, in: context).map(AuthSpec.digest)
        case .ntlm: return credentials(entry, in: context).map(AuthSpec.ntlm)
        case .bearer: return headerTemplate(entry.value, for: "bearer", in: context).map(AuthSpec.bearer)
        case .awsSigV4: return awsSigV4(entry, in: context).map(AuthSpec.awsSigV4)
        case .oauth2: return oauth2(entry, in: context).map(AuthSpec.oauth2)
        case .netrc: return netrc(entry, in: context)
        }
    }

    /// `auth: none` or `auth: false`; any other scalar is an error that says what `auth` takes.
    private static func disabled(
        _ value: YAMLScalar, text scalar: String, at node: YAMLNode, in context: SuiteParseContext
    ) -> AuthSpec? {
        if case .bool(false) = value { return .disabled }
        if case .string(let text) = value, text == AuthSpec.disabledName { return .disabled }
        let kinds = AuthSpec.kinds.map { "'\($0)'" }.joined(separator: ", ")
        let found: String
        if case .string(let text) = value {
            let isKind = AuthSpec.Kind(named: text) != nil
            found =
                "'\(text)'" + (isKind ? "" : Suggestion.didYouMean(text, in: [AuthSpec.disabledName] + AuthSpec.kinds))
        } else {
            found = value.kindName + " '\(scalar)'"
        }
        context.error(
            "'auth' takes a map of one kind (\(kinds)), or 'none' (or false) for no authentication; found \(found)",
            at: node,
            note: AuthSpec.Kind(named: scalar) != nil
                ? "write the kind as a key with its settings: auth: {\(scalar): ...}"
                : "'auth: none' sends the request without the suite's defaults.auth")
        return nil
    }

    /// `{user, password}` of `basic`, `digest` or `ntlm`.
    private static func credentials(_ entry: MapEntry, in context: SuiteParseContext) -> AuthSpec.CredentialsSpec? {
        guard let entries = context.mapping(entry.value, for: entry.key) else { return nil }
        context.checkKeys(entries, of: CredentialKey.self, in: entry.key)
        let users = entries.filter {
            $0.key == CredentialKey.user.rawValue || $0.key == CredentialKey.username.rawValue
        }
        if users.count > 1 {
            context.error("'\(entry.key)' takes 'user' or its alias 'username', not both", at: users[1].keyNode)
            return nil
        }
        var missing = false
        if users.isEmpty {
            context.error("'\(entry.key)' needs a 'user'", at: entry.value)
            missing = true
        }
        if entries[CredentialKey.password] == nil {
            context.error("'\(entry.key)' needs a 'password'", at: entry.value)
            missing = true
        }
        guard !missing, let user = headerTemplate(users[0].value, for: users[0].key, in: context),
            let password = entries[CredentialKey.password].flatMap({
                headerTemplate($0.value, for: "password", in: context)
            })
        else { return nil }
        return AuthSpec.CredentialsSpec(user: user, password: password)
    }

    /// `{accessKey, secretKey, sessionToken, region, service}` of `awsSigV4`.
    private static func awsSigV4(_ entry: MapEntry, in context: SuiteParseContext) -> AWSSigV4Credentials<Template>? {
        guard let entries = context.mapping(entry.value, for: "awsSigV4") else { return nil }
        context.checkKeys(entries, of: AWSSigV4Key.self, in: "awsSigV4")
        var values: [AWSSigV4Key: Template] = [:]
        var missing = false
        for key in AWSSigV4Key.allCases {
            guard let member = entries[key] else {
                if key != .sessionToken {
                    context.error("'awsSigV4' needs a '\(key.rawValue)'", at: entry.value)
                    missing = true
                }
                continue
            }
            guard let template = headerTemplate(member.value, for: key.rawValue, in: context) else {
                missing = true
                continue
            }
            if key == .region || key == .service, template.isLiteral,
                template.source.isEmpty || template.source.contains(":")
            {
                context.error("'\(key.rawValue)' must be a non-empty name without ':'", at: member.value)
                missing = true
            }
            values[key] = template
        }
        guard !missing, let accessKey = values[.accessKey], let secretKey = values[.secretKey],
            let region = values[.region], let service = values[.service]
        else { return nil }
        return AWSSigV4Credentials(
            accessKey: accessKey, secretKey: secretKey, sessionToken: values[.sessionToken], region: region,
            service: service)
    }

    /// The template of a setting whose value goes into a header (a bearer token, a user name or password, an AWS
    /// key): what ``RequestParser/forbiddenCharacter(inHeaderValue:)`` refuses in a header value (a line break, NUL,
    /// another control character but HTAB, DEL) is a located error here too, not a request refused at run time.
    static func headerTemplate(_ node: YAMLNode, for key: String, in context: SuiteParseContext) -> Template? {
        guard let template = context.template(node, for: key) else { return nil }
        if let problem = RequestParser.forbiddenCharacter(inHeaderValue: template.source) {
            context.error("the value of '\(key)' cannot contain \(problem)", at: node)
            return nil
        }
        return template
    }

    /// `netrc: true` or `netrc: FILE`.
    private static func netrc(_ entry: MapEntry, in context: SuiteParseContext) -> AuthSpec? {
        if let scalar = context.scalar(entry.value), case .bool(let value) = YAMLScalar(scalar) {
            guard value else {
                context.error("'netrc' takes true (for ~/.netrc) or a file path", at: entry.value)
                return nil
            }
            return .netrc(file: nil)
        }
        guard let path = context.text(entry.value, for: "netrc"),
            let absolute = context.checkBodyFile(path, at: entry.value, for: "netrc")
        else { return nil }
        return .netrc(file: absolute)
    }
}

// MARK: - Schema

extension AuthSpec.Kind {
    var schema: SchemaValue {
        switch self {
        case .basic: Self.credentials("HTTP basic authentication: user (or username) and password, templated.")
        case .bearer: .described("A bearer token, sent as Authorization: Bearer <token>; templated.", ref: "template")
        case .digest: Self.credentials("HTTP Digest (RFC 7616), answered by libcurl: user and password, templated.")
        case .ntlm: Self.credentials("NTLM, run by libcurl: user and password, templated.")
        case .awsSigV4:
            .described(
                "AWS Signature Version 4, computed by libcurl.",
                [
                    "type": "object", "additionalProperties": false,
                    "required": .strings(AuthParser.AWSSigV4Key.names.filter { $0 != "sessionToken" }),
                    "properties": AuthParser.AWSSigV4Key.properties,
                ])
        case .netrc:
            .described(
                "true for ~/.netrc, or a netrc file relative to the suite file.",
                ["anyOf": [["const": true], .ref("filePath")]])
        case .oauth2: OAuth2Spec.Key.definition
        }
    }

    /// The definition of `auth:`: a map of one kind, or `none` / `false`.
    static var definition: SchemaValue {
        .described(
            "How the request authenticates: exactly one kind, or none (or false) for no authentication, which "
                + "switches defaults.auth off (docs/auth.md).",
            [
                // The object keywords hold for a map only; `anyOf` lets a map, `none` or `false` through.
                "anyOf": [["type": "object"], ["enum": [.string(AuthSpec.disabledName), false]]],
                "additionalProperties": false, "minProperties": 1, "maxProperties": 1, "properties": properties,
            ])
    }

    /// `{user, password}` (or `username`) of `basic`, `digest` and `ntlm`.
    private static func credentials(_ description: String) -> SchemaValue {
        .described(
            description,
            [
                "type": "object", "additionalProperties": false, "required": ["password"],
                "properties": AuthParser.CredentialKey.properties,
                "oneOf": [["required": ["user"]], ["required": ["username"]]],
            ])
    }
}
