/// Where and how a request's connection is made, when not simply to the URL's host over the default protocol
/// versions: libcurl's `--connect-to`, `--unix-socket`, `--http1.1`/`--http2`/`--http2-prior-knowledge`,
/// `--proxy` and `--noproxy`. (`HTTPRequest.resolve` covers `--resolve`.)
public struct TransportOptions: Sendable, Hashable {
    /// The HTTP versions a request may use.
    public enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
        /// HTTP/1.1 only.
        case http11 = "1.1"
        /// HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise: libcurl's default here.
        case http2 = "2"
        /// HTTP/2 without asking first, also over plain TCP (h2c with prior knowledge).
        case http2PriorKnowledge = "2-prior-knowledge"
    }

    /// Connection overrides in curl's `--connect-to` form (`host:port:connect-host:connect-port`, empty parts
    /// matching any): the request still names the URL's host (in `Host`, SNI and certificate checks).
    public var connectTo: [String] = []
    /// A unix domain socket to connect to instead of the URL's host and port.
    public var unixSocketPath: String?
    /// The protocol versions allowed; nil for libcurl's default here (HTTP/2 over TLS when offered).
    public var httpVersion: HTTPVersion?
    /// A proxy URL (`http://proxy:3128`, `socks5h://...`); nil to follow the environment (`http_proxy`, ...).
    public var proxy: String?
    /// Hosts reached without the proxy, comma-separated as in `NO_PROXY` (`*` for all); nil to follow the
    /// environment.
    public var noProxy: String?

    /// No overrides.
    public init(
        connectTo: [String] = [], unixSocketPath: String? = nil, httpVersion: HTTPVersion? = nil, proxy: String? = nil,
        noProxy: String? = nil
    ) {
        self.connectTo = connectTo
        self.unixSocketPath = unixSocketPath
        self.httpVersion = httpVersion
        self.proxy = proxy
        self.noProxy = noProxy
    }
}
