import APITestHTTP
import APITestSecurity
import APITestSupport
import Foundation

// MARK: - TLS settings

extension CurlCommandWriter {
    /// Writes the suite's `security:` settings (with the run's TLS flags) as curl's TLS options, for an `https` URL:
    /// `-k`, `--cacert`, `--cert`, `--key`, `--pinnedpubkey`; notes where curl cannot check what apitest checks.
    mutating func writeSecurity(_ request: HTTPRequest) {
        guard let policy = request.security, request.url.lowercased().hasPrefix("https:") else { return }
        if policy.allowInvalidCertificates {
            words.append("--insecure")
            if policy.validatesDomainName {
                note("curl's --insecure also skips the host-name check, which apitest keeps (validatesDomainName)")
            }
        } else if !policy.validatesDomainName {
            note("curl has no option to skip only the host-name check (validatesDomainName: false)")
        }
        switch policy.pinningMode {
        case .certificate:
            if policy.settings.certificates.count == 1, let file = policy.settings.certificates.first {
                option("--cacert", ShellWord(file))
                note("apitest trusts the pinned certificate alone; --cacert makes it curl's only trust anchor")
            } else {
                note("apitest trusts only the pinned certificates, which curl cannot take as several files")
            }
        case .none, .publicKey:
            if let caFile = policy.caFile { option("--cacert", ShellWord(caFile)) }
        }
        if let certificate = policy.clientCertificate { option("--cert", ShellWord(certificate)) }
        if let key = policy.clientKey { option("--key", ShellWord(key)) }
        let pins = policy.effectivePins
        if policy.pinningMode == .publicKey, !pins.isEmpty, appliesPins(policy, to: request.url) {
            option("--pinnedpubkey", ShellWord(pins.map(\.description).joined(separator: ";")))
            note("curl checks the pins against the server's own certificate only; apitest accepts any of its chain")
        }
    }

    /// Whether `policy`'s pins apply to `url`'s host (every host when it names none).
    private func appliesPins(_ policy: SecurityPolicy, to url: String) -> Bool {
        guard !policy.hosts.isEmpty else { return true }
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return true }
        return policy.hosts.contains { $0.lowercased() == host }
    }
}
