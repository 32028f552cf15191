import Foundation

/// One `Set-Cookie` header field parsed as RFC 6265 section 5.2 describes: a name, a value and attributes.
public struct SetCookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// The attributes in order, names as written (`Max-Age`), flags (`Secure`, `HttpOnly`) with an empty value.
    public var attributes: [(name: String, value: String)] { pairs.map { ($0.name, $0.value) } }

    private var pairs: [Pair]

    private struct Pair: Sendable, Hashable {
        var name: String
        var value: String
    }

    /// Parses one header value; `nil` when it has no `name=value` pair or an empty name.
    public init?(_ header: String) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let first = parts.next(), let equals = first.firstIndex(of: "=") else { return nil }
        let name = first[..<equals].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        self.name = name
        var value = first[first.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        self.value = value
        pairs = []
        while let part = parts.next() {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            if let equals = trimmed.firstIndex(of: "=") {
                pairs.append(
                    Pair(
                        name: trimmed[..<equals].trimmingCharacters(in: .whitespaces),
                        value: trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
            } else {
                pairs.append(Pair(name: trimmed, value: ""))
            }
        }
    }

    /// The value of the last attribute called `name` (case-insensitive), `""` for a flag, `nil` when absent.
    public func attribute(_ name: String) -> String? {
        pairs.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension HTTPHeaders {
    /// The cookies set by these headers, in order; malformed `Set-Cookie` fields are skipped.
    public var setCookies: [SetCookie] {
        values(for: "Set-Cookie").compactMap(SetCookie.init)
    }
}
