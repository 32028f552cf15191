import APITestSecurity
import CCurlShim
import CTLSShim
import Foundation

extension CurlMultiLoop {
    /// Applies `policy` to a transfer: libcurl's trust settings plus the handshake check (an SSL_CTX callback that
    /// installs an OpenSSL verify callback), which sees every certificate of the verified chain and aborts the
    /// handshake on a pin failure.
    func configureSecurity(_ easy: UnsafeMutableRawPointer, policy: SecurityPolicy, for delegate: TaskDelegate) {
        let compiled: CompiledSecurityPolicy
        if let known = compiledPolicies[policy] {
            compiled = known
        } else {
            do {
                compiled = try CompiledSecurityPolicy(policy: policy, id: compiledPolicies.count + 1)
            } catch {
                // Never sent unchecked: the transfer fails naming what OpenSSL refused.
                delegate.check("the security policy (\(error.message))", CURLE_SSL_CERTPROBLEM)
                return
            }
            compiledPolicies[policy] = compiled
        }
        let settings = policy.settings
        let hosts = settings.hosts.isEmpty ? [Self.host(of: delegate.request.url)].compactMap { $0 } : settings.hosts
        let state = TLSTransferState(compiled: compiled, hosts: hosts)
        delegate.tlsState = state

        // libcurl's own checks: the chain (unless invalid certificates are allowed; the verify callback then
        // still enforces pins and host names) and the host name.
        delegate.check(
            "CURLOPT_SSL_VERIFYPEER",
            apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, settings.allowInvalidCertificates ? 0 : 1))
        delegate.check(
            "CURLOPT_SSL_VERIFYHOST",
            apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, settings.validatesDomainName ? 2 : 0))
        if let caFile = settings.caFile {
            delegate.check("CURLOPT_CAINFO", apitest_easy_setopt_string(easy, CURLOPT_CAINFO, caFile))
        }
        if let certificate = settings.clientCertificate {
            delegate.check("CURLOPT_SSLCERT", apitest_easy_setopt_string(easy, CURLOPT_SSLCERT, certificate))
            delegate.check(
                "CURLOPT_SSLKEY", apitest_easy_setopt_string(easy, CURLOPT_SSLKEY, settings.clientKey ?? certificate))
        }
        // A resumed TLS session skips certificate verification: every new connection must be checked.
        delegate.check("CURLOPT_SSL_SESSIONID_CACHE", apitest_easy_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0))
        // libcurl reuses a connection for any transfer whose TLS settings match; the SSL_CTX callback is not one
        // of them. A cipher list that names this policy (the `!` rule for a cipher that does not exist removes
        // nothing) keeps connections checked under one policy from carrying transfers of another.
        // The policy, not the host: a connection a redirect opened under it to a host its pins do not cover is
        // still offered to its later requests to that host, which the last guard (`CURLOPT_PREREQFUNCTION`) refuses.
        delegate.check(
            "CURLOPT_SSL_CIPHER_LIST",
            apitest_easy_setopt_string(easy, CURLOPT_SSL_CIPHER_LIST, "DEFAULT:!APITEST-POLICY-\(compiled.id)"))
        delegate.check("CURLOPT_SSL_CTX_FUNCTION", apitest_tls_transfer_install(easy, state.pointer))
    }

    /// The host of an absolute URL, lower-cased, without IPv6 brackets.
    static func host(of url: String) -> String? {
        guard let components = URLComponents(string: url), var host = components.host else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.lowercased()
    }
}
