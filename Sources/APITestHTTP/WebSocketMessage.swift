// MARK: - WebSocketMessage

/// A whole message from the server, its fragments joined: text (valid UTF-8) or binary.
public struct WebSocketMessage: Sendable, Hashable {
    /// Whether a message is text or binary (its first frame's opcode).
    public enum Kind: String, Sendable, Hashable {
        case text, binary
    }

    /// Text or binary.
    public var kind: Kind
    /// The payload.
    public var data: [UInt8]
    /// How many frames carried it.
    public var frames: Int

    /// A message of `kind` with `data`.
    public init(kind: Kind, data: [UInt8], frames: Int = 1) {
        self.kind = kind
        self.data = data
        self.frames = frames
    }

    /// The payload as text: a text message's UTF-8, nil for a binary one that is not UTF-8.
    public var text: String? { String(validating: data, as: UTF8.self) }
}

// MARK: - WebSocketEvent

/// What the connection reads next: a message, a pong, or the server's close frame. Pings are answered by the
/// connection itself and reported as events too, so a transcript shows them.
public enum WebSocketEvent: Sendable, Hashable {
    case message(WebSocketMessage)
    case ping([UInt8])
    case pong([UInt8])
    /// The server's close frame: its code (nil when it sent none) and reason.
    case close(code: UInt16?, reason: String)
}
