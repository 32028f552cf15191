/// Why a transfer failed before a complete response arrived: the HTTP layer's one error type.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for callers that react differently to each.
    public enum Reason: String, Sendable, Hashable, Codable {
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

    public var reason: Reason
    /// A sentence for people: what failed and, where known, libcurl's own detail.
    public var message: String
    /// libcurl's result code, when the failure came from libcurl.
    public var curlCode: Int?
    /// True when no connection to the server was made: the host was not found, refused the connection, could not
    /// be reached, or did not answer the connect in time. The runner treats the host as unreachable.
    public var failedToConnect = false
    /// The handshake check's findings when a `SecurityPolicy` refused the server.
    public var tlsEvaluation: TLSEvaluation?
    /// The limit in bytes that a body passed, for `.bodyTooLarge`.
    public var bodyLimit: Int?
    /// The field and character when the request was refused with `.forbiddenCharacter`.
    public var forbiddenCharacter: ForbiddenCharacter?

    public init(_ reason: Reason, _ message: String, curlCode: Int? = nil) {
        self.reason = reason
        self.message = message
        self.curlCode = curlCode
    }

    public var description: String { message }
}
