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

    /// The fields of a request, kept in one storage shared by its copies until one of them changes a field (copy on
    /// write): a request is copied several times on its way between the runner and the loop thread, and with its
    /// reference-counted fields inline every copy retained and released each of them.
    private struct Fields: Sendable {
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
        var recordsRedirectHops: Bool = false
        var security: SecurityPolicy?
        var resolve: [String] = []
        var transport: TransportOptions = TransportOptions()
        var authentication: HTTPAuthentication?
        var originBoundHeaders = OriginBoundHeaders()
        var connectOnly: Bool = false
        var forcesFreshConnection: Bool = false
        var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)?
    }

    /// The shared storage: its fields are read and written only through `uniqueStorage()`'s unique reference or
    /// read while shared, never accessed twice at once (no dynamic exclusivity checks).
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var storage: Storage

    /// The storage, copied first when another request shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    public var method: String {
        get { storage.fields.method }
        set { uniqueStorage().fields.method = newValue }
    }
    /// An absolute `http` or `https` URL.
    public var url: String {
        get { storage.fields.url }
        set { uniqueStorage().fields.url = newValue }
    }
    public var headers: HTTPHeaders {
        get { storage.fields.headers }
        set { uniqueStorage().fields.headers = newValue }
    }
    public var body: Body {
        get { storage.fields.body }
        set { uniqueStorage().fields.body = newValue }
    }
    /// Time allowed for the whole transfer; `nil` for the session's default.
    public var timeout: Duration? {
        get { storage.fields.timeout }
        set { uniqueStorage().fields.timeout = newValue }
    }
    /// Time allowed to establish the connection (TCP and TLS); `nil` for the session's default.
    public var connectTimeout: Duration? {
        get { storage.fields.connectTimeout }
        set { uniqueStorage().fields.connectTimeout = newValue }
    }
    public var followRedirects: Bool {
        get { storage.fields.followRedirects }
        set { uniqueStorage().fields.followRedirects = newValue }
    }
    public var maxRedirects: Int {
        get { storage.fields.maxRedirects }
        set { uniqueStorage().fields.maxRedirects = newValue }
    }
    /// The encodings offered in `Accept-Encoding` and decoded transparently: `""` offers every one libcurl
    /// supports, `nil` sends no `Accept-Encoding` and leaves bodies as they come.
    public var acceptEncoding: String? {
        get { storage.fields.acceptEncoding }
        set { uniqueStorage().fields.acceptEncoding = newValue }
    }
    /// The jar whose cookies are sent and which stores the cookies the response sets; `nil` for no cookies.
    public var cookieJar: CookieJar? {
        get { storage.fields.cookieJar }
        set { uniqueStorage().fields.cookieJar = newValue }
    }
    /// The most body bytes kept in memory; `nil` for the session's default. Applies to `.keep` bodies only.
    public var maxBodySize: Int? {
        get { storage.fields.maxBodySize }
        set { uniqueStorage().fields.maxBodySize = newValue }
    }
    /// Whether the response body is kept in memory or only counted and hashed as it streams.
    public var responseBodyHandling: ResponseBodyHandling {
        get { storage.fields.responseBodyHandling }
        set { uniqueStorage().fields.responseBodyHandling = newValue }
    }
    /// Record the request headers as libcurl sends them, its own (`Host`, `Accept-Encoding`, `Content-Length`,
    /// ...) included, into `HTTPResponse.sentHeaders` (through libcurl's debug callback, so only when asked).
    public var recordsSentHeaders: Bool {
        get { storage.fields.recordsSentHeaders }
        set { uniqueStorage().fields.recordsSentHeaders = newValue }
    }
    /// Follow redirects one transfer a hop (as `SessionManager` does for origin-bound fields) and keep every hop's
    /// request and response in `HTTPResponse.redirectHops` (for an archive of the run, where each hop is an entry).
    public var recordsRedirectHops: Bool {
        get { storage.fields.recordsRedirectHops }
        set { uniqueStorage().fields.recordsRedirectHops = newValue }
    }
    /// Pinning and trust settings checked during the TLS handshake; nil: full verification against the system's
    /// trust store, nothing pinned.
    public var security: SecurityPolicy? {
        get { storage.fields.security }
        set { uniqueStorage().fields.security = newValue }
    }
    /// Host-name overrides in curl's `--resolve` form (`host:port:address`), for reaching a server by address.
    public var resolve: [String] {
        get { storage.fields.resolve }
        set { uniqueStorage().fields.resolve = newValue }
    }
    /// Where and how the connection is made: connect-to entries, a unix socket, HTTP versions, a proxy.
    public var transport: TransportOptions {
        get { storage.fields.transport }
        set { uniqueStorage().fields.transport = newValue }
    }
    /// A scheme libcurl runs to authenticate (Digest, NTLM, AWS Signature Version 4, netrc); nil for none.
    public var authentication: HTTPAuthentication? {
        get { storage.fields.authentication }
        set { uniqueStorage().fields.authentication = newValue }
    }
    /// The header fields sent only to the origin of `url`: a redirect to another origin leaves them out (see
    /// `SessionManager.perform(_:)`, which follows such a request's redirects itself).
    public var originBoundHeaders: OriginBoundHeaders {
        get { storage.fields.originBoundHeaders }
        set { uniqueStorage().fields.originBoundHeaders = newValue }
    }
    /// Only connect (TCP and TLS) and send nothing: `apitest pin-check`.
    var connectOnly: Bool {
        get { storage.fields.connectOnly }
        set { uniqueStorage().fields.connectOnly = newValue }
    }
    /// Open a new connection rather than reuse one (`CURLOPT_FRESH_CONNECT`): the second try of a pinned request
    /// that the last guard stopped before sending it on a connection its policy had not checked.
    var forcesFreshConnection: Bool {
        get { storage.fields.forcesFreshConnection }
        set { uniqueStorage().fields.forcesFreshConnection = newValue }
    }
    /// A plaintext HTTP/2 request with prior knowledge (`http:` with `.http2PriorKnowledge`: a gRPC call over h2c,
    /// or an HTTP request asking for it): libcurl 7.88 fails a second such request on a connection ("Error in the
    /// HTTP2 framing layer"), so it shares connections with the others of its origin as `CurlMultiLoop+H2C.swift`
    /// arranges, or takes a new one.
    var speaksPlaintextPriorKnowledge: Bool {
        guard storage.fields.transport.httpVersion == .http2PriorKnowledge else { return false }
        let scheme = storage.fields.url.utf8.prefix(5)
        return scheme.count == 5 && String(decoding: scheme, as: UTF8.self).lowercased() == "http:"
    }
    /// Called on the session's event-loop thread as the body is sent, with bytes sent and the body's length, at
    /// most every 100 ms; keep it quick.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64) -> Void)? {
        get { storage.fields.uploadProgress }
        set { uniqueStorage().fields.uploadProgress = newValue }
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
            Fields(
                method: method, url: url, headers: headers, body: body, timeout: timeout,
                connectTimeout: connectTimeout, followRedirects: followRedirects, maxRedirects: maxRedirects,
                acceptEncoding: acceptEncoding, cookieJar: cookieJar, maxBodySize: maxBodySize))
    }
}
