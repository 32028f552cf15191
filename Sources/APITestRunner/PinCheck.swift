package import APITestHTTP
package import APITestSecurity

/// A `pin-check` ready to run: what was asked and the security policy its flags describe, built once (the
/// certificate files read, the model's rules checked) before anything connects.
package struct PinCheck: Sendable {
    /// What was asked.
    package let request: PinCheckRequest
    /// The policy the handshake is checked against.
    let policy: SecurityPolicy

    /// Builds the policy of `request`'s TLS flags; without a mode, pins mean `publicKey` and certificates alone
    /// `certificate` (as for `apitest run`). Throws for a policy that can never trust a server, or a certificate
    /// file that holds none.
    package init(_ request: PinCheckRequest) throws(SecurityPolicyError) {
        self.request = request
        policy = try SecurityPolicy(request.security.applied(to: nil) ?? SecuritySettings())
    }
}
