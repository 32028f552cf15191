import Foundation

// MARK: - DecodedBytes

/// Text with one layer of escaping undone, each byte knowing which bytes of the original text it came from.
///
/// Undone: percent-encoding (`%C3%A4`), JSON and JavaScript string escapes (`\"`, `\\`, `\/`, `\n`, `\u00e4`,
/// surrogate pairs, `\'`) and XML/HTML character references (`&amp;`, `&quot;`, `&#39;`, `&#xE4;`). Anything
/// else, and any malformed escape, stays as written.
struct DecodedBytes {
    /// The decoded bytes.
    private(set) var bytes: [UInt8]
    /// For each decoded byte, the first original byte it came from; `nil` when the text is the original.
    private var starts: [Int]?
    /// For each decoded byte, the original byte after the last one it came from.
    private var ends: [Int]?

    /// The original text, undecoded.
    init(identity bytes: [UInt8]) {
        self.bytes = bytes
    }

    private init(bytes: [UInt8], starts: [Int], ends: [Int]) {
        self.bytes = bytes
        self.starts = starts
        self.ends = ends
    }

    /// The original byte range a decoded range came from.
    func origin(of range: Range<Int>) -> Range<Int> {
        guard let starts, let ends, !range.isEmpty else { return range }
        return starts[range.lowerBound]..<ends[range.upperBound - 1]
    }

    private func start(_ index: Int) -> Int { starts?[index] ?? index }
    private func end(_ index: Int) -> Int { ends?[index] ?? index + 1 }

    // MARK: - Decoding

    /// The text with one more layer undone, or `nil` when there is nothing to undo.
    func decodedOnce() -> DecodedBytes? {
        // Nothing is allocated until the first escape: a URL's `&` between parameters is not one.
        guard let first = bytes.indices.first(where: { escape(at: $0) != nil }) else { return nil }
        var output = Array(bytes[..<first])
        var outStarts = (0..<first).map(start)
        var outEnds = (0..<first).map(end)
        output.reserveCapacity(bytes.count)
        outStarts.reserveCapacity(bytes.count)
        outEnds.reserveCapacity(bytes.count)
        var index = first
        while index < bytes.count {
            if let (decoded, length) = escape(at: index) {
                let from = start(index)
                let to = end(index + length - 1)
                for byte in decoded {
                    output.append(byte)
                    outStarts.append(from)
                    outEnds.append(to)
                }
                index += length
            } else {
                output.append(bytes[index])
                outStarts.append(start(index))
                outEnds.append(end(index))
                index += 1
            }
        }
        return DecodedBytes(bytes: output, starts: outStarts, ends: outEnds)
    }

    /// The bytes an escape at `index` stands for and its length, or `nil` when none starts there.
    private func escape(at index: Int) -> ([UInt8], Int)? {
        switch bytes[index] {
        case 0x25: return percentEscape(at: index)
        case 0x5C: return backslashEscape(at: index)
        case 0x26: return characterReference(at: index)
        default: return nil
        }
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The value of `count` hex digits at `index`.
    private func hex(at index: Int, count: Int) -> UInt32? {
        guard index + count <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let digit = hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// `%XX`.
    private func percentEscape(at index: Int) -> ([UInt8], Int)? {
        hex(at: index + 1, count: 2).map { ([UInt8($0)], 3) }
    }

    /// `\"`, `\\`, `\/`, `\'`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` (with a following low surrogate).
    private func backslashEscape(at index: Int) -> ([UInt8], Int)? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"):
            return ([bytes[index + 1]], 2)
        case UInt8(ascii: "b"): return ([0x08], 2)
        case UInt8(ascii: "f"): return ([0x0C], 2)
        case UInt8(ascii: "n"): return ([0x0A], 2)
        case UInt8(ascii: "r"): return ([0x0D], 2)
        case UInt8(ascii: "t"): return ([0x09], 2)
        case UInt8(ascii: "u"):
            guard let unit = hex(at: index + 2, count: 4) else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
                guard index + 7 < bytes.count, bytes[index + 6] == 0x5C,
                    bytes[index + 7] == UInt8(ascii: "u"), let low = hex(at: index + 8, count: 4),
                    (0xDC00..<0xE000).contains(low)
                else { return nil }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value).map { (Array(String($0).utf8), 12) }
            }
            return Unicode.Scalar(unit).map { (Array(String($0).utf8), 6) }
        default:
            return nil
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NNN;`, `&#xHHH;`.
    private func characterReference(at index: Int) -> ([UInt8], Int)? {
        var end = index + 1
        while end < bytes.count, end - index <= 10, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        let length = end - index + 1
        switch name {
        case "amp": return ([UInt8(ascii: "&")], length)
        case "lt": return ([UInt8(ascii: "<")], length)
        case "gt": return ([UInt8(ascii: ">")], length)
        case "quot": return ([UInt8(ascii: "\"")], length)
        case "apos": return ([UInt8(ascii: "'")], length)
        default: break
        }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.hasPrefix("x") || digits.hasPrefix("X") {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        return value.flatMap(Unicode.Scalar.init).map { (Array(String($0).utf8), length) }
    }
}
