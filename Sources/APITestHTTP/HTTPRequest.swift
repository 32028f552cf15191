public import Foundation

/// One HTTP request, fully resolved: what the session manager hands to libcurl.
public struct HTTPRequest: Sendable {
    /// The request body: nothing, bytes in memory, or a file streamed from disk while the request is sent.
    public enum Body: Sendable, Equatable {
        case none
        case data(Data)
        /// A file read from disk during the transfer; its size is taken when the transfer starts and must not change.
        case file(path: String)
        /// A `multipart/form-data` body whose file parts are streamed from disk.
        case multipart(MultipartFormData)

        /// Whether the whole body is bytes in memory (or there is none), rather than read from files or parts as it
        /// is sent.
        public var isInMemory: Bool {
            switch self {
            case .none, .data: true
            case .file, .multipart: false
            }
        }

        /// Whether the body is read from files while it is sent (and so may be large).
        public var streamsFromDisk: Bool {
            switch self {
            case .none, .data: return false
            case .file: return true
            case .multipart(let form): return form.parts.contains { if case .file = $0.content { true } else { false } }
            }
        }
    }

    public var method: String
    /// An absolute `http` or `https` URL.
    public var url: String
    public var headers: HTTPHeaders
    public var body: Body

    /// Time allowed for the whole transfer; `nil` for the session's default.
    public var timeout: Duration?
    /// Time allowed to establish the connection (TCP and TLS); `nil` for the session's default.
    public var connectTimeout: Duration?
    public var followRedirects: Bool
    public var maxRedirects: Int
    /// The encodings offered in `Accept-Encoding` and decoded transparently: `""` offers every one libcurl
    /// supports, `nil` sends no `Accept-Encoding` and leaves bodies as they come.
    public var acceptEncoding: String?
    /// The jar whose cookies are sent and which stores the cookies the response sets; `nil` for no cookies.
    public var cookieJar: CookieJar?
    /// The most body bytes kept in memory; `nil` for the session's default. Applies to `.keep` bodies only.
    public var maxBodySize: Int?
    /// Whether the response body is kept in memory or only counted and hashed as it streams.
    public var responseBodyHandling: ResponseBodyHandling = .keep
    /// Record the request headers as libcurl sends them, its own (`Host`, `Accept-Encoding`, `Content-Length`,
    /// ...) included, into `HTTPResponse.sentHeaders` (through libcurl's debug callback, so only when asked).
    public var recordsSentHeaders = false
    /// Verification settings for a request without a `security` policy: only tests change them (a private CA).
    var tls = TLSOptions()
    /// Pinning and trust settings checked during the TLS handshake; when set, they replace `tls`.
    public var security: SecurityPolicy?
    /// Host-name overrides in curl's `--resolve` form (`host:port:address`), for reaching a server by address.
    public var resolve: [String] = []
    /// Where and how the connection is made: connect-to entries, a unix socket, HTTP versions, a proxy.
    public var transport = TransportOptions()
    /// A scheme libcurl runs to authenticate (Digest, NTLM, AWS Signature Version 4, netrc); nil for none.
    public var authentication: HTTPAuthentication?
    /// Only connect (TCP and TLS) and send nothing: `apitest pin-check`.
    var connectOnly = false
    /// Called on the session's event-loop thread as the body is sent, with bytes sent and the body's length, at
    /// most every 100 ms; keep it quick.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)?

    public init(
        method: String = "GET",
        url: String,
        headers: HTTPHeaders = [:],
        body: Body = .none,
        timeout: Duration? = nil,
        connectTimeout: Duration? = nil,
        followRedirects: Bool = true,
        maxRedirects: Int = 10,
        acceptEncoding: String? = "",
        cookieJar: CookieJar? = nil,
        maxBodySize: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.acceptEncoding = acceptEncoding
        self.cookieJar = cookieJar
        self.maxBodySize = maxBodySize
    }
}

/// Certificate verification settings for a request without a `SecurityPolicy`. Verification and host-name checks
/// are on by default; only tests (through `@testable import`) trust a private CA this way: the runner always sends a
/// policy.
struct TLSOptions: Sendable, Hashable {
    /// Verify the server's certificate chain against the trust store (or `caFile`).
    var verifyPeer: Bool
    /// Check that the certificate is valid for the host name in the URL.
    var verifyHost: Bool
    /// A PEM bundle of trust anchors to use instead of the system's.
    var caFile: String?

    init(verifyPeer: Bool = true, verifyHost: Bool = true, caFile: String? = nil) {
        self.verifyPeer = verifyPeer
        self.verifyHost = verifyHost
        self.caFile = caFile
    }
}
