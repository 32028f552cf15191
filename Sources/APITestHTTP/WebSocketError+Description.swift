import APITestSupport

// MARK: - Rendering

extension WebSocketError: CustomStringConvertible {
    /// The error as one sentence, rendered from its kind.
    public var description: String {
        switch kind {
        case .connect(let error): "WebSocket connection failed: \(error)"
        case .invalidURL(let url):
            "'\(url.shownInMessage)' is not a WebSocket URL; write ws://host/path or wss://host/path"
        case .unsupportedAuthentication(let scheme):
            "'\(scheme)' authentication cannot open a WebSocket (libcurl runs it on the HTTP requests it sends); "
                + "use bearer, basic or oauth2"
        case .notUpgraded(let status, let reason):
            "the server did not switch to WebSocket: it answered \(status)\(reason.isEmpty ? "" : " \(reason.shownInMessage)") instead of 101"
        case .malformedResponse(let line):
            "the server's answer to the WebSocket upgrade is not an HTTP/1.1 response: '\(line.shownInMessage)'"
        case .missingUpgrade(let found):
            "the WebSocket handshake's answer has \(found.map { "'Upgrade: \($0.shownInMessage)'" } ?? "no Upgrade header"), not 'Upgrade: websocket'"
        case .missingConnectionUpgrade(let found):
            "the WebSocket handshake's answer has \(found.map { "'Connection: \($0.shownInMessage)'" } ?? "no Connection header"), not 'Connection: Upgrade'"
        case .badAccept(let expected, let found):
            "the WebSocket handshake's Sec-WebSocket-Accept is \(found.map { "'\($0.shownInMessage)'" } ?? "missing"), expected '\(expected)'"
        case .unofferedSubprotocol(let name):
            "the server chose the subprotocol '\(name.shownInMessage)', which was not offered"
        case .unrequestedExtension(let name):
            "the server named the extension '\(name.shownInMessage)', which was not requested"
        case .handshakeTooLarge(let limit):
            "the server's answer to the WebSocket upgrade is larger than \(limit) bytes"
        case .maskedServerFrame: "protocol error: the server sent a masked frame (RFC 6455 5.1)"
        case .reservedBits(let bits):
            "protocol error: a frame set reserved bits (RSV \(String(bits, radix: 2))) without a negotiated extension"
        case .unknownOpcode(let opcode):
            "protocol error: a frame has the reserved opcode 0x\(String(opcode, radix: 16))"
        case .controlFrameTooLong(let length):
            "protocol error: a control frame carries \(length) bytes (at most 125 allowed)"
        case .fragmentedControlFrame(let opcode): "protocol error: a \(opcode.name) frame is fragmented (FIN not set)"
        case .unexpectedContinuation: "protocol error: a continuation frame arrived with no message started"
        case .expectedContinuation(let opcode):
            "protocol error: a \(opcode.name) frame arrived in the middle of a fragmented message"
        case .invalidLength: "protocol error: a frame's 64-bit length has its most significant bit set"
        case .invalidUTF8(let what): "the server sent a \(what) that is not valid UTF-8"
        case .messageTooLarge(let limit): "the server sent a message larger than the limit of \(limit) bytes"
        case .invalidClose(let code):
            code.map { "protocol error: the server's close frame has the invalid code \($0)" }
                ?? "protocol error: the server's close frame has a 1-byte payload"
        case .connectionClosed: "the server closed the connection without a WebSocket close frame"
        case .io(let code, let message):
            "WebSocket I/O failed (curl error \(code)\(message.isEmpty ? "" : ": \(message.shownInMessage)"))"
        case .timedOut(let duration, let waitingFor):
            "no \(waitingFor) within \(DurationFormatter.format(duration))"
        case .alreadyClosed: "the WebSocket connection is already closed"
        case .cancelled: "the WebSocket step was cancelled"
        }
    }
}
