import APITestSupport
import APITestYAML

/// `request:`: the method, URL, query, headers, credentials, body and transfer settings of a step.
enum RequestParser {
    /// The keys of a request besides the transport keys (``TransportSpec/Key``), which follow them.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case method, url, query, headers, basicAuth, json, form, body, bodyFile, multipart, plist, xml, contentType
        case plistFormat, timeout, followRedirects, maxRedirects, compressed, auth
        case graphql

        /// The body keys, of which a request takes one.
        static let bodies: [Key] = [.json, .form, .body, .bodyFile, .multipart, .plist, .xml, .graphql]

        var schema: SchemaValue {
            switch self {
            case .method:
                .described(
                    "The HTTP method, an HTTP token; upper-cased on load (default GET).",
                    ["type": SuiteSchema.scalarTypes, "pattern": SuiteSchema.token])
            case .url:
                .described(
                    "Absolute http(s) URL, or relative to `baseURL`; templated.",
                    [
                        "type": SuiteSchema.scalarTypes, "minLength": 1,
                        "pattern": #"^(?:(?![A-Za-z][A-Za-z0-9+.-]*://)|[Hh][Tt][Tt][Pp][Ss]?://)"#,
                    ])
            case .query:
                .described(
                    "Query parameters; values templated, and may be lists and maps (`filter: {role: admin}`, "
                        + "`ids: [1, 2]`).", ["type": "object"])
            case .headers: .described("Request headers, templated.", ref: "headers")
            case .basicAuth:
                .described(
                    "HTTP basic authentication.",
                    [
                        "type": "object", "additionalProperties": false, "required": .strings(BasicAuthKey.names),
                        "properties": BasicAuthKey.properties,
                    ])
            case .json:
                .described(
                    "A body sent as JSON (any YAML value, templated; a string that is exactly one placeholder keeps "
                        + "the value's type).")
            case .form:
                .described("A body sent as application/x-www-form-urlencoded; values templated.", ["type": "object"])
            case .body: .described("A raw text body, templated.", ref: "template")
            case .bodyFile:
                .described(
                    "A file's bytes as the body, streamed from disk; relative to the suite file.", ref: "filePath")
            case .multipart:
                .described(
                    "A multipart/form-data body: a list of parts, each with a `name` and one of `value`, `file` or "
                        + "`data`.", ["type": "array", "minItems": 1, "items": .ref("multipartPart")])
            case .plist:
                .described(
                    "A property-list body (XML, or binary with `plistFormat: binary`); any value but null, templated.",
                    ref: "plistValue")
            case .plistFormat:
                .described(
                    "The encoding of a `plist` body.", ["enum": .strings(PropertyListFormat.allCases.map(\.rawValue))])
            case .xml:
                .described(
                    "An XML body sent as application/xml: the document as text (templated), or `{file: path}` "
                        + "streamed from disk.",
                    [
                        "anyOf": [
                            .ref("template"),
                            [
                                "type": "object", "additionalProperties": false, "required": ["file"],
                                "properties": BodyParser.XMLKey.properties,
                            ],
                        ]
                    ])
            case .contentType:
                .described(
                    "Content-Type for a `body` or `bodyFile` body (the other bodies set their own).", ref: "template")
            case .timeout: .described("This request's time limit (default: defaults.timeout).", ref: "duration")
            case .followRedirects, .maxRedirects, .compressed: .ref(rawValue)
            case .auth: .described("How this request authenticates (replaces defaults.auth).", ref: "auth")
            case .graphql: GraphQLParser.Key.definition
            }
        }

        /// The definition of `request:`: at most one body, `plistFormat` with `plist`, `contentType` with `body` or
        /// `bodyFile`.
        static var definition: SchemaValue {
            let oneBody: [SchemaValue] = bodies.map { body in
                [
                    "if": ["required": [.string(body.rawValue)]],
                    "then": ["properties": .members(bodies.filter { $0 != body }.map { ($0.rawValue, false) })],
                ]
            }
            return .described(
                "An HTTP request. At most one body: json, form, body, bodyFile, multipart, plist or xml.",
                [
                    "type": "object", "additionalProperties": false, "required": ["url"],
                    "properties": properties.merged(with: TransportSpec.Key.properties),
                    "dependentRequired": ["plistFormat": ["plist"]],
                    "dependentSchemas": [
                        "contentType": ["anyOf": [["required": ["body"]], ["required": ["bodyFile"]]]]
                    ],
                    "allOf": .array(oneBody),
                ])
        }
    }

    /// The keys of `basicAuth:`.
    enum BasicAuthKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case username, password

        var schema: SchemaValue { .ref("template") }
    }

    /// The keys of a request, as written.
    static let keys = Key.names + TransportSpec.Key.names
    /// The keys of `basicAuth:`, as written.
    static let basicAuthKeys = BasicAuthKey.names

    // MARK: - Request

    /// A request; `nil` when it has no usable URL (errors are reported). `hasBaseURL` is true when the suite is known
    /// to have a base URL (false when it has none, or when that is not known yet).
    static func parse(_ node: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext) -> RequestSpec? {
        // A map of request keys only (nearly every one) is read without making its keys' texts or checking them.
        let entries: [MapEntry]
        if let known = context.knownEntries(of: node, Key.self) {
            entries = known
        } else {
            guard let all = context.mapping(node, for: "request") else { return nil }
            context.checkKeys(all, of: Key.self, and: TransportSpec.Key.self, in: "request")
            entries = all
        }
        let requestLocation = context.location(of: node)
        var method = "GET"
        var url: Template?
        var spec = RequestSpec(url: Template(literal: "", location: requestLocation), location: requestLocation)
        var bodyEntry: MapEntry?
        var contentTypeEntry: MapEntry?
        var plistFormatEntry: MapEntry?

        for entry in entries {
            switch Key(named: entry.key) {
            case .method:
                if let text = context.text(entry.value, for: "method") {
                    if SuiteParseContext.isToken(text) {
                        method = text.uppercased()
                    } else {
                        context.error("invalid HTTP method '\(text)'", at: entry.value)
                    }
                }
            case .url:
                url = context.template(entry.value, for: "url")
                if let url {
                    // A GraphQL subscription's URL is ws:// or wss://.
                    let graphql = entries[Key.graphql] != nil
                    checkURL(url, at: entry.value, hasBaseURL: hasBaseURL, allowsWebSocket: graphql, in: context)
                }
            case .query:
                if context.isMapping(entry.value) {
                    spec.query = context.templateValue(entry.value)
                } else {
                    context.typeError(expected: "a map", for: "query", found: entry.value)
                }
            case .headers:
                spec.headers = headers(entry.value, in: context)
            case .basicAuth:
                // The older spelling of `auth: {basic: ...}`, stored the same way.
                if let credentials = basicAuth(entry.value, in: context) { spec.auth = .basic(credentials) }
            case .auth:
                spec.auth = AuthParser.parse(entry.value, in: context)
            case .json, .form, .body, .bodyFile, .multipart, .plist, .xml, .graphql:
                if let first = bodyEntry {
                    context.error(
                        "a request takes one body; found both '\(first.key)' and '\(entry.key)'", at: entry.keyNode)
                    continue
                }
                bodyEntry = entry
                // `graphql` is read after the loop: it depends on the method.
                if entry.key != Key.graphql.rawValue { spec.body = BodyParser.parse(entry, in: context) }
            case .contentType:
                contentTypeEntry = entry
                spec.contentType = context.template(entry.value, for: "contentType")
            case .plistFormat:
                plistFormatEntry = entry
            case .timeout:
                spec.timeout = context.duration(entry.value, for: "timeout")
            case .followRedirects:
                spec.followRedirects = context.bool(entry.value, for: "followRedirects")
            case .maxRedirects:
                spec.maxRedirects = context.integer(entry.value, for: "maxRedirects", in: 0...1000)
            case .compressed:
                spec.compressed = context.bool(entry.value, for: "compressed")
            case nil:
                guard let key = TransportSpec.Key(named: entry.key) else { break }
                var transport = spec.transport ?? TransportSpec()
                TransportParser.parse(entry, key: key, into: &transport, in: context)
                spec.transport = transport
            }
        }
        if let bodyEntry, bodyEntry.key == Key.graphql.rawValue {
            // A GraphQL operation is POSTed as JSON unless `method` is written (GET only when written).
            if entries[Key.method] == nil { method = "POST" }
            readGraphQL(bodyEntry, method: method, url: url, into: &spec, in: context)
        }
        // Only a request with `auth` has anything to check (the call copied the request for every one).
        if entries[Key.auth] != nil { checkAuthentication(entries, spec, in: context) }
        if let contentTypeEntry, bodyEntry.map({ [Key.body, .bodyFile].contains(Key(named: $0.key)) }) != true {
            let detail = bodyEntry.map { "not with '\($0.key)', which sets its own" } ?? "and this request has neither"
            context.error("'contentType' applies to 'body' or 'bodyFile', \(detail)", at: contentTypeEntry.keyNode)
        }
        if let plistFormatEntry {
            if bodyEntry?.key != Key.plist.rawValue {
                context.error("'plistFormat' applies to a 'plist' body", at: plistFormatEntry.keyNode)
            } else if let format = BodyParser.plistFormat(plistFormatEntry.value, in: context),
                case .plist(let value, _) = spec.body
            {
                spec.body = .plist(value, format: format)
            }
        }
        guard let url else {
            if entries[Key.url] == nil {
                context.error("request needs a 'url'", at: requestLocation)
            }
            return nil
        }
        spec.method = method
        spec.url = url
        return spec
    }

    /// Checks a literal URL of a suite known to have a base URL now, and leaves the others to `ScopeChecker`, which
    /// knows the variables and the suite's base URL: a suite can have 100,000 URLs, and most are literal.
    private static func checkURL(
        _ url: Template, at node: YAMLNode, hasBaseURL: Bool, allowsWebSocket: Bool = false,
        in context: SuiteParseContext
    ) {
        if hasBaseURL, url.isLiteral {
            ScopeChecker.checkRequestURL(
                url, prefix: url.source, length: context.length(of: node), hasBaseURL: true,
                allowsWebSocket: allowsWebSocket, in: context)
        } else {
            context.shared.urlChecks.append(
                SuiteParseContext.URLCheck(
                    template: url, length: context.length(of: node), allowsWebSocket: allowsWebSocket))
        }
    }

    // MARK: - Headers and credentials

    /// Header names and value templates, in document order.
    static func headers(_ node: YAMLNode, in context: SuiteParseContext) -> [HeaderSpec] {
        var headers: [HeaderSpec] = []
        func read(_ entry: MapEntry) {
            guard context.checkHeaderName(entry.key, at: entry.keyNode),
                let value = context.template(entry.value, for: entry.key)
            else { return }
            if let problem = forbiddenCharacter(inHeaderValue: value.source) {
                context.error("the value of header '\(entry.key)' cannot contain \(problem)", at: entry.value)
                return
            }
            headers.append(HeaderSpec(name: entry.key, value: value, location: context.location(of: entry.keyNode)))
        }
        // A map of plain keys (nearly every one) is read without the array of entries `mapping(_:for:)` makes.
        if context.forEachPlainEntry(of: node, read) { return headers }
        guard let entries = context.mapping(node, for: "headers") else { return [] }
        for entry in entries { read(entry) }
        return headers
    }

    /// What a header value may not hold, in words: a line break (CR or LF, `\r\n` too, which Swift counts as one
    /// character), NUL, another C0 control character but the horizontal tab, or DEL (RFC 9110 5.5: they would
    /// end the field or be sent as they are); `nil` when it holds none. Bytes are checked, not `Character`s.
    static func forbiddenCharacter(inHeaderValue value: String) -> String? {
        // Nearly every value holds none: its contiguous bytes are scanned first (iterating `utf8` costs some ten
        // instructions a byte).
        let clean = value.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == 0x7F }
        }
        if clean == true { return nil }
        for byte in value.utf8 where byte < 0x20 || byte == 0x7F {
            switch byte {
            case 0x09: continue
            case 0x0A, 0x0D: return "a line break"
            case 0x00: return "a NUL character"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                return "the control character U+" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return nil
    }

    /// Reports a request that authenticates in two places: `auth` with `basicAuth` or an `Authorization` header.
    private static func checkAuthentication(_ entries: [MapEntry], _ spec: RequestSpec, in context: SuiteParseContext) {
        guard let auth = entries[Key.auth] else { return }
        if case .awsSigV4? = spec.auth,
            let body = entries.first(where: { [Key.bodyFile, .multipart, .xml].contains(Key(named: $0.key)) })
        {
            switch spec.body {
            case .file?, .multipart?, .xmlFile?:
                // libcurl hashes only a body held in memory: a streamed one would be signed wrong.
                context.error(
                    "'awsSigV4' signs a body held in memory; '\(body.key)' streams it from disk or as parts, which "
                        + "libcurl cannot hash", at: body.keyNode,
                    note: "send it as json, form, body, xml text or plist")
            default:
                break
            }
        }
        if let basic = entries[Key.basicAuth] {
            context.error("authentication is given twice: 'auth' and 'basicAuth'", at: basic.keyNode)
        }
        // `auth: none` is no authentication: with the request's own `Authorization` header it gives nothing twice.
        if spec.auth != .disabled, let header = spec.headers.first(where: { $0.name.lowercased() == "authorization" }) {
            context.error(
                "authentication is given twice: 'auth' and an 'Authorization' header", at: header.location,
                note:
                    "'auth' is at \(context.location(of: auth.keyNode).line):\(context.location(of: auth.keyNode).column)"
            )
        }
    }

    /// `basicAuth: {username, password}`.
    private static func basicAuth(_ node: YAMLNode, in context: SuiteParseContext) -> AuthSpec.CredentialsSpec? {
        guard let entries = context.mapping(node, for: "basicAuth") else { return nil }
        context.checkKeys(entries, of: BasicAuthKey.self, in: "basicAuth")
        var missing = false
        for key in BasicAuthKey.allCases where entries[key] == nil {
            context.error("'basicAuth' needs a '\(key.rawValue)'", at: context.location(of: node))
            missing = true
        }
        guard !missing,
            let username = entries[BasicAuthKey.username].flatMap({
                AuthParser.headerTemplate($0.value, for: "username", in: context)
            }),
            let password = entries[BasicAuthKey.password].flatMap({
                AuthParser.headerTemplate($0.value, for: "password", in: context)
            })
        else { return nil }
        return AuthSpec.CredentialsSpec(user: username, password: password)
    }
}
