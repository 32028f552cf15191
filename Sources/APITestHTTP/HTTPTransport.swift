// MARK: - HTTPTransport

/// What sends requests for the runner: the libcurl `SessionManager`, or a scripted transport in the runner's unit
/// tests (`ScriptedTransport` in the test support target). Small on purpose, as Alamofire's injected protocols are.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns its response. Throws `HTTPError` for a transfer that failed, and
    /// `CancellationError` (or `HTTPError` with reason `.cancelled`) when the calling task was cancelled.
    func perform(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Releases the cookies of `jar`; later requests naming it start with an empty jar.
    func close(_ jar: CookieJar)
}

extension SessionManager: HTTPTransport {}
