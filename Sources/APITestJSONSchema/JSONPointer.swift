package import APITestJSON
import APITestSupport
import Foundation

/// JSON Pointer (RFC 6901) helpers used for schema and instance locations (and by the OpenAPI layer for places in
/// its documents).
package enum JSONPointer {
    /// Escapes one reference token (`~` → `~0`, `/` → `~1`), scalar by scalar: a `/` or `~` followed by a combining
    /// mark is escaped too (a comparison of characters would see `/\u{301}` as one character that is not `/`).
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var result = String.UnicodeScalarView()
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": result.append(contentsOf: "~0".unicodeScalars)
            case "/": result.append(contentsOf: "~1".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Unescapes one reference token (`~1` → `/`, `~0` → `~`), scalar by scalar; any other `~` stays as it is.
    package static func unescape(_ token: some StringProtocol) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
        var result = String.UnicodeScalarView()
        var scalars = token.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            guard scalar == "~", let next = pending, next == "0" || next == "1" else {
                result.append(scalar)
                continue
            }
            result.append(next == "1" ? "/" : "~")
            pending = scalars.next()
        }
        return String(result)
    }

    /// The unescaped reference tokens of pointer text (`/a~1b/c` → `["a/b", "c"]`; empty for the whole document),
    /// split at each `/` scalar; `nil` when the text does not start with `/`.
    package static func referenceTokens(_ text: some StringProtocol) -> [String]? {
        if text.isEmpty { return [] }
        guard text.unicodeScalars.first == "/" else { return nil }
        return text.unicodeScalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            unescape(String(String.UnicodeScalarView($0)))
        }
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
        return referenceTokens(decoded)
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
