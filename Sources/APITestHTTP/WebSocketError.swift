// MARK: - WebSocketError

/// Why a WebSocket connection failed: the opening handshake, a frame that breaks RFC 6455, the connection, or a
/// wait. A typed kind; the sentence for people is rendered from it (`WebSocketError+Description.swift`).
public struct WebSocketError: Error, Sendable, Equatable {
    /// What went wrong, with the facts that tell the cases apart.
    public enum Kind: Sendable, Equatable {
        // MARK: Opening handshake (section 4.1)

        /// The connection (TCP, TLS, proxy) could not be made: libcurl's error, as for a request.
        case connect(HTTPError)
        /// The URL is not a `ws://`, `wss://`, `http://` or `https://` URL with a host.
        case invalidURL(String)
        /// An authentication scheme libcurl runs on the HTTP requests it sends (`digest`, `ntlm`, `awsSigV4`,
        /// `netrc`), which an upgrade apitest sends itself cannot use.
        case unsupportedAuthentication(String)
        /// The server answered the upgrade with another status than 101.
        case notUpgraded(status: Int, reason: String)
        /// The server's answer to the upgrade is not an HTTP/1.1 response.
        case malformedResponse(String)
        /// The answer lacks `Upgrade: websocket`; holds the value found, nil for none.
        case missingUpgrade(found: String?)
        /// The answer's `Connection` lacks the `Upgrade` token; holds the value found, nil for none.
        case missingConnectionUpgrade(found: String?)
        /// `Sec-WebSocket-Accept` is not the digest of the key sent; holds what was expected and found.
        case badAccept(expected: String, found: String?)
        /// The server chose a subprotocol the client did not offer.
        case unofferedSubprotocol(String)
        /// The server named an extension the client did not ask for.
        case unrequestedExtension(String)
        /// The answer's header is larger than the client reads.
        case handshakeTooLarge(limit: Int)

        // MARK: Framing (section 5)

        /// A frame from the server was masked.
        case maskedServerFrame
        /// A frame set reserved bits (RSV1-3) that no negotiated extension defines.
        case reservedBits(UInt8)
        /// A frame with an opcode RFC 6455 reserves.
        case unknownOpcode(UInt8)
        /// A control frame with more than 125 bytes of payload.
        case controlFrameTooLong(Int)
        /// A control frame without FIN.
        case fragmentedControlFrame(WebSocketFrame.Opcode)
        /// A continuation frame with no message started.
        case unexpectedContinuation
        /// A new data frame while a fragmented message was still open.
        case expectedContinuation(WebSocketFrame.Opcode)
        /// A 64-bit payload length with its most significant bit set.
        case invalidLength
        /// A text message (or a close reason) that is not UTF-8.
        case invalidUTF8(what: String)
        /// A message larger than the limit.
        case messageTooLarge(limit: Int)
        /// A close frame with one byte of payload, or a code no endpoint may send.
        case invalidClose(code: UInt16?)

        // MARK: Connection and waits

        /// The server closed the connection without a close frame.
        case connectionClosed
        /// Sending or receiving failed (libcurl's code and message).
        case io(code: Int, message: String)
        /// Nothing arrived within the time allowed.
        case timedOut(after: Duration, waitingFor: String)
        /// The connection was already closed when an action needed it.
        case alreadyClosed
        /// The calling task was cancelled.
        case cancelled
    }

    /// What went wrong.
    public var kind: Kind

    /// An error of `kind`.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The close code the client sends when this error ends the connection (section 7.4.1): 1002 for a protocol
    /// violation, 1007 for bad UTF-8, 1009 for a message too large; nil when no close frame is sent.
    public var closeCode: UInt16? {
        switch kind {
        case .maskedServerFrame, .reservedBits, .unknownOpcode, .controlFrameTooLong, .fragmentedControlFrame,
            .unexpectedContinuation, .expectedContinuation, .invalidLength, .invalidClose:
            1002
        case .invalidUTF8: 1007
        case .messageTooLarge: 1009
        default: nil
        }
    }
}
