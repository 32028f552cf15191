import Foundation

/// Replaces secret values with `•••••` in text bound for reports.
///
/// Secrets are the values of environment variables a suite uses (and variables derived from them); the values of
/// `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization` headers are masked whole.
public struct SecretMasker: Sendable {
    public static let mask = "•••••"
    /// Header fields whose values are always masked.
    public static let sensitiveHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Secret texts, longest first.
    public let secrets: [String]

    public init(secrets: [String]) {
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted {
            $0.count != $1.count ? $0.count > $1.count : $0 < $1
        }
    }

    /// `text` with every occurrence of every secret replaced.
    public func mask(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        return result
    }

    public func mask(_ text: String?) -> String? {
        text.map { mask($0) }
    }

    /// A header value as reports may show it.
    public func maskHeader(name: String, value: String) -> String {
        Self.sensitiveHeaders.contains(name.lowercased()) ? Self.mask : mask(value)
    }
}
