package import Foundation

/// A request and its response as recorded, before sealing: the texts as sent and received, secrets included.
/// Only sealing (`StepDraft.sealed(by:)`) turns it into the ``Exchange`` that reports show, masking every text and
/// cutting the body previews.
package struct ExchangeDraft: Sendable {
    /// The start of a body, or a note in its place.
    package enum Body: Sendable, Hashable {
        /// The first `readBytes` bytes of a body of `totalSize` bytes, as text: read past the preview limit, so
        /// that a secret straddling the cut is masked whole before the preview is cut.
        case text(String, readBytes: Int, totalSize: Int)
        /// What reports show in place of a body that is no text (`<file PATH>`, `<N bytes of binary data>`, a
        /// multipart summary).
        case note(String)
    }

    package var method: String
    package var url: String
    package var requestHeaders: [Exchange.Header]
    /// The request headers as they went on the wire, when they were recorded (`--verbose`).
    package var sentRequestHeaders: [Exchange.Header]?
    package var requestBody: Body?
    package var requestBodySize: Int64
    /// `nil` when no response arrived.
    package var statusCode: Int?
    package var httpVersion: String?
    package var responseHeaders: [Exchange.Header]
    package var responseBody: Body?
    package var responseBodySize: Int
    package var effectiveURL: String?
    package var remoteAddress: String?
    package var redirectCount: Int
    package var timings: Exchange.Timings?
    /// About how many bytes of a body preview reports keep.
    package var bodyPreviewLimit: Int
    /// When the request was handed to the transport (see ``Exchange/startedAt``).
    package var startedAt: Date?
    /// The status line's reason phrase.
    package var reasonPhrase: String?
    /// The local port of the connection (see ``Exchange/localPort``).
    package var localPort: Int?
    /// The first bytes of a response body that is no UTF-8 text, read past the preview limit as text previews
    /// are, when the run records binary bodies; sealing masks them and keeps them base64-encoded
    /// (``Exchange/responseBodyBase64``).
    package var responseBinary: Data?
    /// The parts of a multipart request body, values as they were (see ``Exchange/requestParts``).
    package var requestParts: [Exchange.FormPart]?
    /// The redirects followed on the way to this response, each its own exchange, when the run records them
    /// (see ``Exchange/redirectHops``).
    package var redirectHops: [ExchangeDraft] = []

    /// A request of `method` to `url` with `requestHeaders`, no response yet; previews keep `bodyPreviewLimit`
    /// bytes.
    package init(
        method: String, url: String, requestHeaders: [Exchange.Header] = [], bodyPreviewLimit: Int
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBodySize = 0
        self.responseHeaders = []
        self.responseBodySize = 0
        self.redirectCount = 0
        self.bodyPreviewLimit = bodyPreviewLimit
    }
}
