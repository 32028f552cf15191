// MARK: - Strings

extension JSONByteParser {
    /// Parses a string whose opening quote is at `position`; leaves `position` after the closing quote.
    ///
    /// The fast path (no escapes) validates UTF-8 while scanning and makes the string from the bytes in place.
    mutating func parseString() throws(JSONParseError) -> String {
        try scanString(decoding: true) ?? ""
    }

    /// Checks the string at `position` as ``parseString()`` does (same errors) and moves past it; its text only
    /// when `decoding` (the tape keeps offsets and decodes strings when asked, so it does not build them here;
    /// a string with escapes is still decoded to check them).
    mutating func scanString(decoding: Bool) throws(JSONParseError) -> String? {
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                guard decoding else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(start: start, firstEscape: index)
            } else if byte < 0x20 {
                throw controlCharacterError(at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index = try validateUTF8Sequence(at: index)
            }
        }
        throw error("unterminated string", at: position)
    }

    /// The slow path: copies the bytes, decoding escapes, from `firstEscape` on.
    private mutating func parseEscapedString(start: Int, firstEscape: Int) throws(JSONParseError) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(firstEscape - start + 16)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<firstEscape]))
        var index = firstEscape
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                index = try decodeEscape(at: index, into: &buffer)
            } else if byte < 0x20 {
                throw controlCharacterError(at: index)
            } else if byte < 0x80 {
                buffer.append(byte)
                index += 1
            } else {
                let end = try validateUTF8Sequence(at: index)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
        throw error("unterminated string", at: start - 1)
    }

    /// Decodes the escape sequence at `index` (a backslash) into `buffer`; returns the index after it.
    private func decodeEscape(at index: Int, into buffer: inout [UInt8]) throws(JSONParseError) -> Int {
        guard index + 1 < bytes.count else { throw error("unterminated string", at: index) }
        let decoded: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: index, into: &buffer)
        default:
            throw error(
                "invalid escape sequence '\\\(describeEscapeCharacter(at: index + 1))' in string",
                at: index)
        }
        buffer.append(decoded)
        return index + 2
    }

    /// Decodes `\uXXXX` (joining a following `\uXXXX` low surrogate) at `index`.
    private func decodeUnicodeEscape(at index: Int, into buffer: inout [UInt8]) throws(JSONParseError) -> Int {
        let first = try hexQuad(at: index + 2)
        var end = index + 6
        let scalarValue: UInt32
        switch first {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u") else {
                throw error(
                    "lone high surrogate \\u\(hexString(first)) in string (expected a low surrogate after it)",
                    at: index)
            }
            let second = try hexQuad(at: end + 2)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error(
                    "high surrogate \\u\(hexString(first)) followed by \\u\(hexString(second)), "
                        + "which is not a low surrogate", at: end)
            }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw error("lone low surrogate \\u\(hexString(first)) in string", at: index)
        default:
            scalarValue = first
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw error("invalid Unicode escape in string", at: index)
        }
        UTF8.encode(scalar) { buffer.append($0) }
        return end
    }

    /// The value of four hex digits at `index`.
    private func hexQuad(at index: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            let at = index + offset
            guard at < bytes.count else { throw error("incomplete \\u escape in string", at: at) }
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error("expected a hex digit in \\u escape, found \(describe(at: at))", at: at)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func hexString(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func describeEscapeCharacter(at index: Int) -> String {
        guard index < bytes.count else { return "" }
        let byte = bytes[index]
        return (0x21...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "U+" + hexString(UInt32(byte))
    }

    private func controlCharacterError(at index: Int) -> JSONParseError {
        error("unescaped control character U+\(hexString(UInt32(bytes[index]))) in string", at: index)
    }

    // MARK: - UTF-8

    /// Checks the multi-byte UTF-8 sequence starting at `index`; returns the index after it.
    func validateUTF8Sequence(at index: Int) throws(JSONParseError) -> Int {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw error("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))", at: index)
        }
        guard index + length <= bytes.count else { throw error("truncated UTF-8 sequence", at: index) }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { throw error("invalid UTF-8 sequence", at: index) }
        var offset = 2
        while offset < length {
            guard bytes[index + offset] & 0xC0 == 0x80 else { throw error("invalid UTF-8 sequence", at: index) }
            offset += 1
        }
        return index + length
    }
}
