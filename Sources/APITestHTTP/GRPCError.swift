import APITestSupport

/// A gRPC call that did not get a status from the server, or could not be sent: a failure of the client, the
/// transport or the protocol, with the status gRPC gives such a failure (`status`).
public struct GRPCError: Error, Sendable, Hashable {
    /// What was wrong with a request metadata key or value.
    public enum MetadataProblem: Sendable, Hashable {
        /// The key is empty.
        case emptyKey
        /// The key has a character other than `a`-`z`, `0`-`9`, `-`, `_` and `.`.
        case invalidKeyCharacter
        /// The key is one gRPC or HTTP sets itself (`content-type`, `te`, `grpc-...`, `:path`).
        case reservedKey
        /// A text value has a character outside printable ASCII (send bytes under a `-bin` key instead).
        case nonPrintableText
        /// Bytes under a key that does not end in `-bin`.
        case binaryWithoutBinSuffix
    }

    /// Which failure it was, with the data that tells it apart.
    public enum Kind: Sendable, Hashable {
        /// The call's URL is not an absolute `http` or `https` URL.
        case invalidURL(String)
        /// The method path is not `/package.Service/Method`.
        case invalidMethodPath(String)
        /// A metadata pair cannot be sent.
        case invalidMetadata(key: String, problem: MetadataProblem)
        /// The HTTP/2 transfer failed (connect, TLS, pin, reset, ...).
        case transport(HTTPError)
        /// The deadline passed before the call ended; it was ended locally.
        case deadlineExceeded(deadline: Duration)
        /// A response message announced more bytes than the limit; it was not read.
        case messageTooLarge(length: Int, limit: Int)
        /// A response message is compressed (flag 1) or has an unknown flag; compression is not negotiated.
        case unsupportedMessageFlag(UInt8)
        /// The response ended inside a message (`received` of `expected` bytes, the 5-byte prefix included).
        case truncatedMessage(received: Int, expected: Int)
        /// The response is not a gRPC response: no `grpc-status`, and an HTTP status other than 200 or another
        /// content type.
        case notGRPC(httpStatus: Int, contentType: String?)
        /// The response came over another protocol than HTTP/2.
        case notHTTP2(version: String)
        /// The response ended without a `grpc-status`.
        case missingStatus
        /// The reader of the response messages stopped the call.
        case stoppedByReader
    }

    /// Which failure it was.
    public var kind: Kind

    /// An error of `kind`.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The status gRPC gives this failure on the client (as its own clients report it).
    public var status: GRPCStatus {
        GRPCStatus(code, message: message)
    }

    /// The status code of the failure.
    public var code: GRPCStatus.Code {
        switch kind {
        case .invalidURL, .invalidMethodPath, .invalidMetadata: .internal
        case .transport(let error): error.reason == .cancelled ? .cancelled : .unavailable
        case .deadlineExceeded: .deadlineExceeded
        case .messageTooLarge: .resourceExhausted
        case .unsupportedMessageFlag, .truncatedMessage, .notHTTP2, .missingStatus: .internal
        case .notGRPC(let httpStatus, _): httpStatus == 200 ? .unknown : GRPCStatus.code(forHTTPStatus: httpStatus)
        case .stoppedByReader: .cancelled
        }
    }

    /// Whether the failure happened before anything was sent (the call's description cannot be sent).
    public var isInvalidCall: Bool {
        switch kind {
        case .invalidURL, .invalidMethodPath, .invalidMetadata: true
        default: false
        }
    }
}
