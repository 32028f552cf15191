public import Foundation

/// One gRPC call to send: where (`baseURL` and the method's `path`), what (the request messages, already encoded:
/// this layer moves opaque bytes), with which metadata and deadline, and over which connection settings. Those are
/// the ones of any request (`security`, `resolve`, `transport`), applied by the same code as for HTTP requests.
///
/// `https` URLs speak HTTP/2 over TLS (ALPN `h2`), `http` URLs HTTP/2 with prior knowledge (`h2c`). Messages are
/// sent uncompressed, and no compression is offered for the response.
public struct GRPCCallDescription: Sendable {
    /// The server's URL: scheme, host and port (`https://api.example.com:443`), and any path prefix a proxy routes.
    public var baseURL: String
    /// The method's path: `/package.Service/Method`.
    public var path: String
    /// The `:authority` sent instead of the URL's host and port, when set (libcurl still connects to the URL's).
    public var authority: String?
    /// The request's custom metadata.
    public var metadata: GRPCMetadata
    /// How long the call may take: sent as `grpc-timeout`, and the call ends with DEADLINE_EXCEEDED when it
    /// passes, whether or not the server answers. Nil for no deadline (the session's timeout still applies).
    public var deadline: Duration?
    /// The request messages, each one serialized message; one for unary and server-streaming calls, any number
    /// (none included) for client-streaming and bidirectional ones. They are sent in order, then the request ends.
    public var messages: [Data]
    /// The largest response message accepted, in bytes (gRPC's default: 4 MiB).
    public var maxResponseMessageSize: Int
    /// The security policy of the connection (pins, CA, client certificate); nil for full verification against
    /// the system's trust store.
    public var security: SecurityPolicy?
    /// `--resolve` entries (`host:port:address`).
    public var resolve: [String]
    /// Connect-to entries, unix socket and proxy (the HTTP version is the call's own: HTTP/2).
    public var transport: TransportOptions
    /// The time allowed to connect; nil for the session's.
    public var connectTimeout: Duration?
    /// Whether the response keeps the header fields libcurl sent (`HTTPResponse.sentHeaders`).
    public var recordsSentHeaders: Bool

    /// The largest response message by default: 4 MiB, gRPC's own default.
    public static let defaultMaxResponseMessageSize = 4 * 1024 * 1024

    /// A call of `path` on `baseURL` with `messages`.
    public init(
        baseURL: String, path: String, messages: [Data], metadata: GRPCMetadata = GRPCMetadata(),
        deadline: Duration? = nil, authority: String? = nil,
        maxResponseMessageSize: Int = GRPCCallDescription.defaultMaxResponseMessageSize,
        security: SecurityPolicy? = nil, resolve: [String] = [], transport: TransportOptions = TransportOptions(),
        connectTimeout: Duration? = nil, recordsSentHeaders: Bool = false
    ) {
        self.baseURL = baseURL
        self.path = path
        self.messages = messages
        self.metadata = metadata
        self.deadline = deadline
        self.authority = authority
        self.maxResponseMessageSize = maxResponseMessageSize
        self.security = security
        self.resolve = resolve
        self.transport = transport
        self.connectTimeout = connectTimeout
        self.recordsSentHeaders = recordsSentHeaders
    }

    /// The URL the call is sent to: `baseURL` (without a trailing `/`) followed by `path`.
    public func url() throws(GRPCError) -> String {
        guard let components = URLComponents(string: baseURL), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else { throw GRPCError(.invalidURL(baseURL)) }
        guard Self.isMethodPath(path) else { throw GRPCError(.invalidMethodPath(path)) }
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// Whether `path` is `/service/method`: two non-empty segments of letters, digits, `.`, `_` and `-`.
    static func isMethodPath(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3, segments[0].isEmpty, !segments[1].isEmpty, !segments[2].isEmpty else {
            return false
        }
        return path.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "/")
        }
    }

    /// The HTTP/2 request of the call, its response body handed to `sink`.
    func httpRequest(sink: ResponseStreamSink) throws(GRPCError) -> HTTPRequest {
        let url = try url()
        var fields: [(String, String)] = [("Content-Type", "application/grpc"), ("TE", "trailers")]
        if let deadline { fields.append(("grpc-timeout", GRPCTimeout.headerValue(for: deadline))) }
        if let authority { fields.append(("Host", authority)) }
        fields += try metadata.requestFields()
        // No message: no body at all (the request's HEADERS frame ends the stream). libcurl 7.88 sends an empty body
        // read through its read callback in a way grpcio refuses (a framing-layer error).
        let body: HTTPRequest.Body = messages.isEmpty ? .none : .data(GRPCMessageDecoder.frame(messages))
        var request = HTTPRequest(
            method: "POST", url: url, headers: HTTPHeaders(fields), body: body, timeout: deadline,
            connectTimeout: connectTimeout, followRedirects: false, acceptEncoding: nil)
        request.responseBodyHandling = .stream(sink, prefix: 0)
        request.security = security
        request.resolve = resolve
        var transport = transport
        // Prior knowledge: h2c for http; for https libcurl still negotiates h2 through ALPN.
        transport.httpVersion = .http2PriorKnowledge
        request.transport = transport
        // libcurl 7.88 fails the second request on a reused prior-knowledge (h2c) connection with "Error in the
        // HTTP2 framing layer" (curl issue 10634, fixed in 8.0): a plaintext call (`speaksPlaintextPriorKnowledge`)
        // shares its connections through the loop's `H2CConnections`, which works around it. Over TLS (h2 through
        // ALPN) libcurl reuses connections as usual, one request at a time on each.
        request.recordsSentHeaders = recordsSentHeaders
        return request
    }
}
