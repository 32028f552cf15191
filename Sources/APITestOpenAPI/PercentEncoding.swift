/// Percent-encoding (RFC 3986) of paths and decoding of URL parts, without Foundation.
enum PercentEncoding {
    /// `text` with every `%XX` decoded as UTF-8; nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: some StringProtocol) -> String? {
        guard contains(UInt8(ascii: "%"), in: text) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `text` has the byte `byte`: over its bytes in place when it is contiguous (a native string), which
    /// a (sub)string's UTF-8 view walked one index at a time is several times slower than.
    static func contains(_ byte: UInt8, in text: some StringProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? text.utf8.contains(byte)
    }

    /// `text` decoded, or `text` itself when it does not decode.
    static func decodeLeniently(_ text: some StringProtocol) -> String {
        decode(text) ?? String(text)
    }

    /// A path with every byte outside RFC 3986's unreserved characters, `/` and a few safe sub-delimiters encoded.
    static func encodePath(_ path: String) -> String {
        var result = ""
        result.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if isPathSafe(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0xF)
            }
        }
        return result
    }

    private static func isPathSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> String {
        String(UnicodeScalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10))
    }
}
