package import APITestJSON

// MARK: - WebSocket conversations

extension SuiteDocument {
    /// A `websocket:` step (docs/streaming.md "WebSocket"): the connection (a `ws://` or `wss://` URL, or one relative
    /// to the suite's `baseURL`, the upgrade's headers and auth, the subprotocols) and its actions in order. Strings may
    /// hold placeholders; a writer escapes text that is data first.
    package struct WebSocket: Sendable {
        /// `url`.
        package var url: String
        /// `headers` of the upgrade request, in order.
        package var headers: [Header] = []
        /// `auth` (bearer, basic or oauth2 apply to an upgrade).
        package var auth: Auth?
        /// `subprotocols`: offered, in order of preference.
        package var subprotocols: [String] = []
        /// `subprotocol`: the one the server must choose.
        package var subprotocol: String?
        /// `maxMessageSize`, in bytes; nil for the default (16 MiB).
        package var maxMessageSize: Int?
        /// `timeout`, in seconds: the handshake's and each action's wait; nil for the default (10 s).
        package var timeout: Double?
        /// `actions`, in order (the suite format wants at least one).
        package var actions: [WebSocketAction] = []

        /// A conversation over `url`.
        package init(url: String) {
            self.url = url
        }
    }

    /// One action of a ``WebSocket`` conversation.
    package struct WebSocketAction: Sendable {
        /// What the action does.
        package enum Kind: Sendable {
            /// `send: TEXT`: a text message (templated).
            case sendText(String)
            /// `send: {json: VALUE}`: the value as JSON text (strings templated).
            case sendJSON(JSONValue)
            /// `send: {file: PATH}`: the file's bytes as one binary message (a path as written into the suite).
            case sendFile(String)
            /// `expect: CHECKS`: the next message must pass the checks.
            case expect(MessageExpectation)
            /// `match: CHECKS`: messages are read until one passes the checks.
            case match(MessageExpectation)
            /// `ping: PAYLOAD` (`ping: null` for none): a ping, then its pong is awaited.
            case ping(String?)
            /// `close:`: ``WebSocketClose``.
            case close(WebSocketClose)
        }

        /// What the action does.
        package var kind: Kind
        /// `timeout`, in seconds: this action's wait.
        package var timeout: Double?
        /// `capture` (with `expect` or `match`): variable name → a query in the general form.
        package var captures: [(name: String, query: JSONValue)] = []

        /// An action doing `kind`.
        package init(_ kind: Kind) {
            self.kind = kind
        }
    }

    /// The checks of a message (`expect:` or `match:`): the keys of a response body's `expect` that apply to a
    /// message.
    package struct MessageExpectation: Sendable {
        /// `body`: a check of the message's text (an expected value or a predicate map).
        package var body: JSONValue?
        /// `json`: JSONPath → expected value or predicate map, in order.
        package var json: [(path: String, check: JSONValue)] = []
        /// `bodySize`: a check of the message's size in bytes.
        package var bodySize: JSONValue?
        /// `sha256`: a check of the hex SHA-256 of the message's bytes.
        package var sha256: JSONValue?
        /// `schema`: a JSON Schema file the message must satisfy.
        package var schema: String?
        /// `assert`: checks in the general form.
        package var assertions: [JSONValue] = []

        /// No check (any message passes).
        package init() {}
    }

    /// `close:`: the close frame sent (``code``, ``reason``) and what the server's must carry. With neither a code
    /// nor a reason of its own but an expectation, the action waits for the server to close first.
    package struct WebSocketClose: Sendable, Equatable {
        /// `code` sent (1000 when nil).
        package var code: Int?
        /// `reason` sent.
        package var reason: String?
        /// `expect.code`: the server's close code (1005: none, 1006: no close frame).
        package var expectedCode: Int?
        /// `expect.reason`: the server's close reason.
        package var expectedReason: String?

        /// A polite close (1000) that checks nothing.
        package init(code: Int? = nil, reason: String? = nil, expectedCode: Int? = nil, expectedReason: String? = nil) {
            self.code = code
            self.reason = reason
            self.expectedCode = expectedCode
            self.expectedReason = expectedReason
        }
    }
}
