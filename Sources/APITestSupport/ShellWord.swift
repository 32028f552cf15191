/// One word of a POSIX shell command line, built from literal bytes and references to environment variables: the one
/// model of a shell word, which the reproduce commands quote (``quoted(_:)``) and `apitest import curl` reads
/// (its splitter builds words after quote removal, a `$NAME` as ``Piece/variable(_:)``). Quoted so that any POSIX
/// shell (dash, bash, ksh, zsh in sh mode) hands the program exactly those bytes, with each variable's value in place.
///
/// Only quoting that POSIX defines is used, never bash's `$'...'`, which dash (Debian's `/bin/sh`) reads as a `$`
/// and a single-quoted string:
/// - printable text goes between single quotes, where nothing expands; a quote is `'\''`;
/// - a byte that would not show as itself (a control character, DEL, a C1 control, a bidirectional control or
///   other invisible format character, a line or paragraph separator, a noncharacter, a byte that is not part of
///   valid UTF-8) is written by `printf`: `"$(printf '\t\342\200\256')"`, so that the command reads as the shell
///   reads it;
/// - a line feed goes between the single quotes as it is in a script (``Form/script``); on one line
///   (``Form/line(newline:)``) it is a reference to a variable holding a line feed, which the command line sets
///   first (command substitution would drop a line feed at the end of a word);
/// - a variable is `"${NAME}"`: expanded, never split.
///
/// The pieces are written next to each other, which the shell joins into one word: `'Bearer '"${TOKEN}"`. Whatever
/// the bytes (a server's `$(...)`, backticks, quotes, line breaks), nothing in the word runs.
package struct ShellWord: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A piece of the word.
    package enum Piece: Sendable, Hashable {
        /// Bytes passed as they are. No argument can hold NUL: a NUL byte is left out (``holdsNUL`` says when).
        case literal([UInt8])
        /// The value of an environment variable; `name` must be a shell variable name (``isVariableName(_:)``).
        case variable(String)
    }

    /// How a word is laid out.
    package enum Form: Sendable, Hashable {
        /// For a script file: a line feed is written as it is, between single quotes.
        case script
        /// On one line: a line feed is the variable `newline` (`"${newline}"`), which the line must set first.
        case line(newline: String)
    }

    /// The pieces in order: adjacent literals are joined and empty ones left out, so equal words have equal pieces.
    package private(set) var pieces: [Piece] = []

    /// An empty word (`''`).
    package init() {}

    /// A word of `pieces`.
    package init(_ pieces: [Piece]) {
        for piece in pieces { append(piece) }
    }

    /// A word of literal text.
    package init(_ text: String) {
        append(.text(text))
    }

    /// A word of literal text: an option name (`"--head"`).
    package init(stringLiteral text: String) {
        self.init(text)
    }

    /// Appends `piece`, joining it to a literal before it.
    package mutating func append(_ piece: Piece) {
        guard case .literal(let bytes) = piece else {
            pieces.append(piece)
            return
        }
        if bytes.isEmpty { return }
        if case .literal(let before)? = pieces.last {
            pieces[pieces.count - 1] = .literal(before + bytes)
        } else {
            pieces.append(piece)
        }
    }

    /// This word followed by `text`.
    package func appending(_ text: String) -> ShellWord {
        ShellWord(pieces + [.text(text)])
    }

    /// `text` followed by this word.
    package func prepending(_ text: String) -> ShellWord {
        ShellWord([.text(text)] + pieces)
    }

    /// The word's text when it refers to no variable (its bytes read as UTF-8).
    package var literal: String? {
        switch pieces.count {
        case 0: return ""
        case 1: if case .literal(let bytes) = pieces[0] { return String(decoding: bytes, as: UTF8.self) }
        default: break
        }
        return nil
    }

    /// The word as the shell would show it with variables unexpanded: `$NAME` for a reference (not quoted: for
    /// messages; ``quoted(_:)`` is the form a shell reads).
    package var description: String {
        pieces.map {
            switch $0 {
            case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
            case .variable(let name): "$" + name
            }
        }.joined()
    }

    /// Whether a literal piece holds a line feed (which ``Form/line(newline:)`` writes as a variable).
    package var holdsLineBreak: Bool {
        pieces.contains { if case .literal(let bytes) = $0 { bytes.contains(0x0A) } else { false } }
    }

    /// Whether a literal piece holds a NUL byte, which no argument can hold and the word leaves out.
    package var holdsNUL: Bool {
        pieces.contains { if case .literal(let bytes) = $0 { bytes.contains(0) } else { false } }
    }

    /// The names of the variables the word refers to.
    package var variableNames: [String] {
        pieces.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    // MARK: - Quoting

    /// The word as a script file should hold it (``Form/script``).
    package var quoted: String {
        quoted(.script)
    }

    /// The word as the shell should read it, laid out as `form`.
    package func quoted(_ form: Form) -> String {
        var text = ""
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { text += Self.quote(literal, form) }
            literal = []
        }
        for piece in pieces {
            switch piece {
            case .literal(let bytes): literal += bytes.filter { $0 != 0 }
            case .variable(let name):
                flush()
                text += "\"${\(name)}\""
            }
        }
        flush()
        return text.isEmpty ? "''" : text
    }

    /// Whether `name` can be written as `${name}`: a letter or `_`, then letters, digits and `_`.
    package static func isVariableName(_ name: String) -> Bool {
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

    /// `bytes` (no NUL among them) quoted as `form`: bare when every byte is plain, else runs of visible text
    /// between single quotes and runs of other bytes written by `printf`, next to each other.
    package static func quote(_ bytes: [UInt8], _ form: Form = .script) -> String {
        if bytes.isEmpty { return "''" }
        if bytes.allSatisfy(isPlain) { return String(decoding: bytes, as: UTF8.self) }
        var text = ""
        var index = 0
        while index < bytes.count {
            let length = visibleLength(of: bytes, at: index, form)
            if length > 0 {
                // Byte by byte: a quote followed by a combining mark is one Character, which a search for "'" as a
                // Character would miss, leaving the quote to end the quoting.
                var run: [UInt8] = [0x27]
                for byte in bytes[index..<(index + length)] {
                    if byte == 0x27 { run += Array(#"'\''"#.utf8) } else { run.append(byte) }
                }
                text += String(decoding: run + [0x27], as: UTF8.self)
                index += length
                continue
            }
            if bytes[index] == 0x0A, case .line(let newline) = form {
                text += "\"${\(newline)}\""
                index += 1
                continue
            }
            var escapes = ""
            while index < bytes.count, visibleLength(of: bytes, at: index, form) == 0 {
                if bytes[index] == 0x0A, case .line = form { break }
                let length = max(utf8Length(of: bytes, at: index), 1)
                for byte in bytes[index..<(index + length)] { escapes += printfEscape(byte) }
                index += length
            }
            text += "\"$(printf '" + escapes + "')\""
        }
        return text
    }

    /// The length of the run of visible characters at `index` (0 when the character there is not visible):
    /// printable ASCII, valid UTF-8 characters that show as themselves, and a line feed in a script.
    private static func visibleLength(of bytes: [UInt8], at index: Int, _ form: Form) -> Int {
        var end = index
        while end < bytes.count {
            let byte = bytes[end]
            if byte >= 0x20 && byte < 0x7F || (byte == 0x0A && form == .script) {
                end += 1
                continue
            }
            let length = utf8Length(of: bytes, at: end)
            guard length > 0,
                let scalar = String(decoding: bytes[end..<(end + length)], as: UTF8.self).unicodeScalars.first,
                isVisible(scalar)
            else { break }
            end += length
        }
        return end - index
    }

    /// Whether a non-ASCII `scalar` shows as itself: not a control (C1), not a format character (bidirectional
    /// controls such as U+202E, zero-width characters, U+FEFF), not a line or paragraph separator, not private or
    /// unassigned, not a noncharacter.
    package static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isNoncharacterCodePoint { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            return false
        default:
            return true
        }
    }

    /// `byte` in a `printf` format: `\t`, `\n`, `\r`, or three octal digits.
    private static func printfEscape(_ byte: UInt8) -> String {
        switch byte {
        case 0x09: return #"\t"#
        case 0x0A: return #"\n"#
        case 0x0D: return #"\r"#
        default:
            let octal = String(byte, radix: 8)
            return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 when none starts there.
    private static func utf8Length(of bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<(index + length)], as: UTF8.self) == nil ? 0 : length
    }
}

extension ShellWord.Piece {
    /// Literal text, as its UTF-8 bytes.
    package static func text(_ text: String) -> Self {
        .literal(Array(text.utf8))
    }
}
