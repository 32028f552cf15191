/// Splits template text into literal text and `{{ name }}` placeholders, and checks names.
enum TemplateScanner {
    /// A scanned piece; offsets and lengths count Unicode scalars, as libyaml's columns do.
    enum Piece: Equatable {
        case literal(String)
        case placeholder(name: String, offset: Int, length: Int)
    }

    /// The prefix that names a process environment variable.
    static let environmentPrefix = "env."

    /// Scans `text`; throws on `{{` without `}}`, an empty placeholder or an invalid name.
    static func scan(_ text: String) throws(TemplateError) -> [Piece] {
        guard mayHavePlaceholders(text) else { return text.isEmpty ? [] : [.literal(text)] }
        let scalars = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var literal = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "{", index + 1 < scalars.count, scalars[index + 1] == "{" else {
                literal.append(scalars[index])
                index += 1
                continue
            }
            guard let close = findClose(scalars, from: index + 2) else {
                throw TemplateError(
                    kind: .syntax(offset: index, length: 2), message: "'{{' is not closed by '}}'")
            }
            let inner = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
            let name = inner.trimmingCharacters(in: " \t")
            let length = close + 2 - index
            if let problem = problem(withName: name) {
                throw TemplateError(kind: .syntax(offset: index, length: length), message: problem)
            }
            if !literal.isEmpty {
                pieces.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
            }
            pieces.append(.placeholder(name: name, offset: index, length: length))
            index = close + 2
        }
        if !literal.isEmpty { pieces.append(.literal(String(literal))) }
        return pieces
    }

    /// False when `text` has no `{{`: it is then one literal piece (or none when empty).
    static func mayHavePlaceholders(_ text: String) -> Bool {
        var afterBrace = false
        for byte in text.utf8 {
            let isBrace = byte == UInt8(ascii: "{")
            if isBrace && afterBrace { return true }
            afterBrace = isBrace
        }
        return false
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

    /// The index of the `}}` that closes a placeholder opened before `start`; a new `{{` or a line break first
    /// means the placeholder is not closed.
    private static func findClose(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 1 < scalars.count {
            if scalars[index] == "}", scalars[index + 1] == "}" { return index }
            if scalars[index] == "{" && scalars[index + 1] == "{" || scalars[index] == "\n" { return nil }
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
