extension SessionManager {
    /// Connects to an `https` URL (TCP and the TLS handshake) under `policy`, sends nothing, and returns what the
    /// handshake check found: the verified chain, the matched pin or why the chain was refused.
    ///
    /// - Parameter resolve: host-name overrides in curl's `--resolve` form (`host:port:address`).
    /// - Throws: `HTTPError` when no handshake could be checked (DNS, refused connection, timeout, TLS protocol
    ///   failure before the certificates).
    public func checkHandshake(
        url: String, policy: SecurityPolicy, resolve: [String] = []
    ) async throws -> TLSEvaluation {
        guard url.lowercased().hasPrefix("https://") else {
            throw HTTPError(.notHTTPS(url: url))
        }
        var request = HTTPRequest(url: url, followRedirects: false)
        request.security = policy
        request.resolve = resolve
        request.connectOnly = true
        do {
            let response = try await perform(request)
            guard let evaluation = response.tlsEvaluation else {
                throw HTTPError(.handshakeNotChecked)
            }
            return evaluation
        } catch let error as HTTPError {
            if let evaluation = error.tlsEvaluation, evaluation.verdict != .notEvaluated { return evaluation }
            throw error
        }
    }
}
