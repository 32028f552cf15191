import APITestJSON

// MARK: - WebSocket steps

extension SuiteDocumentRenderer {
    /// A `websocket:` step as a map: the keys `WebSocketParser` reads, in the order of docs/streaming.md.
    static func websocketStep(_ websocket: SuiteDocument.WebSocket) -> JSONObject {
        var object = JSONObject([(key: "url", value: .string(websocket.url))])
        if !websocket.headers.isEmpty { object["headers"] = headers(websocket.headers) }
        if let auth = websocket.auth { object["auth"] = Self.auth(auth) }
        if !websocket.subprotocols.isEmpty {
            object["subprotocols"] = .array(websocket.subprotocols.map { .string($0) })
        }
        if let subprotocol = websocket.subprotocol { object["subprotocol"] = .string(subprotocol) }
        if let size = websocket.maxMessageSize { object["maxMessageSize"] = .integer(Int64(size)) }
        if let timeout = websocket.timeout { object["timeout"] = .string(duration(timeout)) }
        object["actions"] = .array(websocket.actions.map(action))
        return JSONObject([(key: "websocket", value: .object(object))])
    }

    /// One action as a map: its verb, then `timeout` and `capture`.
    static func action(_ action: SuiteDocument.WebSocketAction) -> JSONValue {
        var object = JSONObject()
        switch action.kind {
        case .sendText(let text):
            object["send"] = .string(text)
        case .sendJSON(let value):
            object["send"] = ["json": value]
        case .sendFile(let path):
            object["send"] = ["file": .string(path)]
        case .expect(let checks):
            object["expect"] = messageChecks(checks)
        case .match(let checks):
            object["match"] = messageChecks(checks)
        case .ping(let payload):
            object["ping"] = payload.map { .string($0) } ?? .null
        case .close(let close):
            object["close"] = Self.close(close)
        }
        if let timeout = action.timeout { object["timeout"] = .string(duration(timeout)) }
        if !action.captures.isEmpty {
            object["capture"] = .object(JSONObject(action.captures.map { (key: $0.name, value: $0.query) }))
        }
        return .object(object)
    }

    /// The checks of a message as a map (`{}` when there are none: any message passes).
    static func messageChecks(_ checks: SuiteDocument.MessageExpectation) -> JSONValue {
        var object = JSONObject()
        if let body = checks.body { object["body"] = body }
        if !checks.json.isEmpty {
            object["json"] = .object(JSONObject(checks.json.map { (key: $0.path, value: $0.check) }))
        }
        if let size = checks.bodySize { object["bodySize"] = size }
        if let digest = checks.sha256 { object["sha256"] = digest }
        if let schema = checks.schema { object["schema"] = .string(schema) }
        if !checks.assertions.isEmpty { object["assert"] = .array(checks.assertions) }
        return .object(object)
    }

    /// `close:` as a map, or `null` for a polite close that checks nothing.
    static func close(_ close: SuiteDocument.WebSocketClose) -> JSONValue {
        guard close != SuiteDocument.WebSocketClose() else { return .null }
        var object = JSONObject()
        if let code = close.code { object["code"] = .integer(Int64(code)) }
        if let reason = close.reason { object["reason"] = .string(reason) }
        var expected = JSONObject()
        if let code = close.expectedCode { expected["code"] = .integer(Int64(code)) }
        if let reason = close.expectedReason { expected["reason"] = .string(reason) }
        if !expected.isEmpty { object["expect"] = .object(expected) }
        return .object(object)
    }
}
