import Foundation

/// Charset decoding that reports the offset of the first invalid byte.
enum TextDecoding {
    struct Failure: Error {
        var reason: String
        var offset: Int?
    }

    enum Charset {
        case utf8, utf16, utf16LE, utf16BE, latin1, ascii, windows1252
    }

    static func charset(named name: String) -> Charset? {
        switch name.lowercased() {
        case "utf-8", "utf8": return .utf8
        case "utf-16", "utf16": return .utf16
        case "utf-16le", "utf16le": return .utf16LE
        case "utf-16be", "utf16be": return .utf16BE
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819", "ibm819":
            return .latin1
        case "us-ascii", "ascii", "iso646-us", "ansi_x3.4-1968": return .ascii
        case "windows-1252", "cp1252", "x-cp1252": return .windows1252
        default: return nil
        }
    }

    /// The text of `data` in `charsetName` (UTF-8, or UTF-16 after a UTF-16 byte order mark, when `nil`).
    static func decode(_ data: Data, charset charsetName: String?) throws(Failure) -> String {
        let bytes = [UInt8](data)
        let charset: Charset
        if let charsetName {
            guard let known = Self.charset(named: charsetName) else {
                throw Failure(
                    reason: "unsupported charset '\(charsetName)' (supported: utf-8, utf-16, utf-16le, utf-16be, "
                        + "iso-8859-1, us-ascii, windows-1252)")
            }
            charset = known
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            charset = .utf16
        } else {
            charset = .utf8
        }
        switch charset {
        case .utf8:
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            if let offset = firstInvalidUTF8(bytes, from: start) {
                throw Failure(reason: "invalid UTF-8 byte 0x\(hex(bytes[offset]))", offset: offset)
            }
            return String(decoding: bytes[start...], as: UTF8.self)
        case .utf16:
            if bytes.starts(with: [0xFF, 0xFE]) { return try utf16(bytes, from: 2, bigEndian: false) }
            if bytes.starts(with: [0xFE, 0xFF]) { return try utf16(bytes, from: 2, bigEndian: true) }
            return try utf16(bytes, from: 0, bigEndian: true)
        case .utf16LE: return try utf16(bytes, from: 0, bigEndian: false)
        case .utf16BE: return try utf16(bytes, from: 0, bigEndian: true)
        case .latin1:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .ascii:
            if let offset = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw Failure(reason: "byte 0x\(hex(bytes[offset])) is not US-ASCII", offset: offset)
            }
            return String(decoding: bytes, as: UTF8.self)
        case .windows1252:
            var scalars = String.UnicodeScalarView()
            for (offset, byte) in bytes.enumerated() {
                if byte >= 0x80, byte <= 0x9F {
                    let value = windows1252High[Int(byte - 0x80)]
                    guard value != 0, let scalar = Unicode.Scalar(value) else {
                        throw Failure(reason: "byte 0x\(hex(byte)) is undefined in windows-1252", offset: offset)
                    }
                    scalars.append(scalar)
                } else {
                    scalars.append(Unicode.Scalar(byte))
                }
            }
            return String(scalars)
        }
    }

    // MARK: - UTF-8

    /// The offset of the first byte that does not begin or continue a valid UTF-8 sequence, or `nil`.
    static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < count else { return index }
                let byte = bytes[index + offset]
                let (min, max) = offset == 1 ? (low, high) : (0x80, 0xBF)
                guard byte >= min, byte <= max else { return index + offset }
            }
            index += length
        }
        return nil
    }

    // MARK: - UTF-16

    private static func utf16(_ bytes: [UInt8], from start: Int, bigEndian: Bool) throws(Failure) -> String {
        guard (bytes.count - start) % 2 == 0 else {
            throw Failure(reason: "UTF-16 text has an odd number of bytes", offset: bytes.count - 1)
        }
        var scalars = String.UnicodeScalarView()
        var index = start
        func unit(at offset: Int) -> UInt16 {
            bigEndian
                ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
                : UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset])
        }
        while index < bytes.count {
            let first = unit(at: index)
            if first >= 0xD800, first <= 0xDBFF {
                guard index + 2 < bytes.count else {
                    throw Failure(reason: "UTF-16 high surrogate at the end of the text", offset: index)
                }
                let second = unit(at: index + 2)
                guard second >= 0xDC00, second <= 0xDFFF else {
                    throw Failure(reason: "UTF-16 high surrogate without a low surrogate", offset: index)
                }
                let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                scalars.append(Unicode.Scalar(value)!)
                index += 4
            } else if first >= 0xDC00, first <= 0xDFFF {
                throw Failure(reason: "UTF-16 low surrogate without a high surrogate", offset: index)
            } else {
                scalars.append(Unicode.Scalar(first)!)
                index += 2
            }
        }
        return String(scalars)
    }

    // MARK: - windows-1252

    /// Code points of bytes 0x80–0x9F in windows-1252; 0 where the byte is undefined.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
        0x0178,
    ]

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
