package import Foundation

/// One request and its response, as reports show them: plain values, already masked.
package struct Exchange: Sendable, Hashable, Codable {
    /// A header field as sent or received.
    package struct Header: Sendable, Hashable, Codable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package var method: String
    package var url: String
    package var requestHeaders: [Header]
    /// The request headers as they went on the wire, those libcurl adds (`Host`, `Accept-Encoding`,
    /// `Content-Length`, ...) included, when they were recorded (`--verbose`); masked like `requestHeaders`.
    package var sentRequestHeaders: [Header]?
    /// The start of the request body as text, for reports (already truncated and masked).
    package var requestBody: String?
    package var requestBodySize: Int64

    /// `nil` when no response arrived.
    package var statusCode: Int?
    package var httpVersion: String?
    package var responseHeaders: [Header]
    package var responseBody: String?
    package var responseBodySize: Int
    package var effectiveURL: String?
    package var remoteAddress: String?
    package var redirectCount: Int
    package var timings: Timings?
    /// When the request was handed to the transport (wall clock), when it was recorded (for the HAR report).
    package var startedAt: Date?
    /// The status line's reason phrase (empty under HTTP/2), when it was recorded.
    package var reasonPhrase: String?
    /// The local port of the connection that carried the exchange, when it was recorded: exchanges on one
    /// connection share it (the HAR report's `connection`).
    package var localPort: Int?
    /// The start of a response body that is no UTF-8 text, base64-encoded after masking (its bytes read as Latin-1
    /// and masked as text), when the run records binary bodies (the HAR report); ``responseBody`` then holds the
    /// note reports show in its place.
    package var responseBodyBase64: String?
    /// The parts of a `multipart/form-data` request body, when the run records them (the HAR report's
    /// `postData.params`): names, file names and text values masked.
    package var requestParts: [FormPart]?
    /// Whether ``requestBody`` is a note in place of the body (`<file PATH>`, a multipart summary), not its text;
    /// nil without a body or when not recorded.
    package var requestBodyIsNote: Bool?
    /// Whether ``responseBody`` is a note in place of the body (`<N bytes of binary data>`), not its text; nil
    /// without a body or when not recorded.
    package var responseBodyIsNote: Bool?
    /// The redirects followed on the way to this response, in order, each the exchange of one hop (its request and
    /// the redirect it got), when the run records them (the HAR report, where each hop is an entry); nil otherwise.
    package var redirectHops: [Exchange]?

    package init(
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

    /// One part of a `multipart/form-data` request body.
    package struct FormPart: Sendable, Hashable, Codable {
        package var name: String
        /// The part's file name, for a file.
        package var fileName: String?
        package var contentType: String?
        /// The part's value as text, for a part given inline as UTF-8 text (cut like a body preview).
        package var value: String?

        package init(name: String, fileName: String? = nil, contentType: String? = nil, value: String? = nil) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.value = value
        }
    }

    /// `METHOD URL`, the request line as reports print it.
    package var requestLine: String { "\(method) \(url)" }

    /// Phases of the transfer, each measured from its start.
    package struct Timings: Sendable, Hashable, Codable {
        package var nameLookup: Duration
        package var connect: Duration
        package var tlsHandshake: Duration
        package var firstByte: Duration
        package var total: Duration
        /// When the request was about to be sent (libcurl's `CURLINFO_PRETRANSFER_TIME_T`), when it was recorded.
        package var preTransfer: Duration?
        /// For a step read as a stream of events (`expect.events`, a GraphQL subscription): the time from the start
        /// of the request to its first event; nil for other steps and for a stream without events.
        package var firstEvent: Duration?

        package init(
            nameLookup: Duration, connect: Duration, tlsHandshake: Duration, firstByte: Duration, total: Duration,
            preTransfer: Duration? = nil
        ) {
            self.nameLookup = nameLookup
            self.connect = connect
            self.tlsHandshake = tlsHandshake
            self.firstByte = firstByte
            self.total = total
            self.preTransfer = preTransfer
        }
    }
}
