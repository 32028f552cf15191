import Foundation

/// A step's URL as its span's attributes: `url.full` with the credentials of its user information replaced by
/// `REDACTED` and the values of the query parameters that carry signatures too (the semantic conventions' rule,
/// on a URL the sealing point has already masked), `server.address` and `server.port`.
enum TelemetryURL {
    /// The query parameters whose values the conventions redact (pre-signed URLs of AWS, Google Cloud, Azure).
    static let signatureParameters: Set<String> = ["AWSAccessKeyId", "Signature", "sig", "X-Goog-Signature"]

    /// The attributes of `url`; only `url.full` (as it is) when it does not parse.
    static func attributes(of url: String) -> [TelemetrySpan.Attribute] {
        guard var components = URLComponents(string: url), let host = components.host else {
            return [.init("url.full", .string(url))]
        }
        // Written again only when something is redacted: URLComponents percent-encodes what the mask put there.
        var redacted = false
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            if components.percentEncodedUser != nil { components.percentEncodedUser = "REDACTED" }
            if components.percentEncodedPassword != nil { components.percentEncodedPassword = "REDACTED" }
            redacted = true
        }
        if let items = components.percentEncodedQueryItems,
            items.contains(where: { signatureParameters.contains($0.name) })
        {
            components.percentEncodedQueryItems = items.map { item in
                signatureParameters.contains(item.name) && item.value != nil
                    ? URLQueryItem(name: item.name, value: "REDACTED") : item
            }
            redacted = true
        }
        var attributes: [TelemetrySpan.Attribute] = [
            .init("url.full", .string(redacted ? components.string ?? url : url)),
            .init("server.address", .string(host)),
        ]
        let scheme = components.scheme?.lowercased()
        if let port = components.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) {
            attributes.append(.init("server.port", .int(Int64(port))))
        }
        return attributes
    }
}
