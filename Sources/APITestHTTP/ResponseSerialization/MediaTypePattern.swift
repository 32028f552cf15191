import Foundation

/// Matching of media types against the patterns of ``ResponseSerializer/acceptableContentTypes``.
public enum MediaTypePattern {
    /// Whether `mediaType` (with or without parameters) matches `pattern`, ignoring case:
    /// - `application/json` matches itself only;
    /// - `+json` matches any type with that structured-syntax suffix (`application/problem+json`);
    /// - `text/*` matches any subtype of `text`, and `*/*` or `*` anything.
    public static func matches(_ mediaType: String, pattern: String) -> Bool {
        let type = essence(of: mediaType)
        let pattern = essence(of: pattern)
        guard !type.isEmpty, !pattern.isEmpty else { return false }
        if pattern == "*" || pattern == "*/*" { return true }
        if pattern.hasPrefix("+") { return type.hasSuffix(pattern) && type.count > pattern.count }
        if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
        return type == pattern
    }

    /// The media type without parameters, trimmed and lower-cased: `Text/XML; charset=utf-8` → `text/xml`.
    public static func essence(of mediaType: String) -> String {
        let type = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The value of the `charset` parameter of a `Content-Type` value, unquoted and lower-cased, if present.
    public static func charset(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value.lowercased()
        }
        return nil
    }
}
