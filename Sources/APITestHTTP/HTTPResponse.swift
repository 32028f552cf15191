public import Foundation

/// A received HTTP response with the facts of its transfer.
public struct HTTPResponse: Sendable {
    /// The fields, shared by the copies of a response until one of them changes one (copy on write). A response
    /// is copied several times on its way from the loop thread to the checks and the results; with its dozen
    /// reference-counted fields inline, every copy retained and released each of them.
    private final class Storage: @unchecked Sendable {
        var statusCode: Int
        var httpVersion: String
        var reasonPhrase: String
        var headers: HTTPHeaders
        var body: Data
        var bodySize: Int64
        var bodyIsComplete: Bool
        var bodyDigests: [BodyDigest.Algorithm: String]
        var sentHeaders: HTTPHeaders?
        var timings: TransferTimings
        var remoteAddress: String
        var effectiveURL: String
        var redirectCount: Int
        var bytesUploaded: Int64
        var peerCertificates: [CertificateInfo]
        var tlsEvaluation: TLSEvaluation?
        var receivedFieldLines: [UInt8]?

        init(
            statusCode: Int, httpVersion: String, reasonPhrase: String, headers: HTTPHeaders, body: Data,
            timings: TransferTimings, remoteAddress: String, effectiveURL: String, redirectCount: Int,
            bytesUploaded: Int64, peerCertificates: [CertificateInfo], tlsEvaluation: TLSEvaluation?
        ) {
            self.statusCode = statusCode
            self.httpVersion = httpVersion
            self.reasonPhrase = reasonPhrase
            self.headers = headers
            self.body = body
            self.bodySize = Int64(body.count)
            self.bodyIsComplete = true
            self.bodyDigests = [:]
            self.sentHeaders = nil
            self.timings = timings
            self.remoteAddress = remoteAddress
            self.effectiveURL = effectiveURL
            self.redirectCount = redirectCount
            self.bytesUploaded = bytesUploaded
            self.peerCertificates = peerCertificates
            self.tlsEvaluation = tlsEvaluation
            self.receivedFieldLines = nil
        }

        /// A copy to change, for a response whose storage another copy shares.
        func copy() -> Storage {
            let copy = Storage(
                statusCode: statusCode, httpVersion: httpVersion, reasonPhrase: reasonPhrase, headers: headers,
                body: body, timings: timings, remoteAddress: remoteAddress, effectiveURL: effectiveURL,
                redirectCount: redirectCount, bytesUploaded: bytesUploaded, peerCertificates: peerCertificates,
                tlsEvaluation: tlsEvaluation)
            copy.bodySize = bodySize
            copy.bodyIsComplete = bodyIsComplete
            copy.bodyDigests = bodyDigests
            copy.sentHeaders = sentHeaders
            copy.receivedFieldLines = receivedFieldLines
            return copy
        }
    }

    private var storage: Storage

    /// The storage, copied first when another response shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public var statusCode: Int {
        get { storage.statusCode }
        set { uniqueStorage().statusCode = newValue }
    }
    /// The protocol version that carried the final response: `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3`.
    public var httpVersion: String {
        get { storage.httpVersion }
        set { uniqueStorage().httpVersion = newValue }
    }
    /// The status line's reason phrase (empty under HTTP/2).
    public var reasonPhrase: String {
        get { storage.reasonPhrase }
        set { uniqueStorage().reasonPhrase = newValue }
    }
    /// Every header field of the final response, in order, repeated fields kept.
    public var headers: HTTPHeaders {
        get { storage.headers }
        set { uniqueStorage().headers = newValue }
    }
    /// The body, decoded from its `Content-Encoding` when the request offered encodings. When the request asked
    /// for `.digest` handling, only the body's first bytes (see `bodyIsComplete`).
    public var body: Data {
        get { storage.body }
        set { uniqueStorage().body = newValue }
    }
    /// The number of body bytes received (after content decoding), whether or not they were kept.
    public var bodySize: Int64 {
        get { storage.bodySize }
        set { uniqueStorage().bodySize = newValue }
    }
    /// False when the body was only counted and hashed as it streamed (`ResponseBodyHandling.digest`): `body` then
    /// holds its first bytes only, and `bodySize` and `bodyDigests` describe the whole.
    public var bodyIsComplete: Bool {
        get { storage.bodyIsComplete }
        set { uniqueStorage().bodyIsComplete = newValue }
    }
    /// Digests of the whole body computed as it streamed, by algorithm (lower-case hex).
    public var bodyDigests: [BodyDigest.Algorithm: String] {
        get { storage.bodyDigests }
        set { uniqueStorage().bodyDigests = newValue }
    }
    /// The header fields of the final request as they went on the wire, when the request asked
    /// (`recordsSentHeaders`); `nil` otherwise. Under HTTP/2, libcurl shows them in HTTP/1.1 form (`Host` for
    /// `:authority`).
    public var sentHeaders: HTTPHeaders? {
        get { storage.sentHeaders }
        set { uniqueStorage().sentHeaders = newValue }
    }
    public var timings: TransferTimings {
        get { storage.timings }
        set { uniqueStorage().timings = newValue }
    }
    /// The server's address as `ip:port`.
    public var remoteAddress: String {
        get { storage.remoteAddress }
        set { uniqueStorage().remoteAddress = newValue }
    }
    /// The URL of the final response, after redirects.
    public var effectiveURL: String {
        get { storage.effectiveURL }
        set { uniqueStorage().effectiveURL = newValue }
    }
    public var redirectCount: Int {
        get { storage.redirectCount }
        set { uniqueStorage().redirectCount = newValue }
    }
    /// Bytes of request body sent.
    public var bytesUploaded: Int64 {
        get { storage.bytesUploaded }
        set { uniqueStorage().bytesUploaded = newValue }
    }
    /// The certificates the server sent on the connection of this response, leaf first; empty for plain HTTP.
    /// Filled on reused connections too.
    public var peerCertificates: [CertificateInfo] {
        get { storage.peerCertificates }
        set { uniqueStorage().peerCertificates = newValue }
    }
    /// What the handshake check of the request's `SecurityPolicy` found, when a new connection was checked.
    public var tlsEvaluation: TLSEvaluation? {
        get { storage.tlsEvaluation }
        set { uniqueStorage().tlsEvaluation = newValue }
    }
    /// The header's field lines as the loop thread copied them (`TaskDelegate.headerBlock`), until
    /// `readReceivedFieldLines()` turns them into `headers` on the caller's thread.
    var receivedFieldLines: [UInt8]? {
        get { storage.receivedFieldLines }
        set { uniqueStorage().receivedFieldLines = newValue }
    }

    public init(
        statusCode: Int, httpVersion: String, reasonPhrase: String = "", headers: HTTPHeaders, body: Data,
        timings: TransferTimings = TransferTimings(), remoteAddress: String = "", effectiveURL: String,
        redirectCount: Int = 0, bytesUploaded: Int64 = 0, peerCertificates: [CertificateInfo] = [],
        tlsEvaluation: TLSEvaluation? = nil
    ) {
        storage = Storage(
            statusCode: statusCode, httpVersion: httpVersion, reasonPhrase: reasonPhrase, headers: headers, body: body,
            timings: timings, remoteAddress: remoteAddress, effectiveURL: effectiveURL, redirectCount: redirectCount,
            bytesUploaded: bytesUploaded, peerCertificates: peerCertificates, tlsEvaluation: tlsEvaluation)
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
