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
        let settings = policy.settings
        if settings.allowInvalidCertificates {
            words.append("--insecure")
            if settings.validatesDomainName {
                note("curl's --insecure also skips the host-name check, which apitest keeps (validatesDomainName)")
            }
        } else if !settings.validatesDomainName {
            note("curl has no option to skip only the host-name check (validatesDomainName: false)")
        }
        switch settings.pinning {
        case .certificate:
            if settings.certificates.count == 1, let file = settings.certificates.first {
                option("--cacert", ShellWord(file))
                note("apitest trusts the pinned certificate alone; --cacert makes it curl's only trust anchor")
            } else {
                note("apitest trusts only the pinned certificates, which curl cannot take as several files")
            }
        case .none, .publicKey:
            if let caFile = settings.caFile { option("--cacert", ShellWord(caFile)) }
        }
        if let certificate = settings.clientCertificate { option("--cert", ShellWord(certificate)) }
        if let key = settings.clientKey { option("--key", ShellWord(key)) }
        let pins = policy.effectivePins
        if settings.pinning == .publicKey, !pins.isEmpty, appliesPins(settings.hosts, to: request.url) {
            option("--pinnedpubkey", ShellWord(pins.map(\.description).joined(separator: ";")))
            note("curl checks the pins against the server's own certificate only; apitest accepts any of its chain")
        }
    }

    /// Whether pins declared for `hosts` apply to `url`'s host (every host when it names none).
    private func appliesPins(_ hosts: [String], to url: String) -> Bool {
        guard !hosts.isEmpty else { return true }
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return true }
        return hosts.contains { $0.lowercased() == host }
    }
}
