import Foundation

/// One word of a POSIX shell command line, built from literal bytes and references to environment variables, and
/// quoted so that the shell hands the program exactly those bytes (with each variable's value in place).
///
/// Literal text goes between single quotes, where nothing expands; text with control characters, invalid UTF-8 or
/// DEL goes between `$'...'`, with those bytes as escapes. A variable is `"${NAME}"`: expanded, never split. The
/// pieces are written next to each other, which the shell joins into one word: `'Bearer '"${TOKEN}"`. Whatever the
/// bytes (a server's `$(...)`, backticks, quotes, newlines), nothing in the word runs.
struct ShellWord: Sendable, Hashable {
    /// A piece of the word.
    enum Piece: Sendable, Hashable {
        /// Bytes passed as they are. NUL cannot be passed in an argument; it is written as `\x00`, which the shell
        /// drops with what follows, so callers keep NUL out of words.
        case literal([UInt8])
        /// The value of an environment variable; `name` must be a shell variable name (``isVariableName(_:)``).
        case variable(String)
    }

    var pieces: [Piece]

    /// An empty word (`''`).
    init() {
        pieces = []
    }

    /// A word of `pieces`.
    init(_ pieces: [Piece]) {
        self.pieces = pieces
    }

    /// A word of literal text.
    init(_ text: String) {
        pieces = [.literal(Array(text.utf8))]
    }

    /// This word followed by `text`.
    func appending(_ text: String) -> ShellWord {
        ShellWord(pieces + [.literal(Array(text.utf8))])
    }

    /// `text` followed by this word.
    func prepending(_ text: String) -> ShellWord {
        ShellWord([.literal(Array(text.utf8))] + pieces)
    }

    // MARK: - Quoting

    /// The word as the shell should read it.
    var quoted: String {
        var text = ""
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { text += Self.quote(literal) }
            literal = []
        }
        for piece in pieces {
            switch piece {
            case .literal(let bytes): literal += bytes
            case .variable(let name):
                flush()
                text += "\"${\(name)}\""
            }
        }
        flush()
        return text.isEmpty ? "''" : text
    }

    /// Whether `name` can be written as `${name}`: a letter or `_`, then letters, digits and `_`.
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    /// Bytes that read the same without quotes: letters, digits and `-_./:,+@%`.
    private static func isPlain(_ byte: UInt8) -> Bool {
        if isLetter(byte) || (byte >= 0x30 && byte <= 0x39) { return true }
        return "-./:,+@%".utf8.contains(byte)
    }

    /// `bytes` quoted: bare when every byte is plain, between single quotes when every byte is printable UTF-8, else
    /// between `$'...'`.
    static func quote(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "''" }
        if bytes.allSatisfy(isPlain) { return String(decoding: bytes, as: UTF8.self) }
        if needsEscapes(bytes) { return dollarQuote(bytes) }
        return "'" + String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Whether single quotes cannot hold `bytes` as they are: control characters, DEL or invalid UTF-8.
    private static func needsEscapes(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return true }
        return String(validating: bytes, as: UTF8.self) == nil
    }

    /// `$'...'` with `\\`, `\'`, `\n`, `\r`, `\t` and `\xHH` for other control bytes and bytes that are not part of
    /// valid UTF-8; valid multi-byte characters are kept as they are.
    private static func dollarQuote(_ bytes: [UInt8]) -> String {
        var text = "$'"
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x5C: text += #"\\"#
            case 0x27: text += #"\'"#
            case 0x0A: text += #"\n"#
            case 0x0D: text += #"\r"#
            case 0x09: text += #"\t"#
            case 0..<0x20, 0x7F: text += hexEscape(byte)
            case 0x20..<0x80: text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let length = utf8Length(of: bytes, at: index)
                if length > 0 {
                    text += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                    index += length
                    continue
                }
                text += hexEscape(byte)
            }
            index += 1
        }
        return text + "'"
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 when none starts there.
    private static func utf8Length(of bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<(index + length)], as: UTF8.self) == nil ? 0 : length
    }
}
