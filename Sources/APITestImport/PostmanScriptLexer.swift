/// A token of a Postman script (the JavaScript subset ``PostmanScriptParser`` reads), with its 1-based line.
struct PostmanScriptToken: Sendable, Equatable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// A name: `pm`, `expect`, `var`, `function`, `true`.
        case identifier(String)
        /// A string literal, its escapes resolved (also a template literal without `${`).
        case string(String)
        /// A number literal as written.
        case number(String)
        /// A regular expression literal.
        case regex(pattern: String, flags: String)
        /// An operator or punctuation: `(`, `.`, `===`, `=>`.
        case punctuation(String)
        /// Something this lexer does not read (a template literal with `${`, an unclosed string): the statement
        /// holding it is not translated.
        case unsupported(String)
    }

    /// The token.
    var kind: Kind
    /// Its line, from 1.
    var line: Int
}

/// Splits a script into ``PostmanScriptToken``s, dropping white space and comments.
enum PostmanScriptLexer {
    /// Punctuation, longest first.
    private static let punctuation = [
        "===", "!==", "...", "**=", "==", "!=", "<=", ">=", "=>", "&&", "||", "??", "++", "--", "+=", "-=", "*=", "/=",
        "?.", "(", ")", "{", "}", "[", "]", ";", ",", ".", ":", "?", "!", "<", ">", "=", "+", "-", "*", "/", "%", "&",
        "|", "^", "~",
    ].map { Array($0.unicodeScalars) }

    /// The tokens of `source` (lines joined with line feeds).
    static func tokens(_ source: String) -> [PostmanScriptToken] {
        let scalars = Array(source.unicodeScalars)
        var tokens: [PostmanScriptToken] = []
        var index = 0
        var line = 1
        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                index += 1
            } else if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\u{A0}" || scalar == "\u{FEFF}" {
                index += 1
            } else if scalar == "/", peek(1) == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", peek(1) == "*" {
                index += 2
                while index < scalars.count, !(scalars[index] == "*" && peek(1) == "/") {
                    if scalars[index] == "\n" { line += 1 }
                    index += 1
                }
                index += 2
            } else if scalar == "\"" || scalar == "'" || scalar == "`" {
                let start = line
                let kind = string(scalars, &index, &line, quote: scalar)
                tokens.append(PostmanScriptToken(kind: kind, line: start))
            } else if isDigit(scalar) || (scalar == "." && peek(1).map(isDigit) == true) {
                var text = ""
                while index < scalars.count,
                    isIdentifierPart(scalars[index]) || scalars[index] == "."
                        || ((scalars[index] == "+" || scalars[index] == "-")
                            && (text.last == "e" || text.last == "E") && !text.hasPrefix("0x"))
                {
                    text.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(PostmanScriptToken(kind: .number(text), line: line))
            } else if isIdentifierStart(scalar) {
                var text = ""
                while index < scalars.count, isIdentifierPart(scalars[index]) {
                    text.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(PostmanScriptToken(kind: .identifier(text), line: line))
            } else if scalar == "/", startsExpression(after: tokens.last) {
                tokens.append(PostmanScriptToken(kind: regex(scalars, &index), line: line))
            } else if let match = punctuation.first(where: { matches($0, scalars, at: index) }) {
                tokens.append(
                    PostmanScriptToken(kind: .punctuation(String(String.UnicodeScalarView(match))), line: line))
                index += match.count
            } else {
                tokens.append(PostmanScriptToken(kind: .unsupported(String(scalar)), line: line))
                index += 1
            }
        }
        return tokens
    }

    /// A string literal starting at `index` (on its quote); `index` ends after the closing quote.
    private static func string(
        _ scalars: [Unicode.Scalar], _ index: inout Int, _ line: inout Int, quote: Unicode.Scalar
    ) -> PostmanScriptToken.Kind {
        var text = String.UnicodeScalarView()
        index += 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == quote {
                index += 1
                return .string(String(text))
            }
            if scalar == "\n" {
                line += 1
                if quote != "`" { return .unsupported("unclosed string") }
            }
            if quote == "`", scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "{" {
                while index < scalars.count, scalars[index] != "`" {
                    if scalars[index] == "\n" { line += 1 }
                    index += 1
                }
                index += 1
                return .unsupported("template literal")
            }
            if scalar == "\\", index + 1 < scalars.count {
                let next = scalars[index + 1]
                index += 2
                switch next {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "b": text.append("\u{8}")
                case "f": text.append("\u{C}")
                case "v": text.append("\u{B}")
                case "0": text.append("\u{0}")
                case "\n": line += 1
                case "u", "x":
                    let length = next == "u" ? 4 : 2
                    guard index + length <= scalars.count,
                        let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + length])), radix: 16),
                        let decoded = Unicode.Scalar(code)
                    else { return .unsupported("escape") }
                    text.append(decoded)
                    index += length
                default: text.append(next)
                }
                continue
            }
            text.append(scalar)
            index += 1
        }
        return .unsupported("unclosed string")
    }

    /// A regular expression literal starting at `index` (on its slash).
    private static func regex(_ scalars: [Unicode.Scalar], _ index: inout Int) -> PostmanScriptToken.Kind {
        var pattern = String.UnicodeScalarView()
        var inClass = false
        index += 1
        while index < scalars.count, scalars[index] != "\n" {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                pattern.append(scalar)
                pattern.append(scalars[index + 1])
                index += 2
                continue
            }
            if scalar == "[" { inClass = true }
            if scalar == "]" { inClass = false }
            if scalar == "/", !inClass {
                index += 1
                var flags = ""
                while index < scalars.count, isIdentifierPart(scalars[index]) {
                    flags.unicodeScalars.append(scalars[index])
                    index += 1
                }
                return .regex(pattern: String(pattern), flags: flags)
            }
            pattern.append(scalar)
            index += 1
        }
        return .unsupported("unclosed regular expression")
    }

    /// Whether a `/` after `previous` starts a regular expression (not a division).
    private static func startsExpression(after previous: PostmanScriptToken?) -> Bool {
        switch previous?.kind {
        case nil: return true
        case .identifier(let name)?: return ["return", "typeof", "case", "in", "of"].contains(name)
        case .string?, .number?, .regex?: return false
        case .punctuation(let mark)?: return mark != ")" && mark != "]" && mark != "}"
        case .unsupported?: return false
        }
    }

    /// Whether `pattern` occurs in `scalars` at `index`.
    private static func matches(_ pattern: [Unicode.Scalar], _ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + pattern.count <= scalars.count else { return false }
        for offset in pattern.indices where scalars[index + offset] != pattern[offset] { return false }
        return true
    }

    /// An ASCII digit.
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }

    /// A character that may start a name.
    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_" || scalar == "$"
            || scalar.value > 0x7F && scalar.properties.isAlphabetic
    }

    /// A character that may continue a name.
    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDigit(scalar)
    }
}
