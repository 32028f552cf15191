public import Foundation

/// A received HTTP response with the facts of its transfer.
public struct HTTPResponse: Sendable {
    /// The fields of a response, kept in one storage shared by its copies until one of them changes a field (copy on
    /// write): a response is copied several times on its way between the runner and the loop thread, and with its
    /// reference-counted fields inline every copy retained and released each of them.
    private struct Fields: Sendable {
        var statusCode: Int
        var httpVersion: String
        var reasonPhrase: String
        var headers: HTTPHeaders
        var body: Data
        var bodySize: Int64
        var bodyIsComplete: Bool = true
        var bodyDigests: [BodyDigest.Algorithm: String] = [:]
        var sentHeaders: HTTPHeaders?
        var timings: TransferTimings
        var remoteAddress: String
        var localPort: Int = 0
        var effectiveURL: String
        var redirectCount: Int
        var bytesUploaded: Int64
        var peerCertificates: [CertificateInfo]
        var tlsEvaluation: TLSEvaluation?
        var receivedFieldLines: [UInt8]?
        var redirectHops: [RedirectHop] = []
    }

    /// A redirect followed on the way to this response: the request sent for the hop and the redirect it got.
    public struct RedirectHop: Sendable {
        /// The hop's request (its method and body as the redirect before it left them).
        public var request: HTTPRequest
        /// The hop's response: a redirect status with its `Location`.
        public var response: HTTPResponse

        /// A hop of `request` answered by `response`.
        public init(request: HTTPRequest, response: HTTPResponse) {
            self.request = request
            self.response = response
        }
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

    /// The storage, copied first when another response shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    public var statusCode: Int {
        get { storage.fields.statusCode }
        set { uniqueStorage().fields.statusCode = newValue }
    }
    /// The protocol version that carried the final response: `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3`.
    public var httpVersion: String {
        get { storage.fields.httpVersion }
        set { uniqueStorage().fields.httpVersion = newValue }
    }
    /// The status line's reason phrase (empty under HTTP/2).
    public var reasonPhrase: String {
        get { storage.fields.reasonPhrase }
        set { uniqueStorage().fields.reasonPhrase = newValue }
    }
    /// Every header field of the final response, in order, repeated fields kept.
    public var headers: HTTPHeaders {
        get { storage.fields.headers }
        set { uniqueStorage().fields.headers = newValue }
    }
    /// The body, decoded from its `Content-Encoding` when the request offered encodings. When the request asked
    /// for `.digest` handling, only the body's first bytes (see `bodyIsComplete`).
    public var body: Data {
        get { storage.fields.body }
        set { uniqueStorage().fields.body = newValue }
    }
    /// The number of body bytes received (after content decoding), whether or not they were kept.
    public var bodySize: Int64 {
        get { storage.fields.bodySize }
        set { uniqueStorage().fields.bodySize = newValue }
    }
    /// False when the body was only counted and hashed as it streamed (`ResponseBodyHandling.digest`): `body` then
    /// holds its first bytes only, and `bodySize` and `bodyDigests` describe the whole.
    public var bodyIsComplete: Bool {
        get { storage.fields.bodyIsComplete }
        set { uniqueStorage().fields.bodyIsComplete = newValue }
    }
    /// Digests of the whole body computed as it streamed, by algorithm (lower-case hex).
    public var bodyDigests: [BodyDigest.Algorithm: String] {
        get { storage.fields.bodyDigests }
        set { uniqueStorage().fields.bodyDigests = newValue }
    }
    /// The header fields of the final request as they went on the wire, when the request asked
    /// (`recordsSentHeaders`); `nil` otherwise. Under HTTP/2, libcurl shows them in HTTP/1.1 form (`Host` for
    /// `:authority`).
    public var sentHeaders: HTTPHeaders? {
        get { storage.fields.sentHeaders }
        set { uniqueStorage().fields.sentHeaders = newValue }
    }
    public var timings: TransferTimings {
        get { storage.fields.timings }
        set { uniqueStorage().fields.timings = newValue }
    }
    /// The server's address as `ip:port`.
    public var remoteAddress: String {
        get { storage.fields.remoteAddress }
        set { uniqueStorage().fields.remoteAddress = newValue }
    }
    /// The local port of the connection that carried the response (`CURLINFO_LOCAL_PORT`); 0 when unknown.
    public var localPort: Int {
        get { storage.fields.localPort }
        set { uniqueStorage().fields.localPort = newValue }
    }
    /// The URL of the final response, after redirects.
    public var effectiveURL: String {
        get { storage.fields.effectiveURL }
        set { uniqueStorage().fields.effectiveURL = newValue }
    }
    public var redirectCount: Int {
        get { storage.fields.redirectCount }
        set { uniqueStorage().fields.redirectCount = newValue }
    }
    /// The redirects followed on the way, in order, when the request asked (`HTTPRequest.recordsRedirectHops`);
    /// empty otherwise.
    public var redirectHops: [RedirectHop] {
        get { storage.fields.redirectHops }
        set { uniqueStorage().fields.redirectHops = newValue }
    }
    /// Bytes of request body sent.
    public var bytesUploaded: Int64 {
        get { storage.fields.bytesUploaded }
        set { uniqueStorage().fields.bytesUploaded = newValue }
    }
    /// The certificates the server sent on the connection of this response, leaf first; empty for plain HTTP.
    /// Filled on reused connections too.
    public var peerCertificates: [CertificateInfo] {
        get { storage.fields.peerCertificates }
        set { uniqueStorage().fields.peerCertificates = newValue }
    }
    /// What the handshake check of the request's `SecurityPolicy` found, when a new connection was checked.
    public var tlsEvaluation: TLSEvaluation? {
        get { storage.fields.tlsEvaluation }
        set { uniqueStorage().fields.tlsEvaluation = newValue }
    }
    /// The header's field lines as the loop thread copied them (`TaskDelegate.headerBlock`), until
    /// `readReceivedFieldLines()` turns them into `headers` on the caller's thread.
    var receivedFieldLines: [UInt8]? {
        get { storage.fields.receivedFieldLines }
        set { uniqueStorage().fields.receivedFieldLines = newValue }
    }

    public init(
        statusCode: Int, httpVersion: String, reasonPhrase: String = "", headers: HTTPHeaders, body: Data,
        timings: TransferTimings = TransferTimings(), remoteAddress: String = "", effectiveURL: String,
        redirectCount: Int = 0, bytesUploaded: Int64 = 0, peerCertificates: [CertificateInfo] = [],
        tlsEvaluation: TLSEvaluation? = nil
    ) {
        storage = Storage(
            Fields(
                statusCode: statusCode, httpVersion: httpVersion, reasonPhrase: reasonPhrase, headers: headers,
                body: body, bodySize: Int64(body.count), timings: timings, remoteAddress: remoteAddress,
                effectiveURL: effectiveURL, redirectCount: redirectCount, bytesUploaded: bytesUploaded,
                peerCertificates: peerCertificates, tlsEvaluation: tlsEvaluation))
    }

    /// Turns the field lines the loop thread copied into `headers`: done once, by `SessionManager.perform`, on the
    /// thread of the task that asked for the response.
    mutating func readReceivedFieldLines() {
        guard let lines = receivedFieldLines else { return }
        headers = HTTPHeaders(fieldLines: lines)
        receivedFieldLines = nil
    }

    /// The digest `algorithm` of the whole body: computed while it streamed, or now from `body` when it was kept;
    /// `nil` when the body was not kept and that digest was not computed.
    public func digest(_ algorithm: BodyDigest.Algorithm) -> String? {
        if let streamed = bodyDigests[algorithm] { return streamed }
        return bodyIsComplete ? BodyDigest.digest(algorithm, of: body) : nil
    }

    /// The media type of `Content-Type` without parameters, lower-cased (`application/json`).
    public var mediaType: String? {
        headers["Content-Type"].map(MediaTypePattern.essence(of:))
    }
}

/// Where the time of one transfer went, each phase measured from the start of the transfer.
///
/// Mirrors libcurl's `CURLINFO_*_TIME_T` values: DNS done, TCP connected, TLS done, request about to be sent,
/// first response byte, and the end.
public struct TransferTimings: Sendable, Hashable, Codable {
    public var nameLookup: Duration
    public var connect: Duration
    public var tlsHandshake: Duration
    public var preTransfer: Duration
    public var firstByte: Duration
    public var total: Duration
    /// Time spent in redirects before the final request started.
    public var redirect: Duration

    public init(
        nameLookup: Duration = .zero, connect: Duration = .zero, tlsHandshake: Duration = .zero,
        preTransfer: Duration = .zero, firstByte: Duration = .zero, total: Duration = .zero, redirect: Duration = .zero
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.preTransfer = preTransfer
        self.firstByte = firstByte
        self.total = total
        self.redirect = redirect
    }
}
