package import APITestJSON
import APITestSupport
import Foundation

/// JSON Pointer (RFC 6901) helpers used for schema and instance locations (and by the OpenAPI layer for places in
/// its documents).
package enum JSONPointer {
    /// Escapes one reference token (`~` → `~0`, `/` → `~1`).
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The pointer text for `tokens` (empty for the whole document).
    package static func text(_ tokens: [String]) -> String {
        var result = ""
        for token in tokens {
            result += "/"
            result += escape(token)
        }
        return result
    }

    /// The pointer text for `tokens` as a message shows it: escaped for JSON Pointer, then for the display
    /// (``Swift/String/shownAsPointer``: a control or invisible character in a member name is an escape).
    package static func shown(_ tokens: [String]) -> String {
        text(tokens).shownAsPointer
    }

    /// Parses a pointer taken from a URI fragment: percent-decodes it, then splits and unescapes the tokens.
    /// Returns `nil` when the text is not a pointer (does not start with `/`) or is badly encoded.
    static func tokens(fromFragment fragment: String) -> [String]? {
        guard let decoded = fragment.removingPercentEncoding else { return nil }
        if decoded.isEmpty { return [] }
        guard decoded.hasPrefix("/") else { return nil }
        return decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value at `tokens` inside `root`, or `nil` when the path does not exist.
    package static func value(in root: JSONValue, at tokens: some Collection<String>) -> JSONValue? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(token), index >= 0, index < array.count, String(index) == token else {
                    return nil
                }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}
