package import APITestJSON

/// Writes YAML text for the suites apitest writes (`generate openapi`, `import`): block mappings and sequences, two
/// spaces per level, and scalars that read back as exactly the value written (a string that YAML would read as
/// something else, or that holds a character a plain scalar cannot, is double-quoted with escapes).
///
/// ```swift
/// YAMLEmitter.lines(key: "json", value: ["name": "Rex", "age": 3], indent: 4)
/// // ["    json:", "      name: Rex", "      age: 3"]
/// YAMLEmitter.string("true")     // "\"true\""
/// YAMLEmitter.string("a: b")     // "\"a: b\""
/// ```
package enum YAMLEmitter {
    // MARK: - Blocks

    /// `key: value` at `indent` spaces: a scalar or an empty collection on the same line, a map or a list below it.
    package static func lines(key: String, value: JSONValue, indent: Int) -> [String] {
        let head = String(repeating: " ", count: indent) + Self.key(key) + ":"
        switch value {
        case .object(let object) where !object.isEmpty:
            return [head] + object.members.flatMap { lines(key: $0.key, value: $0.value, indent: indent + 2) }
        case .array(let items) where !items.isEmpty:
            return [head] + items.flatMap { itemLines($0, indent: indent + 2) }
        default:
            return [head + " " + inline(value)]
        }
    }

    /// One element of a block sequence (`- value`) at `indent` spaces; a map's first member shares the dash's line.
    package static func itemLines(_ value: JSONValue, indent: Int) -> [String] {
        let dash = String(repeating: " ", count: indent) + "-"
        switch value {
        case .object(let object) where !object.isEmpty:
            var result = object.members.flatMap { lines(key: $0.key, value: $0.value, indent: indent + 2) }
            result[0] = dash + " " + result[0].dropFirst(indent + 2)
            return result
        case .array(let items) where !items.isEmpty:
            return [dash] + items.flatMap { itemLines($0, indent: indent + 2) }
        default:
            return [dash + " " + inline(value)]
        }
    }

    /// `# text` at `indent` spaces, one line per line of `text`, long lines wrapped at spaces to fit `width`
    /// columns; control characters become spaces, and invisible format characters (``isInvisible(_:)``: a
    /// right-to-left override would reorder how the rest of the line reads) their escapes as text (`\u202E`).
    package static func comment(_ text: String, indent: Int = 0, width: Int = 118) -> [String] {
        let prefix = String(repeating: " ", count: indent) + "#"
        var result: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var cleaned = ""
            for scalar in line.unicodeScalars {
                if isInvisible(scalar) {
                    cleaned += unicodeEscape(scalar)
                } else if needsEscape(scalar) || scalar == "\t" {
                    cleaned += " "
                } else {
                    cleaned.unicodeScalars.append(scalar)
                }
            }
            var current = ""
            for word in cleaned.split(separator: " ", omittingEmptySubsequences: false) {
                if !current.isEmpty, prefix.count + 1 + current.count + 1 + word.count > width {
                    result.append(prefix + " " + current)
                    current = String(word)
                } else {
                    current += current.isEmpty ? String(word) : " " + word
                }
            }
            result.append(current.isEmpty ? prefix : prefix + " " + current)
        }
        return result
    }

    // MARK: - Scalars

    /// A scalar, or an empty map or list (`{}`, `[]`), as it is written after `key: ` or `- `.
    package static func inline(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer, .double, .number: return JSONWriter.string(value)
        case .string(let text): return string(text)
        case .array: return "[]"
        case .object: return "{}"
        }
    }

    /// A map key: the same rules as a string value.
    package static func key(_ text: String) -> String {
        string(text)
    }

    /// `text` as a plain scalar when YAML (1.2 core schema, and 1.1 readers such as editors) reads it back as this
    /// very string; double-quoted otherwise.
    package static func string(_ text: String) -> String {
        isPlainSafe(text) ? text : doubleQuoted(text)
    }

    /// Words that YAML 1.1 or 1.2 readers take for null or a boolean.
    private static let reservedWords: Set<String> = [
        "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n", "<<", "=",
    ]

    /// Whether `text` can be written plain and read back as the same string.
    package static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if reservedWords.contains(text.lowercased()) { return false }
        // Indicators that start something else, and anything that could read as a number, a date or a time.
        if "-?:,[]{}#&*!|>'\"%@` +".unicodeScalars.contains(first) { return false }
        if first.properties.numericType != nil || ("0"..."9").contains(first) { return false }
        if first == ".", text.hasPrefix("...") || Self.startsWithDigit(text.dropFirst()) || text.count < 5 {
            return false
        }
        if last == ":" || last == " " { return false }
        if text.contains(": ") || text.contains(" #") { return false }
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) || scalar == "\t" { return false }
            if "[]{},\"'\\".unicodeScalars.contains(scalar) { return false }
        }
        return true
    }

    /// Whether `text` starts with an ASCII digit (`.5`, `.inf` is caught by its length).
    private static func startsWithDigit(_ text: Substring) -> Bool {
        text.first.map { $0.isASCII && $0.isNumber } ?? false
    }

    /// `text` in double quotes, with `"`, `\` and every character that is not printable escaped.
    package static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case "\u{85}": result += "\\N"
            case "\u{A0}": result += "\\_"
            case "\u{2028}": result += "\\L"
            case "\u{2029}": result += "\\P"
            default:
                if needsEscape(scalar) {
                    result += scalar.value < 0x100 ? "\\x" + hex(scalar.value, width: 2) : unicodeEscape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Whether a scalar must be escaped in a double-quoted scalar (and cannot be in a plain one): C0 and C1
    /// controls, DEL, the line and paragraph separators, no-break space, the noncharacters `U+FFFE` and `U+FFFF`,
    /// and the invisible characters of ``isInvisible(_:)``, so that the file reads as it parses.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0xA0, 0x2028, 0x2029, 0xFFFE, 0xFFFF: return true
        default: return isInvisible(scalar)
        }
    }

    /// Whether a scalar is an invisible format character: a bidirectional control (Unicode's Bidi_Control: U+061C,
    /// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorders how the text around it reads, or any other
    /// format character (general category Cf: zero-width space and joiners, the byte-order mark, soft hyphen, tags)
    /// or default-ignorable code point that shows as nothing (Hangul fillers, the combining grapheme joiner).
    /// Variation selectors, which choose how the character before them looks (an emoji's colour), are left as they
    /// are.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0xAD { return false }
        switch scalar.value {
        case 0x180B...0x180D, 0x180F, 0xFE00...0xFE0F, 0xE0100...0xE01EF: return false // variation selectors
        default: break
        }
        let properties = scalar.properties
        return properties.isBidiControl || properties.generalCategory == .format
            || properties.isDefaultIgnorableCodePoint
    }

    /// `\uXXXX`, or `\UXXXXXXXX` beyond the Basic Multilingual Plane: YAML's double-quoted escape of `scalar`.
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        scalar.value <= 0xFFFF ? "\\u" + hex(scalar.value, width: 4) : "\\U" + hex(scalar.value, width: 8)
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
