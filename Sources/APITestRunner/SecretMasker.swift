import APITestHTTP
import APITestJSON
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

    /// Masks each secret as written and in the encoded forms it takes on its way into requests and reports:
    /// percent-encoded (query and form values, URLs), JSON-escaped (bodies, and bodies echoed inside JSON) and
    /// XML-escaped (property-list and XML bodies).
    public init(secrets: [String]) {
        var forms = Set<String>()
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            forms.insert(PercentEncoding.encode(secret))
            forms.insert(URLResolver.percentEncodeInvalidCharacters(secret))
            let escaped = Self.jsonEscaped(secret)
            forms.insert(escaped)
            forms.insert(Self.jsonEscaped(escaped))
            forms.insert(Self.xmlEscaped(secret))
        }
        self.secrets = forms.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        self.longestSecretLength = self.secrets.first?.utf8.count ?? 0
    }

    /// The length in bytes of the longest text masked.
    public let longestSecretLength: Int

    /// The text as XML and HTML escape it (property-list and XML bodies).
    static func xmlEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The text as it stands between the quotes of a JSON string.
    static func jsonEscaped(_ text: String) -> String {
        String(JSONWriter.quoted(text).dropFirst().dropLast())
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
