// Query strings, application/x-www-form-urlencoded bodies and percent-decoding.

// MARK: - FormEncoding

/// Parsing of `k=v&k2=v2` text (query strings and urlencoded forms).
enum FormEncoding {
    /// The ordered `(name, value)` pairs of a query string or urlencoded body; `+` means space, `%XX` a byte.
    /// A pair without `=` has the empty string as value; empty pieces (`a=1&&b=2`) are skipped.
    static func pairs<Text: StringProtocol>(_ raw: Text) -> [(String, String)] {
        raw.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            if let equals = piece.firstIndex(of: "=") {
                return (
                    percentDecode(piece[piece.startIndex..<equals], plusAsSpace: true),
                    percentDecode(piece[piece.index(after: equals)...], plusAsSpace: true)
                )
            }
            return (percentDecode(piece, plusAsSpace: true), "")
        }
    }

    /// `{"name": ["value", ...]}` in order of first appearance.
    static func grouped(_ pairs: [(String, String)]) -> JSON {
        var order: [String] = []
        var values: [String: [JSON]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(.string(value))
        }
        return .object(order.map { ($0, JSON.array(values[$0] ?? [])) })
    }

    /// Percent-decodes `text` (malformed escapes stay as they are; invalid UTF-8 becomes U+FFFD).
    static func percentDecode<Text: StringProtocol>(_ text: Text, plusAsSpace: Bool = false) -> String {
        String(decoding: percentDecodeBytes(Array(text.utf8), plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    /// Percent-decodes bytes (malformed escapes stay as they are).
    static func percentDecodeBytes(_ bytes: [UInt8], plusAsSpace: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                out.append(UInt8(ascii: " "))
                index += 1
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
