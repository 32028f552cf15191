package import APITestSupport

// MARK: - WebSocketSpec

/// A `websocket:` step: the connection (its URL, headers, auth and transport live in the step's `RequestSpec`, with
/// a `ws://` or `wss://` URL) and what it does once open, in order.
package struct WebSocketSpec: Sendable, Hashable {
    /// The subprotocols offered, in order of preference.
    package var subprotocols: [String]
    /// The subprotocol the server must choose; nil for no check.
    package var expectedSubprotocol: String?
    /// The largest message accepted, in bytes; nil for 16 MiB.
    package var maxMessageSize: Int?
    /// How long `expect`, `match`, `ping` and `close` wait when the action sets no `timeout`; nil for 10 s.
    package var timeout: Duration?
    /// What to do once connected.
    package var actions: [WebSocketAction]
    /// Where `websocket:` is written.
    package var location: SourceLocation

    /// The wait of an action without a `timeout` of its own or of the step.
    package static let defaultTimeout = Duration.seconds(10)

    /// A WebSocket step's own settings and actions.
    package init(
        subprotocols: [String] = [], expectedSubprotocol: String? = nil, maxMessageSize: Int? = nil,
        timeout: Duration? = nil, actions: [WebSocketAction] = [], location: SourceLocation
    ) {
        self.subprotocols = subprotocols
        self.expectedSubprotocol = expectedSubprotocol
        self.maxMessageSize = maxMessageSize
        self.timeout = timeout
        self.actions = actions
        self.location = location
    }
}

// MARK: - WebSocketAction

/// One action of a `websocket:` step: send a message, expect one, ping, or close.
package struct WebSocketAction: Sendable, Hashable {
    /// What the action does.
    package enum Kind: Sendable, Hashable {
        /// `send: text` or `send: {text: ...}`: a text message, templated.
        case sendText(Template)
        /// `send: {json: value}`: a text message of the value as JSON, templated.
        case sendJSON(TemplateValue)
        /// `send: {file: path}`: a binary message of the file's bytes (an absolute path).
        case sendFile(absolutePath: String)
        /// `expect: {checks}`: the next message must pass the checks.
        case expect(Expectations)
        /// `match: {checks}`: messages are read until one passes the checks (the others are skipped).
        case match(Expectations)
        /// `ping: payload`: a ping, then wait for its pong.
        case ping(Template?)
        /// `close: {code, reason, expect: {code, reason}}`: start (or finish) the close handshake and check the
        /// server's close frame.
        case close(WebSocketClose)
    }

    /// What the action does.
    package var kind: Kind
    /// How long the action waits; nil for the step's.
    package var timeout: Duration?
    /// Captures from the message an `expect` or `match` read.
    package var captures: [CaptureSpec]
    /// Where the action is written.
    package var location: SourceLocation

    /// An action of `kind`.
    package init(kind: Kind, timeout: Duration? = nil, captures: [CaptureSpec] = [], location: SourceLocation) {
        self.kind = kind
        self.timeout = timeout
        self.captures = captures
        self.location = location
    }

    /// The action's name in messages (`send`, `expect`, ...).
    package var name: String {
        switch kind {
        case .sendText, .sendJSON, .sendFile: "send"
        case .expect: "expect"
        case .match: "match"
        case .ping: "ping"
        case .close: "close"
        }
    }
}

// MARK: - WebSocketClose

/// A `close` action: the close frame sent and what the server's must say.
package struct WebSocketClose: Sendable, Hashable {
    /// The code sent (1000 when not written).
    package var code: Int
    /// The reason sent.
    package var reason: Template?
    /// The code the server's close frame must carry; nil for any.
    package var expectedCode: Int?
    /// The reason the server's close frame must carry; nil for any.
    package var expectedReason: Template?
    /// Whether the client starts the close handshake: false for `close: {expect: ...}` without a `code` or
    /// `reason` of its own, which waits for the server to close first.
    package var initiates: Bool

    /// A close with `code` and `reason`, checking the server's answer against the expected ones.
    package init(
        code: Int = 1000, reason: Template? = nil, expectedCode: Int? = nil, expectedReason: Template? = nil,
        initiates: Bool = true
    ) {
        self.initiates = initiates
        self.code = code
        self.reason = reason
        self.expectedCode = expectedCode
        self.expectedReason = expectedReason
    }
}
