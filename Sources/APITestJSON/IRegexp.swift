/// An I-Regexp (RFC 9485) pattern, checked and translated to a ``LinearRegex`` once, so `match()` and `search()`
/// take time linear in the text whatever the pattern and the document.
///
/// The translation matches Unicode scalar by scalar (never grapheme clusters), makes `.` match any character
/// but LF and CR, makes groups non-capturing and writes every literal other than ASCII letters and digits as
/// `\x{...}`, so nothing can take on a meaning it has only in the engine's syntax (such as `&&` inside a class).
/// A literal pattern that is not I-Regexp is an error when the JSONPath is parsed; one that comes from the document
/// never matches (RFC 9535 §2.4.6–2.4.7).
///
/// `^` and `$` outside a class: RFC 9485's grammar lists them as ordinary characters, but the RFC's own mapping
/// to other engines (§5.3, §5.4) passes them through, where they are anchors, and the JSONPath compliance suite
/// expects exactly that (`match(@, '^ab.*')` matches "ab"). So here `^` asserts the start and `$` the end of the
/// string (never of a line), and may not be quantified. Escaped (`\^`) or inside a class they are literal.
struct IRegexp: Hashable, Sendable {
    /// The I-Regexp as written.
    let pattern: String
    /// The compiled regex for `search` and the same anchored at both ends for `match`; nil when `pattern` is not a
    /// valid I-Regexp.
    private let compiled: (search: LinearRegex, match: LinearRegex)?

    init(_ pattern: String) {
        self.pattern = pattern
        if let translated = IRegexpTranslator.translate(pattern),
            let search = try? LinearRegex(translated), let match = try? LinearRegex("\\A(?:\(translated))\\z")
        {
            compiled = (search, match)
        } else {
            compiled = nil
        }
    }

    /// Whether `pattern` is a valid I-Regexp (within the engine's limits: repetition counts up to 1000).
    var isValid: Bool { compiled != nil }

    /// Whether the whole of `string` matches (`match`), or some substring does (`search`). False when the
    /// calling task is cancelled mid-match (the run is being interrupted).
    func matches(_ string: String, wholeString: Bool) -> Bool {
        guard let compiled else { return false }
        let regex = wholeString ? compiled.match : compiled.search
        return (try? regex.matches(string)) ?? false
    }

    static func == (lhs: IRegexp, rhs: IRegexp) -> Bool { lhs.pattern == rhs.pattern }
    func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}

// MARK: - Translation

/// Validates an I-Regexp against the RFC 9485 grammar and writes the equivalent ``LinearRegex`` syntax.
private struct IRegexpTranslator {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var output = ""
    private var depth = 0

    private init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// The ``LinearRegex`` pattern for `pattern`, or nil when it is not a valid I-Regexp.
    static func translate(_ pattern: String) -> String? {
        var translator = IRegexpTranslator(pattern)
        guard translator.parseRegexp(), translator.position == translator.scalars.count else { return nil }
        return translator.output
    }

    private var peek: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    // i-regexp = branch *( "|" branch )
    private mutating func parseRegexp() -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 100 else { return false }
        guard parseBranch() else { return false }
        while peek == "|" {
            position += 1
            output += "|"
            guard parseBranch() else { return false }
        }
        return true
    }

    // branch = *piece ; piece = atom [ quantifier ]
    private mutating func parseBranch() -> Bool {
        while let scalar = peek, scalar != "|", scalar != ")" {
            guard parseAtom(), parseQuantifier() else { return false }
        }
        return true
    }

    private mutating func parseAtom() -> Bool {
        guard let scalar = peek else { return false }
        position += 1
        switch scalar {
        case "^", "$":
            output += scalar == "^" ? "\\A" : "\\z"
            return !isQuantifier(peek)
        case "(":
            output += "(?:"
            guard parseRegexp(), peek == ")" else { return false }
            position += 1
            output += ")"
            return true
        case ".":
            output += "[^\\n\\r]"
            return true
        case "[":
            return parseClass()
        case "\\":
            guard let escaped = parseEscape() else { return false }
            output += escaped
            return true
        case "*", "+", "?", "{", "}", ")", "]", "|":
            return false
        default:
            output += Self.literal(scalar)
            return true
        }
    }

    private func isQuantifier(_ scalar: Unicode.Scalar?) -> Bool {
        scalar == "*" || scalar == "+" || scalar == "?" || scalar == "{"
    }

    // quantifier = ( "*" / "+" / "?" ) / "{" QuantExact [ "," [ QuantExact ] ] "}"
    private mutating func parseQuantifier() -> Bool {
        switch peek {
        case "*", "+", "?":
            output.unicodeScalars.append(scalars[position])
            position += 1
        case "{":
            position += 1
            guard let low = parseDecimal() else { return false }
            var text = "{\(low)"
            if peek == "," {
                position += 1
                text += ","
                if let high = parseDecimal() {
                    guard high >= low else { return false }
                    text += "\(high)"
                }
            }
            guard peek == "}" else { return false }
            position += 1
            output += text + "}"
        default:
            break
        }
        return true
    }

    private mutating func parseDecimal() -> Int? {
        var value = 0
        var digits = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            value = min(value * 10 + Int(scalar.value - 0x30), 1_000_000)
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    // charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"
    private mutating func parseClass() -> Bool {
        output += "["
        if peek == "^" {
            position += 1
            output += "^"
        }
        var items = 0
        if peek == "-" {
            position += 1
            output += Self.literal("-")
            items += 1
        }
        while let scalar = peek, scalar != "]" {
            if scalar == "-" {
                // Only allowed as the last character before "]".
                guard items > 0, position + 1 < scalars.count, scalars[position + 1] == "]" else { return false }
                position += 1
                output += Self.literal("-")
                continue
            }
            if scalar == "\\", isCategoryEscape(at: position + 1) {
                position += 1
                guard let escape = parseEscape() else { return false }
                output += escape
                items += 1
                continue
            }
            guard let low = parseClassChar() else { return false }
            if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                guard let high = parseClassChar(), low.value <= high.value else { return false }
                output += Self.literal(low) + "-" + Self.literal(high)
            } else {
                output += Self.literal(low)
            }
            items += 1
        }
        guard items > 0, peek == "]" else { return false }
        position += 1
        output += "]"
        return true
    }

    private func isCategoryEscape(at index: Int) -> Bool {
        index < scalars.count && (scalars[index] == "p" || scalars[index] == "P")
    }

    // CCchar = any but "-" "[" "\" "]", or SingleCharEsc
    private mutating func parseClassChar() -> Unicode.Scalar? {
        guard let scalar = peek else { return nil }
        switch scalar {
        case "-", "[", "]":
            return nil
        case "\\":
            position += 1
            guard let next = peek else { return nil }
            position += 1
            return Self.singleCharEscape(next)
        default:
            position += 1
            return scalar
        }
    }

    /// After a backslash: a single-character escape, or `p{..}` / `P{..}`.
    private mutating func parseEscape() -> String? {
        guard let scalar = peek else { return nil }
        position += 1
        if scalar == "p" || scalar == "P" {
            guard peek == "{" else { return nil }
            position += 1
            var name = ""
            while let next = peek, next != "}" {
                name.unicodeScalars.append(next)
                position += 1
            }
            guard peek == "}", Self.isCategory(name) else { return nil }
            position += 1
            return "\\\(scalar){\(name)}"
        }
        return Self.singleCharEscape(scalar).map { Self.literal($0) }
    }

    // SingleCharEsc = "\" ( "(" ")" "*" "+" "-" "." "?" "[" "\" "]" "^" "n" "r" "t" "{" "|" "}" )
    private static func singleCharEscape(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar {
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return scalar
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        default: return nil
        }
    }

    private static let categories: Set<String> = [
        "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
        "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
    ]

    private static func isCategory(_ name: String) -> Bool {
        categories.contains(name)
    }

    /// A scalar as a literal in ``LinearRegex`` syntax: ASCII letters and digits as-is, all else as `\x{...}`.
    private static func literal(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return String(scalar)
        default: return "\\x{\(String(scalar.value, radix: 16))}"
        }
    }
}
