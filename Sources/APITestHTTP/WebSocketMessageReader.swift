// MARK: - WebSocketMessageReader

/// Turns a server's frames into events (RFC 6455 sections 5.4-5.5): joins fragments into messages (control frames
/// may come between them), checks that text is UTF-8 across its fragments, holds messages to the size limit, and
/// reads close frames (code and UTF-8 reason).
struct WebSocketMessageReader {
    /// The largest message accepted, in bytes.
    let limit: Int
    private var decoder = WebSocketFrameDecoder()
    /// The message being assembled: its kind, payload so far and frame count.
    private var partial: (kind: WebSocketMessage.Kind, data: [UInt8], frames: Int)?

    /// A reader of messages of at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Adds received bytes.
    mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        decoder.append(bytes)
    }

    /// The frames read so far make no whole event yet.
    var needsMoreBytes: Bool { decoder.pendingCount == 0 }

    /// The next event, nil when more bytes are needed. `frame` is called with every frame read, for a transcript.
    mutating func nextEvent(
        frame observe: (WebSocketFrame) -> Void = { _ in }
    ) throws(WebSocketError)
        -> WebSocketEvent?
    {
        while true {
            let used = partial?.data.count ?? 0
            guard let frame = try decoder.nextFrame(maxDataPayload: limit - used, limit: limit) else { return nil }
            observe(frame)
            switch frame.opcode {
            case .ping: return .ping(frame.payload)
            case .pong: return .pong(frame.payload)
            case .close: return try Self.close(frame.payload)
            case .text, .binary:
                if partial != nil { throw WebSocketError(.expectedContinuation(frame.opcode)) }
                let kind: WebSocketMessage.Kind = frame.opcode == .text ? .text : .binary
                if frame.fin { return try Self.message(kind, frame.payload, frames: 1) }
                partial = (kind, frame.payload, 1)
            case .continuation:
                guard var open = partial else { throw WebSocketError(.unexpectedContinuation) }
                open.data += frame.payload
                open.frames += 1
                if frame.fin {
                    partial = nil
                    return try Self.message(open.kind, open.data, frames: open.frames)
                }
                partial = open
            }
        }
    }

    /// A whole message; a text message must be UTF-8.
    private static func message(
        _ kind: WebSocketMessage.Kind, _ data: [UInt8], frames: Int
    ) throws(WebSocketError)
        -> WebSocketEvent
    {
        if kind == .text, String(validating: data, as: UTF8.self) == nil {
            throw WebSocketError(.invalidUTF8(what: "text message"))
        }
        return .message(WebSocketMessage(kind: kind, data: data, frames: frames))
    }

    /// A close frame's code and reason (section 5.5.1), checked as section 7.4 asks.
    static func close(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketEvent {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw WebSocketError(.invalidClose(code: nil)) }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidCloseCode(code) else { throw WebSocketError(.invalidClose(code: code)) }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw WebSocketError(.invalidUTF8(what: "close reason"))
        }
        return .close(code: code, reason: reason)
    }

    /// Whether an endpoint may send `code` in a close frame (section 7.4.1 and the IANA registry): 1000-1003,
    /// 1007-1014 and 3000-4999; 1004-1006 and 1015 are reserved and never sent.
    static func isValidCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
