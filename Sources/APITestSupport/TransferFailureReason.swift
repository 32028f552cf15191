/// Why a transfer failed, as the HTTP layer tells its failures apart (`HTTPError.Reason` is this type) and as the
/// results layer reports them (`TestError.Kind.transfer`): one list, declared below both. The raw values are the
/// words reports show (`[connectionRefused]`, JUnit's `type`, TAP's and JSON's `kind`).
public enum TransferFailureReason: String, Sendable, Hashable, Codable, CaseIterable {
    case invalidRequest
    /// A field that goes on the wire as text held CR, LF or NUL; nothing was sent (see `forbiddenCharacter`).
    case forbiddenCharacter
    case dnsFailure
    case connectionRefused
    case connectionFailed
    case connectionReset
    case emptyReply
    case timedOut
    case tlsFailure
    /// The chain was acceptable but no certificate of it matched a pin; nothing was sent.
    case pinMismatch
    case tooManyRedirects
    case bodyTooLarge
    case badContentEncoding
    case bodyFileUnreadable
    case bodyFileChanged
    case proxyFailure
    /// The server did not complete a WebSocket opening handshake (no 101, a wrong `Sec-WebSocket-Accept`, ...).
    case webSocketHandshake
    /// A WebSocket server broke RFC 6455 (a masked frame, reserved bits, bad UTF-8, a message past the limit, ...)
    /// or closed the connection without a close frame.
    case webSocketProtocol
    case cancelled
    case other

    /// Whether sending the same request again may succeed: not for a request libcurl refuses or one that holds
    /// a forbidden character, a server that failed its pins, or a body file that cannot be read.
    public var isRetryable: Bool {
        switch self {
        case .invalidRequest, .forbiddenCharacter, .pinMismatch, .bodyFileUnreadable: false
        default: true
        }
    }
}
