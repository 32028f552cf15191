/// JSON's escaped UTF-16 surrogate pairs (`"\ud83d\udc4d"`, RFC 8259 §7), which libyaml refuses ("found invalid
/// Unicode character escape code": YAML's `\u` is one code point), rewritten to YAML's 32-bit escape
/// (`\U0001F44D`) before a JSON document is composed, and the columns after each rewrite mapped back to the text as
/// written (each rewrite is 2 characters shorter).
///
/// Only for a JSON document, where every backslash is inside a string and starts an escape; a YAML plain scalar
/// may hold `\ud83d` as text. A lone surrogate stays as written, and libyaml refuses it.
struct JSONSurrogateEscapes: Sendable {
    /// The text with every escaped surrogate pair rewritten.
    let text: String
    /// For each line (1-based) with a rewrite, the 1-based column in ``text`` of the character after each rewrite,
    /// in order.
    private let rewrites: [Int: [Int]]

    /// The rewrite of `text`; nil when it has no escaped surrogate pair.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var rewrites: [Int: [Int]] = [:]
        var line = 1
        var column = 1
        var index = 0
        var copied = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "\\") else {
                if byte & 0xC0 != 0x80 { column += 1 }
                index += 1
                continue
            }
            if let high = Self.escapedUnit(bytes, at: index), (0xD800...0xDBFF).contains(high),
                let low = Self.escapedUnit(bytes, at: index + 6), (0xDC00...0xDFFF).contains(low)
            {
                let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                output += bytes[copied..<index]
                output += Array("\\U".utf8) + Array(Self.hex(scalar, digits: 8).utf8)
                column += 10
                rewrites[line, default: []].append(column)
                index += 12
                copied = index
                continue
            }
            // Another escape: the backslash and the character it escapes (`\\` must not start a new escape).
            column += 2
            index += 2
        }
        guard !rewrites.isEmpty else { return nil }
        output += bytes[copied...]
        self.text = String(decoding: output, as: UTF8.self)
        self.rewrites = rewrites
    }

    /// The column in the text as written of `column` on `line` of ``text``.
    func originalColumn(line: Int, column: Int) -> Int {
        guard let starts = rewrites[line] else { return column }
        return column + 2 * starts.count { $0 <= column }
    }

    /// The code unit of the `\uXXXX` escape at `index`; nil when there is none there.
    private static func escapedUnit(_ bytes: [UInt8], at index: Int) -> Int? {
        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { return nil }
        var value = 0
        for byte in bytes[(index + 2)..<(index + 6)] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
