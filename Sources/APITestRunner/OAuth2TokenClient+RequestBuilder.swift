import APITestAuth
import APITestHTTP
import Synchronization

// MARK: - Token requests built by the runner

extension OAuth2TokenClient {
    /// A client sending over `transport` the token requests `builder` builds for the suite of `runtime` (its
    /// `security:` policy, its `defaults` transport settings and the run's transport flags); `log` keeps what it
    /// sends and gets, when a reporter shows every exchange.
    init(transport: any HTTPTransport, builder: RequestBuilder, runtime: SuiteRuntime, log: OAuth2ExchangeLog?) {
        var observer: (@Sendable (OAuth2TokenExchange) -> Void)?
        if let log { observer = { log.record($0) } }
        self.init(transport: transport, observer: observer) { grant, kind in
            var tokenRequest = try builder.tokenRequest(for: grant, kind, runtime: runtime)
            // Shown as it went on the wire (libcurl's own headers included), like the step's own request.
            if log != nil { tokenRequest.request.recordsSentHeaders = true }
            return tokenRequest
        }
    }
}

// MARK: - OAuth2ExchangeLog

/// The token requests one step sent, kept until the step takes them into its result (`--verbose` shows them before
/// the step's own request). A token request runs in whichever task started the grant's single flight, so the log is
/// shared and locked.
final class OAuth2ExchangeLog: Sendable {
    private let exchanges = Mutex<[OAuth2TokenExchange]>([])

    /// Keeps `exchange`.
    func record(_ exchange: OAuth2TokenExchange) {
        exchanges.withLock { $0.append(exchange) }
    }

    /// The exchanges kept since the last call, in the order they were sent.
    func take() -> [OAuth2TokenExchange] {
        exchanges.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
    }
}
