/// A media type or range (`application/json`, `image/*`, `*/*`), parameters dropped, lower-cased.
struct MediaRange: Sendable, Hashable {
    /// The type (`application`, `*`).
    var type: String
    /// The subtype (`json`, `vnd.api+json`, `*`).
    var subtype: String

    /// Parses `text` (`Application/JSON; charset=utf-8`); a text without `/` becomes a type with an empty subtype.
    init(_ text: some StringProtocol) {
        var essence = Substring(text)
        if let semicolon = essence.utf8.firstIndex(of: UInt8(ascii: ";")) { essence = essence[..<semicolon] }
        // What servers send (`application/json`): ASCII already in lower case with no blanks, split as it is (this
        // runs for every response a contract checks).
        if let slash = essence.utf8.firstIndex(of: UInt8(ascii: "/")),
            essence.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) && $0 != 0x20 && $0 != 0x09 })
        {
            type = String(Substring(essence.utf8[..<slash]))
            subtype = String(Substring(essence.utf8[essence.utf8.index(after: slash)...]))
            return
        }
        let trimmed = essence.trimmingWhitespace().lowercased()
        if let slash = trimmed.firstIndex(of: "/") {
            type = String(trimmed[..<slash]).trimmingWhitespace()
            subtype = String(trimmed[trimmed.index(after: slash)...]).trimmingWhitespace()
        } else {
            type = trimmed
            subtype = ""
        }
    }

    /// Whether `text`, up to a `;`, is this type's `type/subtype` byte for byte (neither a wildcard): then it parses
    /// to this range, as ``init(_:)`` reads it, and no other declared range covers it more specifically.
    func isExactly(_ text: String) -> Bool {
        guard type != "*", subtype != "*", !subtype.isEmpty else { return false }
        // Compared over the three texts' bytes in place (a string's UTF-8 view compared index by index costs
        // several times more).
        var text = text
        var type = type
        var subtype = subtype
        return text.withUTF8 { bytes in
            let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            return type.withUTF8 { type in
                subtype.withUTF8 { subtype in
                    end == type.count + 1 + subtype.count && bytes[type.count] == UInt8(ascii: "/")
                        && bytesEqual(bytes, from: 0, type) && bytesEqual(bytes, from: type.count + 1, subtype)
                }
            }
        }
    }

    /// Whether `bytes` holds `part` at `offset` (which with `part` is within `bytes`).
    private func bytesEqual(
        _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, _ part: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        for position in part.indices where bytes[offset + position] != part[position] { return false }
        return true
    }

    /// `type/subtype`.
    var essence: String { "\(type)/\(subtype)" }

    /// Whether a body of this type is JSON: `application/json` or any `+json` subtype.
    var isJSON: Bool {
        (type == "application" && subtype == "json") || subtype.hasSuffix("+json")
    }

    /// How well this declared range covers `actual`: 3 for the same type, 2 for `type/*`, 1 for `*/*`, nil when it
    /// does not.
    func specificity(for actual: MediaRange) -> Int? {
        if type == "*" && (subtype == "*" || subtype.isEmpty) { return 1 }
        guard type == actual.type else { return nil }
        if subtype == "*" { return 2 }
        return subtype == actual.subtype ? 3 : nil
    }
}

extension StringProtocol {
    /// Whether the text is empty or only spaces and tabs.
    var isBlank: Bool {
        utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
