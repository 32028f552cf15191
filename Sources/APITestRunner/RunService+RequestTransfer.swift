package import APITestHTTP
import APITestSecurity
import APITestSuite

// MARK: - Requests made outside a suite

/// A run's transfer settings for requests that no suite describes (`apitest fuzz`'s generated requests): the session
/// settings (``RunService/sessionConfiguration(for:)``), the security policy of the TLS flags, and the transport
/// flags, each applied by the code a suite's request goes through, so `fuzz` and `run` read their shared flags the
/// same way.
package struct RequestTransfer: Sendable {
    /// The session's settings: `jobs` connections, the time limits.
    package let session: SessionConfiguration
    /// The policy of the TLS flags (`--cacert`, `--pin`, `--insecure`, ...); nil when none is given (full
    /// verification against the system's trust store).
    package let policy: SecurityPolicy?
    /// Applies the transport flags (`--resolve`, `--connect-to`, `--proxy`, ...).
    let builder: RequestBuilder

    /// The settings of `options`, the policy built now (its certificate files read); throws when the TLS flags make
    /// no policy (a certificate file without a certificate, pins that can never match).
    package init(_ options: RunOptions) throws(SecurityPolicyError) {
        session = RunService.sessionConfiguration(for: options)
        policy = try options.security.applied(to: nil).map { settings throws(SecurityPolicyError) in
            try SecurityPolicy(settings)
        }
        builder = RequestBuilder(maxResponseSize: options.maxResponseSize, transportOverrides: options.transport)
    }

    /// `request` with the run's policy and transport flags (a request of a suite without `security:` and transport
    /// settings gets the same).
    package func apply(to request: inout HTTPRequest) throws {
        if let policy { request.security = policy }
        try builder.applyTransport(nil, defaults: RequestDefaults(), context: TemplateContext(), to: &request)
    }
}
