/// Splits template text into literal text and `{{ name }}` placeholders, and checks names.
enum TemplateScanner {
    /// A scanned piece; offsets and lengths count Unicode scalars, as libyaml's columns do.
    enum Piece: Equatable {
        case literal(String)
        case placeholder(name: String, offset: Int, length: Int)
        /// A placeholder holding an expression (`{{ sha256(body) }}`); `source` is its text without the braces.
        case expression(Expression, source: String, offset: Int, length: Int)
    }

    /// The prefix that names a process environment variable.
    static let environmentPrefix = "env."

    /// Scans `text`; throws on `{{` without `}}`, an empty placeholder or an invalid name.
    static func scan(_ text: String) throws(TemplateError) -> [Piece] {
        guard mayHavePlaceholders(text) else { return text.isEmpty ? [] : [.literal(text)] }
        var text = text
        return try text.withUTF8 { scan($0) }.get()
    }

    /// Scans UTF-8 text. `{`, `}` and line breaks are ASCII, and an ASCII byte is always a whole scalar, so the
    /// bytes are read directly; offsets and lengths count the scalars passed (the bytes that start one).
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[Piece], TemplateError> {
        let brace = UInt8(ascii: "{")
        var pieces: [Piece] = []
        var literalStart = 0
        var index = 0
        var offset = 0 // The scalar offset of `index`.
        while index < bytes.count {
            guard bytes[index] == brace, index + 1 < bytes.count, bytes[index + 1] == brace else {
                if !isContinuation(bytes[index]) { offset += 1 }
                index += 1
                continue
            }
            guard let (close, innerScalars) = findClose(bytes, from: index + 2) else {
                return .failure(
                    TemplateError(kind: .syntax(offset: offset, length: 2), message: "'{{' is not closed by '}}'"))
            }
            let inner = UnsafeBufferPointer(rebasing: bytes[(index + 2)..<close])
            let name = trimmedName(inner)
            let length = innerScalars + 4
            var piece = Piece.placeholder(name: name, offset: offset, length: length)
            if let problem = problem(withName: name) {
                // Not a name: an expression, or a mistake.
                guard !name.isEmpty else {
                    return .failure(TemplateError(kind: .syntax(offset: offset, length: length), message: problem))
                }
                do {
                    let expression = try ExpressionParser.parse(String(decoding: inner, as: UTF8.self))
                    piece = .expression(expression, source: name, offset: offset, length: length)
                } catch {
                    // A text with nothing of an expression is a misspelt name: say what names are.
                    guard looksLikeExpression(name) else {
                        return .failure(
                            TemplateError(kind: .syntax(offset: offset, length: length), message: problem))
                    }
                    return .failure(
                        TemplateError(
                            kind: .syntax(offset: offset + 2 + error.offset, length: error.length),
                            message: error.message))
                }
            }
            if literalStart < index {
                pieces.append(
                    .literal(
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[literalStart..<index]), as: UTF8.self)))
            }
            pieces.append(piece)
            index = close + 2
            offset += length
            literalStart = index
        }
        if literalStart < bytes.count {
            pieces.append(
                .literal(String(decoding: UnsafeBufferPointer(rebasing: bytes[literalStart...]), as: UTF8.self)))
        }
        return .success(pieces)
    }

    /// The text between `{{` and `}}` without leading and trailing spaces and tabs. An ASCII text is trimmed byte by
    /// byte; another is trimmed by characters (a space followed by a combining mark is one character, not a space).
    private static func trimmedName(_ inner: UnsafeBufferPointer<UInt8>) -> String {
        guard inner.allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: inner, as: UTF8.self).trimmingCharacters(in: " \t")
        }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = inner.firstIndex(where: { !isBlank($0) }), let last = inner.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: inner[first...last]), as: UTF8.self)
    }

    /// True for the bytes that continue a UTF-8 sequence (`10xxxxxx`).
    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// False when `text` has no `{{`: it is then one literal piece (or none when empty).
    static func mayHavePlaceholders(_ text: String) -> Bool {
        // Iterating `text.utf8` costs some 10 instructions a byte; its contiguous bytes, one or two (every scalar
        // of a suite is read here).
        if let found = text.utf8.withContiguousStorageIfAvailable(hasTwoBraces) { return found }
        var afterBrace = false
        for byte in text.utf8 {
            let isBrace = byte == UInt8(ascii: "{")
            if isBrace && afterBrace { return true }
            afterBrace = isBrace
        }
        return false
    }

    /// True when `bytes` holds `{{`.
    private static func hasTwoBraces(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 1 else { return false }
        var index = 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{") {
                if bytes[index - 1] == UInt8(ascii: "{") { return true }
                index += 1
            } else {
                index += 2
            }
        }
        return false
    }

    /// Whether a placeholder's text that is not a name was meant as an expression: it calls, quotes, lists or
    /// compares (`{{ a b }}` is a misspelt name, `{{ sha256(a) }}` an expression).
    static func looksLikeExpression(_ text: String) -> Bool {
        text.contains { "()\"'[]<>=!+,&|".contains($0) }
            || text.split(separator: " ").contains { ExpressionParser.keywords.contains(String($0)) }
    }

    /// What is wrong with a placeholder name, or `nil` when it is valid.
    static func problem(withName name: String) -> String? {
        if name.isEmpty { return "empty placeholder '{{ }}'; write '{{ name }}'" }
        if !isValidName(name) {
            return "invalid variable name '\(name)' in placeholder; names match [A-Za-z_][A-Za-z0-9_.-]*"
        }
        if name.hasPrefix(environmentPrefix), !isValidName(String(name.dropFirst(environmentPrefix.count))) {
            return "'\(name)' does not name an environment variable; write '{{ env.NAME }}'"
        }
        return nil
    }

    /// True for names matching `[A-Za-z_][A-Za-z0-9_.-]*`.
    static func isValidName(_ name: String) -> Bool {
        // For ASCII, "alphabetic" is A-Z and a-z.
        guard let first = name.utf8.first, isASCIILetter(first) || first == UInt8(ascii: "_") else { return false }
        return name.utf8.allSatisfy { byte in
            isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }

    /// True for A-Z and a-z.
    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// `NAME` for `env.NAME`, else `nil`.
    static func environmentName(_ name: String) -> String? {
        name.hasPrefix(environmentPrefix) ? String(name.dropFirst(environmentPrefix.count)) : nil
    }

    /// The byte index of the `}}` that closes a placeholder opened before `start`, and the number of scalars from
    /// `start` to it; a new `{{` or a line break first means the placeholder is not closed.
    private static func findClose(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Int)? {
        let (open, close, newline) = (UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\n"))
        var index = start
        var scalars = 0
        while index + 1 < bytes.count {
            if bytes[index] == close, bytes[index + 1] == close { return (index, scalars) }
            if bytes[index] == open && bytes[index + 1] == open || bytes[index] == newline { return nil }
            if !isContinuation(bytes[index]) { scalars += 1 }
            index += 1
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing characters from `set`.
    func trimmingCharacters(in set: String) -> String {
        guard let start = firstIndex(where: { !set.contains($0) }), let end = lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(self[start...end])
    }
}
