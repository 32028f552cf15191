/// One request and its response, as reports show them: plain values, already masked.
public struct Exchange: Sendable, Hashable, Codable {
    /// A header field as sent or received.
    public struct Header: Sendable, Hashable, Codable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    public var url: String
    public var requestHeaders: [Header]
    /// The request headers as they went on the wire, those libcurl adds (`Host`, `Accept-Encoding`,
    /// `Content-Length`, ...) included, when they were recorded (`--verbose`); masked like `requestHeaders`.
    public var sentRequestHeaders: [Header]?
    /// The start of the request body as text, for reports (already truncated and masked).
    public var requestBody: String?
    public var requestBodySize: Int64

    /// `nil` when no response arrived.
    public var statusCode: Int?
    public var httpVersion: String?
    public var responseHeaders: [Header]
    public var responseBody: String?
    public var responseBodySize: Int
    public var effectiveURL: String?
    public var remoteAddress: String?
    public var redirectCount: Int
    public var timings: Timings?

    public init(
        method: String, url: String, requestHeaders: [Header] = [], requestBody: String? = nil,
        requestBodySize: Int64 = 0, statusCode: Int? = nil, httpVersion: String? = nil, responseHeaders: [Header] = [],
        responseBody: String? = nil, responseBodySize: Int = 0, effectiveURL: String? = nil,
        remoteAddress: String? = nil, redirectCount: Int = 0, timings: Timings? = nil
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestBodySize = requestBodySize
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseBodySize = responseBodySize
        self.effectiveURL = effectiveURL
        self.remoteAddress = remoteAddress
        self.redirectCount = redirectCount
        self.timings = timings
    }

    /// `METHOD URL`, the request line as reports print it.
    public var requestLine: String { "\(method) \(url)" }

    /// Phases of the transfer, each measured from its start.
    public struct Timings: Sendable, Hashable, Codable {
        public var nameLookup: Duration
        public var connect: Duration
        public var tlsHandshake: Duration
        public var firstByte: Duration
        public var total: Duration

        public init(
            nameLookup: Duration, connect: Duration, tlsHandshake: Duration, firstByte: Duration, total: Duration
        ) {
            self.nameLookup = nameLookup
            self.connect = connect
            self.tlsHandshake = tlsHandshake
            self.firstByte = firstByte
            self.total = total
        }
    }
}
