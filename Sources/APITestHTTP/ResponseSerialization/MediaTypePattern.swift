import APITestSupport
import Foundation

/// Matching of media types against the patterns of ``ResponseSerializer/acceptableContentTypes``.
public enum MediaTypePattern {
    /// Whether `mediaType` (with or without parameters) matches `pattern`, ignoring case:
    /// - `application/json` matches itself only;
    /// - `+json` matches any type with that structured-syntax suffix (`application/problem+json`);
    /// - `text/*` matches any subtype of `text`, and `*/*` or `*` anything.
    public static func matches(_ mediaType: String, pattern: String) -> Bool {
        matches(essence: essence(of: mediaType), pattern: essence(of: pattern))
    }

    /// `matches(_:pattern:)` for a media type and a pattern that are already essences (see `essence(of:)`): the
    /// form to use in a loop over patterns.
    public static func matches(essence type: String, pattern: String) -> Bool {
        guard !type.isEmpty, !pattern.isEmpty else { return false }
        if pattern == "*" || pattern == "*/*" { return true }
        if pattern.hasPrefix("+") { return type.hasSuffix(pattern) && type.count > pattern.count }
        if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
        return type == pattern
    }

    /// The media type without parameters, trimmed and lower-cased: `Text/XML; charset=utf-8` → `text/xml`.
    public static func essence(of mediaType: String) -> String {
        // Read in place (this runs for every response's `Content-Type`).
        mediaType.withUTF8Bytes { bytes in
            let slice = UnsafeBufferPointer(rebasing: bytes[essenceRange(of: bytes)])
            // The common case, already lower-case ASCII, needs no case mapping; one that is already an essence (a
            // pattern, a bare type) is returned as it is, without a copy.
            if isLowerCaseASCII(slice) {
                return slice.count == bytes.count ? mediaType : String(decoding: slice, as: UTF8.self)
            }
            return String(decoding: slice, as: UTF8.self).lowercased()
        }
    }

    /// The bytes of `essence(of:)` of the media type `bytes` (a received `Content-Type`'s, read in place) when they
    /// need no case mapping (lower-case ASCII); `nil` when they do.
    static func lowerCaseASCIIEssence(of bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let slice = UnsafeBufferPointer(rebasing: bytes[essenceRange(of: bytes)])
        return isLowerCaseASCII(slice) ? slice : nil
    }

    /// Where the essence of the media type `bytes` is: before the first `;`, without the blanks around it.
    private static func essenceRange(of bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = 0
        var upper = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while lower < upper, isBlank(bytes[lower]) { lower += 1 }
        while upper > lower, isBlank(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Whether `bytes` are ASCII without capital letters.
    private static func isLowerCaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
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
