public import APITestHTTP
import Foundation
import Synchronization

/// An in-memory `HTTPTransport` for the runner's unit tests: each request is answered by a script, and every
/// request given to it is kept, in order. No socket is opened; the integration tests use real servers instead.
public final class ScriptedTransport: HTTPTransport {
    /// Answers a request; the second argument is how many requests came before it.
    public typealias Script = @Sendable (HTTPRequest, Int) async throws -> HTTPResponse

    private let script: Script
    private let log = Mutex<[HTTPRequest]>([])
    private let closed = Mutex<[CookieJar]>([])

    /// A transport that answers with `script`.
    public init(_ script: @escaping Script) {
        self.script = script
    }

    /// Records the request, then runs the script (a cancelled task throws `CancellationError` first).
    public func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = log.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        try Task.checkCancellation()
        return try await script(request, index)
    }

    /// Records the jar as closed.
    public func close(_ jar: CookieJar) {
        closed.withLock { $0.append(jar) }
    }

    /// The requests performed so far, in order.
    public var requests: [HTTPRequest] { log.withLock { $0 } }

    /// The paths of the requests performed so far (`/health` for `http://host/health?x=1`).
    public var paths: [String] { requests.map { URLComponents(string: $0.url)?.path ?? $0.url } }

    /// The jars closed so far.
    public var closedJars: [CookieJar] { closed.withLock { $0 } }

    /// A response to `request`: `status`, a body (JSON unless `contentType` says otherwise) and headers.
    public static func response(
        to request: HTTPRequest, status: Int = 200, body: String = "{}",
        contentType: String = "application/json", headers: [(String, String)] = []
    ) -> HTTPResponse {
        HTTPResponse(
            statusCode: status, httpVersion: "HTTP/1.1",
            headers: HTTPHeaders([("Content-Type", contentType)] + headers), body: Data(body.utf8),
            effectiveURL: request.url)
    }
}
