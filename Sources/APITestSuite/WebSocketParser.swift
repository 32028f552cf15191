import APITestSupport
import APITestYAML

/// `websocket:`: a step that opens a WebSocket connection (`url: ws://...` or `wss://...`, `headers`, `auth`,
/// transport keys, `subprotocols`) and runs its `actions` in order.
enum WebSocketParser {
    /// The keys of `websocket:` (with the transport keys of a request).
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case url, query, headers, auth, timeout, subprotocols, subprotocol, maxMessageSize, actions

        var schema: SchemaValue {
            switch self {
            case .url:
                .described(
                    "The WebSocket URL, templated: ws://host/path or wss://host/path (a relative one resolves against "
                        + "baseURL, http as ws and https as wss).", ref: "template")
            case .query: .described("Query parameters appended to the URL (templated).", ["type": "object"])
            case .headers: .described("Header fields of the upgrade request, templated.", ref: "headers")
            case .auth:
                .described(
                    "How the upgrade authenticates (replaces defaults.auth): bearer, basic or oauth2.",
                    ref: "auth")
            case .timeout:
                .described(
                    "The handshake's time limit and how long each action waits unless it sets its own (default 10s).",
                    ref: "duration")
            case .subprotocols:
                .described(
                    "Subprotocols offered (Sec-WebSocket-Protocol), in order of preference.",
                    ["type": "array", "items": ["type": "string", "minLength": 1]])
            case .subprotocol:
                .described("The subprotocol the server must choose.", ["type": "string", "minLength": 1])
            case .maxMessageSize:
                .described(
                    "The largest message accepted (bytes, or 64KiB, 16MiB); a larger one fails the step (default "
                        + "16MiB).", ["type": ["integer", "string"]])
            case .actions:
                .described(
                    "What to do once connected, in order.",
                    ["type": "array", "minItems": 1, "items": ActionKey.definition])
            }
        }

        /// The definition of `websocket:`.
        static var definition: SchemaValue {
            .described(
                "A WebSocket conversation: the connection, then its actions.",
                [
                    "type": "object", "additionalProperties": false, "required": ["url", "actions"],
                    "properties": properties.merged(with: TransportSpec.Key.properties),
                ])
        }
    }

    /// The keys of an action: one of `send`, `expect`, `match`, `ping`, `close`, with `timeout` and `capture`.
    enum ActionKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case send, expect, match, ping, close, timeout, capture

        /// The keys that say what an action does; an action has exactly one.
        static let verbs: [ActionKey] = [.send, .expect, .match, .ping, .close]

        var schema: SchemaValue {
            switch self {
            case .send:
                .described(
                    "A message: text (templated), {text: ...}, {json: value} (sent as JSON text), or {file: path} "
                        + "(its bytes as a binary message).",
                    [
                        "anyOf": [
                            .ref("template"),
                            [
                                "type": "object", "additionalProperties": false, "minProperties": 1,
                                "maxProperties": 1, "properties": SendKey.properties,
                            ],
                        ]
                    ])
            case .expect:
                .described(
                    "The next message must pass these checks (body, json, xml, bodySize, sha256, md5, schema, assert).",
                    ref: "expect")
            case .match:
                .described(
                    "Read messages until one passes these checks, within the timeout; the others are skipped.",
                    ref: "expect")
            case .ping:
                .described("Send a ping (with this payload) and wait for its pong.", ["type": ["string", "null"]])
            case .close:
                .described(
                    "Close: send a close frame ({code: 1000, reason}) and check the server's ({expect: {code, reason}}); "
                        + "with only `expect`, wait for the server to close first.",
                    [
                        "type": ["object", "null"], "additionalProperties": false,
                        "properties": CloseKey.properties,
                    ])
            case .timeout: .described("How long this action waits.", ref: "duration")
            case .capture: .described("Captures from the message read.", ref: "capture")
            }
        }

        /// The definition of one action.
        static var definition: SchemaValue {
            [
                "type": "object", "additionalProperties": false, "properties": properties,
                "oneOf": .array(verbs.map { ["required": [.string($0.rawValue)]] }),
            ]
        }
    }

    /// The forms of `send:` as a map.
    enum SendKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case text, json, file

        var schema: SchemaValue {
            switch self {
            case .text: .described("A text message, templated.", ref: "template")
            case .json: .described("A value sent as JSON text, templated.", [:])
            case .file: .described("A file sent as a binary message, relative to the suite file.", ref: "filePath")
            }
        }
    }

    /// The keys of `close:` (and of its `expect`: `code` and `reason`).
    enum CloseKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case code, reason, expect

        var schema: SchemaValue {
            switch self {
            case .code:
                .described("A close code (1000 by default).", ["type": "integer", "minimum": 1000, "maximum": 4999])
            case .reason: .described("A close reason, templated.", ref: "template")
            case .expect:
                .described(
                    "What the server's close frame must carry.",
                    [
                        "type": "object", "additionalProperties": false,
                        "properties": [
                            "code": ["type": "integer"], "reason": .ref("template"),
                        ],
                    ])
            }
        }
    }

    /// The `expect` keys that apply to a message (its payload is the body).
    static let messageChecks: Set<String> = ["body", "json", "xml", "bodySize", "sha256", "md5", "schema", "assert"]

    // MARK: - Parsing

    /// The connection as a request and the step's WebSocket settings; nil when it has no usable URL.
    static func parse(
        _ node: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> (
        RequestSpec, WebSocketSpec
    )? {
        guard let entries = context.mapping(node, for: "websocket") else { return nil }
        context.checkKeys(entries, of: Key.self, and: TransportSpec.Key.self, in: "websocket")
        let location = context.location(of: node)
        var request = RequestSpec(url: Template(literal: "", location: location), location: location)
        var spec = WebSocketSpec(location: location)
        var url: Template?
        for entry in entries {
            switch Key(named: entry.key) {
            case .url:
                url = context.template(entry.value, for: "url")
                if let url { checkURL(url, at: entry.value, in: context) }
            case .query:
                if context.isMapping(entry.value) {
                    request.query = context.templateValue(entry.value)
                } else {
                    context.typeError(expected: "a map", for: "query", found: entry.value)
                }
            case .headers: request.headers = RequestParser.headers(entry.value, in: context)
            case .auth: request.auth = AuthParser.parse(entry.value, in: context)
            case .timeout:
                spec.timeout = context.duration(entry.value, for: "timeout")
                request.timeout = spec.timeout
            case .subprotocols:
                guard let items = context.sequence(entry.value, for: "subprotocols") else { break }
                spec.subprotocols = items.compactMap { item in
                    guard let name = context.text(item, for: "subprotocols") else { return nil }
                    guard SuiteParseContext.isToken(name) else {
                        context.error("'\(name.shownInMessage)' is not a subprotocol name (an HTTP token)", at: item)
                        return nil
                    }
                    return name
                }
            case .subprotocol:
                spec.expectedSubprotocol = context.text(entry.value, for: "subprotocol")
            case .maxMessageSize:
                spec.maxMessageSize = context.byteSize(entry.value, for: "maxMessageSize")
            case .actions:
                spec.actions = actions(entry.value, in: context)
            case nil:
                guard let key = TransportSpec.Key(named: entry.key) else { break }
                var transport = request.transport ?? TransportSpec()
                TransportParser.parse(entry, key: key, into: &transport, in: context)
                request.transport = transport
            }
        }
        if entries[Key.actions] == nil {
            context.error("'websocket' needs 'actions': what to send and expect once connected", at: location)
        }
        guard let url else {
            if entries[Key.url] == nil {
                context.error("'websocket' needs a 'url' (ws://... or wss://...)", at: location)
            }
            return nil
        }
        request.url = url
        _ = hasBaseURL
        return (request, spec)
    }

    /// Checks a URL's scheme when its text names one before any template: only ws and wss (an http(s) URL is not
    /// silently opened as ws(s)); a literal relative one is checked as a request's (it resolves against baseURL).
    private static func checkURL(_ url: Template, at node: YAMLNode, in context: SuiteParseContext) {
        let text = url.source
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://"),
            !text[..<colon].contains("{")
        else {
            if url.isLiteral {
                context.shared.urlChecks.append(
                    SuiteParseContext.URLCheck(template: url, length: context.length(of: node)))
            }
            return
        }
        let scheme = text[..<colon].lowercased()
        if !["ws", "wss"].contains(scheme) {
            context.error(
                "unsupported URL scheme '\(scheme.shownInMessage)' in a WebSocket URL; use ws:// or wss://", at: node)
        }
    }

    // MARK: - Actions

    /// The list of actions.
    private static func actions(_ node: YAMLNode, in context: SuiteParseContext) -> [WebSocketAction] {
        guard let items = context.sequence(node, for: "actions") else { return [] }
        if items.isEmpty { context.error("'actions' is empty; add at least one action", at: node) }
        return items.compactMap { action($0, in: context) }
    }

    /// One action: exactly one of `send`, `expect`, `match`, `ping`, `close`, with `timeout` and `capture`.
    private static func action(_ node: YAMLNode, in context: SuiteParseContext) -> WebSocketAction? {
        guard let entries = context.mapping(node, for: "action") else { return nil }
        context.checkKeys(entries, of: ActionKey.self, in: "a WebSocket action")
        let verbs = entries.filter { ActionKey(named: $0.key).map(ActionKey.verbs.contains) ?? false }
        guard let verb = verbs.first else {
            context.error(
                "a WebSocket action needs one of " + ActionKey.verbs.map { "'\($0.rawValue)'" }.joined(separator: ", "),
                at: node)
            return nil
        }
        if verbs.count > 1 {
            context.error(
                "a WebSocket action does one thing; found both '\(verb.key)' and '\(verbs[1].key)' (make two actions)",
                at: verbs[1].keyNode)
        }
        let location = context.location(of: node)
        var action: WebSocketAction
        switch ActionKey(named: verb.key) {
        case .send:
            guard let kind = send(verb.value, in: context) else { return nil }
            action = WebSocketAction(kind: kind, location: location)
        case .expect: action = WebSocketAction(kind: .expect(checks(verb.value, in: context)), location: location)
        case .match: action = WebSocketAction(kind: .match(checks(verb.value, in: context)), location: location)
        case .ping:
            let payload =
                context.scalar(verb.value).map(YAMLScalar.isNull) == true
                ? nil : context.template(verb.value, for: "ping")
            action = WebSocketAction(kind: .ping(payload), location: location)
        case .close:
            guard let close = close(verb.value, in: context) else { return nil }
            action = WebSocketAction(kind: .close(close), location: location)
        default: return nil
        }
        if let entry = entries[ActionKey.timeout] { action.timeout = context.duration(entry.value, for: "timeout") }
        if let entry = entries[ActionKey.capture] {
            if case .expect = action.kind {
            } else if case .match = action.kind {
            } else {
                context.error(
                    "'capture' takes values from a message: it goes with 'expect' or 'match'", at: entry.keyNode)
            }
            action.captures = CaptureParser.captures(entry.value, in: context)
        }
        return action
    }

    /// `send:`: text, or `{text}`, `{json}`, `{file}`.
    private static func send(_ node: YAMLNode, in context: SuiteParseContext) -> WebSocketAction.Kind? {
        guard context.isMapping(node) else { return context.template(node, for: "send").map { .sendText($0) } }
        guard let entries = context.mapping(node, for: "send") else { return nil }
        context.checkKeys(entries, of: SendKey.self, in: "send")
        guard entries.count == 1, let entry = entries.first else {
            context.error("'send' takes one of 'text', 'json' or 'file'", at: node)
            return nil
        }
        switch SendKey(named: entry.key) {
        case .text: return context.template(entry.value, for: "text").map { .sendText($0) }
        case .json: return .sendJSON(context.templateValue(entry.value))
        case .file:
            guard let path = context.text(entry.value, for: "file"),
                let absolute = context.checkBodyFile(path, at: entry.value, for: "file")
            else { return nil }
            return .sendFile(absolutePath: absolute)
        case nil: return nil
        }
    }

    /// The checks of `expect:` or `match:` on a message: `expect`'s keys that apply to a body.
    private static func checks(_ node: YAMLNode, in context: SuiteParseContext) -> Expectations {
        if let entries = context.mapping(node, for: "expect") {
            for entry in entries where ExpectParser.Key(named: entry.key) != nil && !messageChecks.contains(entry.key) {
                context.error(
                    "'\(entry.key)' does not apply to a WebSocket message; check it with "
                        + messageChecks.sorted().joined(separator: ", "), at: entry.keyNode)
            }
        }
        return ExpectParser.parse(node, in: context)
    }

    /// `close:`: the code and reason sent, and the server's expected.
    private static func close(_ node: YAMLNode, in context: SuiteParseContext) -> WebSocketClose? {
        var close = WebSocketClose()
        if context.scalar(node).map(YAMLScalar.isNull) == true { return close }
        guard let entries = context.mapping(node, for: "close") else { return nil }
        context.checkKeys(entries, of: CloseKey.self, in: "close")
        for entry in entries {
            switch CloseKey(named: entry.key) {
            case .code: close.code = closeCode(entry.value, sending: true, in: context) ?? 1000
            case .reason: close.reason = context.template(entry.value, for: "reason")
            case .expect:
                guard let expected = context.mapping(entry.value, for: "expect") else { continue }
                for item in expected {
                    switch item.key {
                    case "code": close.expectedCode = closeCode(item.value, sending: false, in: context)
                    case "reason": close.expectedReason = context.template(item.value, for: "reason")
                    default:
                        context.error(
                            "unknown key '\(item.key)' in close's expect"
                                + KeyAlias.didYouMean(item.key, in: ["code", "reason"]), at: item.keyNode)
                    }
                }
            case nil: break
            }
        }
        // `close: {expect: ...}` alone waits for the server's close frame; a code or reason of its own sends first.
        close.initiates =
            entries[CloseKey.expect] == nil || entries[CloseKey.code] != nil || entries[CloseKey.reason] != nil
        return close
    }

    /// A close code: one an endpoint may send (1000-1003, 1007-1014, 3000-4999); an expected one may also be 1005
    /// (the server's close frame had no code) or 1006 (the connection ended without one).
    private static func closeCode(_ node: YAMLNode, sending: Bool, in context: SuiteParseContext) -> Int? {
        guard let code = context.integer(node, for: "code", in: 1000...4999) else { return nil }
        let sendable = (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
        if !sendable && (sending || (code != 1005 && code != 1006)) {
            context.error(
                "\(code) is not a close code \(sending ? "an endpoint may send" : "a close can have"); use 1000-1003, "
                    + "1007-1014 or 3000-4999", at: node)
            return nil
        }
        return code
    }
}

// MARK: - The step

extension WebSocketParser {
    /// The keys a `websocket:` step may have besides `websocket`: its name, condition and loop.
    static let stepKeys: [StepParser.Key] = [.name, .when, .forEach, .websocket]

    /// The definition of a `websocket:` step in the editor schema.
    static var stepDefinition: SchemaValue {
        [
            "type": "object", "additionalProperties": false, "required": ["websocket"],
            "properties": .members(stepKeys.map { ($0.rawValue, $0.schema) }),
        ]
    }

    /// A `websocket:` step from its map's entries; nil without a usable URL (errors are reported).
    static func step(
        _ entries: [MapEntry], websocket: MapEntry, at item: YAMLNode, hasBaseURL: Bool, in context: SuiteParseContext
    ) -> Step? {
        for entry in entries {
            guard let key = StepParser.Key(named: entry.key) else {
                context.error(
                    "unknown key '\(entry.key)' in a websocket step"
                        + KeyAlias.didYouMean(entry.key, in: stepKeys.map(\.rawValue)), at: entry.keyNode)
                continue
            }
            if !stepKeys.contains(key) {
                context.error(
                    "'\(entry.key)' does not go with 'websocket'; its checks and captures go in its actions "
                        + "(expect, match, capture)", at: entry.keyNode)
            }
        }
        guard let (request, spec) = parse(websocket.value, hasBaseURL: hasBaseURL, in: context) else { return nil }
        var step = Step(
            location: context.location(of: item), request: request, expect: Expectations(),
            captures: spec.actions.flatMap(\.captures))
        step.websocket = spec
        return step
    }
}
