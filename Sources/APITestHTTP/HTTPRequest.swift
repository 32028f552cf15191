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

    /// The fields, shared by the copies of a request until one of them changes one (copy on write): a request is
    /// copied on its way from the builder to the loop thread and into the results, and with its reference-counted
    /// fields inline every copy retained and released each of them.
    private final class Storage: @unchecked Sendable {
        var method: String
        var url: String
        var headers: HTTPHeaders
        var body: Body
        var timeout: Duration?
        var connectTimeout: Duration?
        var followRedirects: Bool
        var maxRedirects: Int
        var acceptEncoding: String?
        var cookieJar: CookieJar?
        var maxBodySize: Int?
        var responseBodyHandling: ResponseBodyHandling = .keep
        var recordsSentHeaders: Bool = false
        var tls: TLSOptions = TLSOptions()
        var security: SecurityPolicy?
        var resolve: [String] = []
        var transport: TransportOptions = TransportOptions()
        var authentication: HTTPAuthentication?
        var connectOnly: Bool = false
        var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)?

        init(
            method: String, url: String, headers: HTTPHeaders, body: Body, timeout: Duration?,
            connectTimeout: Duration?, followRedirects: Bool, maxRedirects: Int, acceptEncoding: String?,
            cookieJar: CookieJar?, maxBodySize: Int?
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

        /// A copy to change, for a request whose storage another copy shares.
        func copy() -> Storage {
            let copy = Storage(
                method: method, url: url, headers: headers, body: body, timeout: timeout,
                connectTimeout: connectTimeout, followRedirects: followRedirects, maxRedirects: maxRedirects,
                acceptEncoding: acceptEncoding, cookieJar: cookieJar, maxBodySize: maxBodySize)
            copy.responseBodyHandling = responseBodyHandling
            copy.recordsSentHeaders = recordsSentHeaders
            copy.tls = tls
            copy.security = security
            copy.resolve = resolve
            copy.transport = transport
            copy.authentication = authentication
            copy.connectOnly = connectOnly
            copy.uploadProgress = uploadProgress
            return copy
        }
    }

    private var storage: Storage

    /// The storage, copied first when another request shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public var method: String {
        get { storage.method }
        set { uniqueStorage().method = newValue }
    }
    /// An absolute `http` or `https` URL.
    public var url: String {
        get { storage.url }
        set { uniqueStorage().url = newValue }
    }
    public var headers: HTTPHeaders {
        get { storage.headers }
        set { uniqueStorage().headers = newValue }
    }
    public var body: Body {
        get { storage.body }
        set { uniqueStorage().body = newValue }
    }
    /// Time allowed for the whole transfer; `nil` for the session's default.
    public var timeout: Duration? {
        get { storage.timeout }
        set { uniqueStorage().timeout = newValue }
    }
    /// Time allowed to establish the connection (TCP and TLS); `nil` for the session's default.
    public var connectTimeout: Duration? {
        get { storage.connectTimeout }
        set { uniqueStorage().connectTimeout = newValue }
    }
    public var followRedirects: Bool {
        get { storage.followRedirects }
        set { uniqueStorage().followRedirects = newValue }
    }
    public var maxRedirects: Int {
        get { storage.maxRedirects }
        set { uniqueStorage().maxRedirects = newValue }
    }
    /// The encodings offered in `Accept-Encoding` and decoded transparently: `""` offers every one libcurl
    /// supports, `nil` sends no `Accept-Encoding` and leaves bodies as they come.
    public var acceptEncoding: String? {
        get { storage.acceptEncoding }
        set { uniqueStorage().acceptEncoding = newValue }
    }
    /// The jar whose cookies are sent and which stores the cookies the response sets; `nil` for no cookies.
    public var cookieJar: CookieJar? {
        get { storage.cookieJar }
        set { uniqueStorage().cookieJar = newValue }
    }
    /// The most body bytes kept in memory; `nil` for the session's default. Applies to `.keep` bodies only.
    public var maxBodySize: Int? {
        get { storage.maxBodySize }
        set { uniqueStorage().maxBodySize = newValue }
    }
    /// Whether the response body is kept in memory or only counted and hashed as it streams.
    public var responseBodyHandling: ResponseBodyHandling {
        get { storage.responseBodyHandling }
        set { uniqueStorage().responseBodyHandling = newValue }
    }
    /// Record the request headers as libcurl sends them, its own (`Host`, `Accept-Encoding`, `Content-Length`,
    /// ...) included, into `HTTPResponse.sentHeaders` (through libcurl's debug callback, so only when asked).
    public var recordsSentHeaders: Bool {
        get { storage.recordsSentHeaders }
        set { uniqueStorage().recordsSentHeaders = newValue }
    }
    /// Verification settings for a request without a `security` policy: only tests change them (a private CA).
    var tls: TLSOptions {
        get { storage.tls }
        set { uniqueStorage().tls = newValue }
    }
    /// Pinning and trust settings checked during the TLS handshake; when set, they replace `tls`.
    public var security: SecurityPolicy? {
        get { storage.security }
        set { uniqueStorage().security = newValue }
    }
    /// Host-name overrides in curl's `--resolve` form (`host:port:address`), for reaching a server by address.
    public var resolve: [String] {
        get { storage.resolve }
        set { uniqueStorage().resolve = newValue }
    }
    /// Where and how the connection is made: connect-to entries, a unix socket, HTTP versions, a proxy.
    public var transport: TransportOptions {
        get { storage.transport }
        set { uniqueStorage().transport = newValue }
    }
    /// A scheme libcurl runs to authenticate (Digest, NTLM, AWS Signature Version 4, netrc); nil for none.
    public var authentication: HTTPAuthentication? {
        get { storage.authentication }
        set { uniqueStorage().authentication = newValue }
    }
    /// Only connect (TCP and TLS) and send nothing: `apitest pin-check`.
    var connectOnly: Bool {
        get { storage.connectOnly }
        set { uniqueStorage().connectOnly = newValue }
    }
    /// Called on the session's event-loop thread as the body is sent, with bytes sent and the body's length, at
    /// most every 100 ms; keep it quick.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)? {
        get { storage.uploadProgress }
        set { uniqueStorage().uploadProgress = newValue }
    }

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
        storage = Storage(
            method: method, url: url, headers: headers, body: body, timeout: timeout, connectTimeout: connectTimeout,
            followRedirects: followRedirects, maxRedirects: maxRedirects, acceptEncoding: acceptEncoding,
            cookieJar: cookieJar, maxBodySize: maxBodySize)
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
