import APITestSupport

/// Splits shell text into commands and words as a POSIX shell (bash) reads them, without running anything: single
/// and double quotes, backslash escapes, line continuations, `$'…'` (ANSI-C quoting), comments, and commands separated
/// by line breaks, `;`, `&&`, `||`, `&` and `|`. `$NAME` and `${NAME}` outside single quotes become environment
/// references (``ShellWord/Piece/variable(_:)``), never values.
///
/// What a shell would compute is refused with its position rather than guessed: command substitution (`$(…)`,
/// backquotes), arithmetic, positional and special parameters (`$1`, `$?`), and parameter operators (`${A:-b}`).
/// Unlike bash, an unquoted `$NAME` stays one word (bash would split its value at spaces), globs stay literal text,
/// and a carriage return before a line break is part of the line break (files saved on Windows).
///
/// ```swift
/// try ShellSplitter.commands("curl -H 'A: b' \\\n  \"$BASE/x\"")
/// // one command: curl, -H, A: b, [$BASE, /x]
/// ```
package struct ShellSplitter {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The commands of `text`, in order; empty commands (blank lines, comments) are left out.
    package static func commands(_ text: String) throws(ShellSyntaxError) -> [ShellCommand] {
        var splitter = ShellSplitter(text)
        return try splitter.readCommands()
    }

    // MARK: - Commands

    private mutating func readCommands() throws(ShellSyntaxError) -> [ShellCommand] {
        var commands: [ShellCommand] = []
        var current = ShellCommand(words: [], line: line)
        var nextIsPipeTarget = false
        func finish(pipe: Bool) {
            if !current.words.isEmpty || !current.redirections.isEmpty {
                current.isPipeTarget = nextIsPipeTarget
                commands.append(current)
                nextIsPipeTarget = pipe
            } else if pipe {
                nextIsPipeTarget = true
            }
            current = ShellCommand(words: [], line: line)
        }
        while let scalar = peek() {
            switch scalar {
            case " ", "\t":
                advance()
            case "\r" where peek(1) == "\n":
                advance()
            case "\n":
                advance()
                finish(pipe: false)
            case "#":
                while let next = peek(), next != "\n" { advance() }
            case "\\" where peek(1) == "\n":
                advance(2)
            case "\\" where peek(1) == "\r" && peek(2) == "\n":
                advance(3)
            case ";":
                advance()
                finish(pipe: false)
            case "&":
                advance(peek(1) == "&" ? 2 : 1)
                finish(pipe: false)
            case "|":
                if peek(1) == "|" {
                    advance(2)
                    finish(pipe: false)
                } else {
                    advance(peek(1) == "&" ? 2 : 1)
                    finish(pipe: true)
                }
            case "(", ")":
                throw error("a subshell or function ('\(scalar)') is not a command line apitest can read")
            case "<", ">":
                current.redirections.append(try readRedirection(prefix: ""))
            default:
                if current.words.isEmpty { current.line = line }
                let wordLine = line
                let (word, redirection) = try readWord()
                if let redirection {
                    current.redirections.append(redirection)
                } else {
                    current.words.append(word)
                    current.wordLines.append(wordLine)
                }
            }
        }
        finish(pipe: false)
        return commands
    }

    /// `>`, `>>`, `<`, `2>&1`, `&>`, `<<<` and the word after it, as written.
    private mutating func readRedirection(prefix: String) throws(ShellSyntaxError) -> String {
        var text = prefix
        while let scalar = peek(), "<>&".unicodeScalars.contains(scalar) {
            text.unicodeScalars.append(scalar)
            advance()
        }
        if text.hasSuffix("&"), let digit = peek(), ("0"..."9").contains(digit) || digit == "-" {
            text.unicodeScalars.append(digit)
            advance()
            return text
        }
        while peek() == " " || peek() == "\t" { advance() }
        guard let next = peek(), !" \t\n;&|".unicodeScalars.contains(next) else {
            throw error("a redirection ('\(text)') without a file")
        }
        let (target, _) = try readWord()
        return text + " " + target.description
    }

    // MARK: - Words

    /// A word, or (when it turns out to be a file descriptor before `>`, as in `2>/dev/null`) a redirection.
    private mutating func readWord() throws(ShellSyntaxError) -> (ShellWord, String?) {
        var word = ShellWord()
        var quotedSomething = false
        loop: while let scalar = peek() {
            switch scalar {
            case " ", "\t", "\n", ";", "&", "|", "(", ")":
                break loop
            case "\r" where peek(1) == "\n":
                break loop
            case "<", ">":
                if !quotedSomething, let digits = word.literal, !digits.isEmpty,
                    digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
                {
                    return (word, try readRedirection(prefix: digits))
                }
                break loop
            case "\\":
                advance()
                guard let escaped = peek() else {
                    word.append(.text("\\"))
                    break loop
                }
                if escaped == "\n" {
                    advance()
                } else if escaped == "\r", peek(1) == "\n" {
                    advance(2)
                } else {
                    word.append(.text(String(escaped)))
                    advance()
                }
                quotedSomething = true
            case "'":
                advance()
                word.append(.text(try readUntilSingleQuote()))
                quotedSomething = true
            case "\"":
                advance()
                try readDoubleQuoted(into: &word)
                quotedSomething = true
            case "`":
                throw error("command substitution (`…`) is not supported: write the value, or an environment variable")
            case "$":
                if peek(1) == "'" {
                    advance(2)
                    word.append(.text(try readANSIC()))
                    quotedSomething = true
                } else if peek(1) == "\"" {
                    advance(2)
                    try readDoubleQuoted(into: &word)
                    quotedSomething = true
                } else {
                    word.append(try readDollar())
                }
            default:
                word.append(.text(String(scalar)))
                advance()
            }
        }
        return (word, nil)
    }

    /// The text up to the closing `'` (consumed): everything is literal.
    private mutating func readUntilSingleQuote() throws(ShellSyntaxError) -> String {
        let start = (line, column - 1)
        var text = ""
        while let scalar = peek() {
            advance()
            if scalar == "'" { return text }
            text.unicodeScalars.append(scalar)
        }
        throw ShellSyntaxError("unterminated single quote", line: start.0, column: start.1)
    }

    /// The text up to the closing `"` (consumed): `\` escapes `$`, `` ` ``, `"`, `\` and a line break (removed);
    /// `$NAME` is a reference.
    private mutating func readDoubleQuoted(into word: inout ShellWord) throws(ShellSyntaxError) {
        let start = (line, column - 1)
        while let scalar = peek() {
            switch scalar {
            case "\"":
                advance()
                return
            case "\\":
                let next = peek(1)
                if let next, "$`\"\\".unicodeScalars.contains(next) {
                    word.append(.text(String(next)))
                    advance(2)
                } else if next == "\n" {
                    advance(2)
                } else if next == "\r", peek(2) == "\n" {
                    advance(3)
                } else {
                    word.append(.text("\\"))
                    advance()
                }
            case "`":
                throw error("command substitution (`…`) is not supported: write the value, or an environment variable")
            case "$":
                word.append(try readDollar())
            default:
                word.append(.text(String(scalar)))
                advance()
            }
        }
        throw ShellSyntaxError("unterminated double quote", line: start.0, column: start.1)
    }

    /// `$NAME`, `${NAME}`, or a `$` that is literal (before a character that cannot start a name).
    private mutating func readDollar() throws(ShellSyntaxError) -> ShellWord.Piece {
        guard let next = peek(1) else {
            advance()
            return .text("$")
        }
        if next == "{" {
            let startColumn = column
            advance(2)
            var name = ""
            while let scalar = peek(), scalar != "}" {
                name.unicodeScalars.append(scalar)
                advance()
            }
            guard peek() == "}" else {
                throw ShellSyntaxError("unterminated ${", line: line, column: startColumn)
            }
            guard Self.isName(name) else {
                throw ShellSyntaxError(
                    "${\(name)} is not supported: only ${NAME} and $NAME (an environment variable) are",
                    line: line, column: startColumn)
            }
            advance()
            return .variable(name)
        }
        if next == "(" { throw error("command substitution ($(…)) is not supported: write the value") }
        if Self.isNameStart(next) {
            advance()
            var name = ""
            while let scalar = peek(), Self.isNameStart(scalar) || ("0"..."9").contains(scalar) {
                name.unicodeScalars.append(scalar)
                advance()
            }
            return .variable(name)
        }
        if ("0"..."9").contains(next) || "?$#@*!-".unicodeScalars.contains(next) {
            throw error("$\(next) is not supported: only environment variables ($NAME) are")
        }
        advance()
        return .text("$")
    }

    /// `$'…'` after its opening quote: backslash escapes as bash's ANSI-C quoting reads them.
    private mutating func readANSIC() throws(ShellSyntaxError) -> String {
        let start = (line, column - 2)
        var bytes: [UInt8] = []
        func append(_ scalar: Unicode.Scalar) { bytes += Array(String(scalar).utf8) }
        while let scalar = peek() {
            advance()
            if scalar == "'" { return String(decoding: bytes, as: UTF8.self) }
            guard scalar == "\\", let escaped = peek() else {
                append(scalar)
                continue
            }
            advance()
            switch escaped {
            case "a": bytes.append(0x07)
            case "b": bytes.append(0x08)
            case "e", "E": bytes.append(0x1B)
            case "f": bytes.append(0x0C)
            case "n": bytes.append(0x0A)
            case "r": bytes.append(0x0D)
            case "t": bytes.append(0x09)
            case "v": bytes.append(0x0B)
            case "\\", "'", "\"", "?": append(escaped)
            case "0"..."7":
                var value = Int(escaped.value - 48)
                for _ in 0..<2 {
                    guard let digit = peek(), ("0"..."7").contains(digit) else { break }
                    value = value * 8 + Int(digit.value - 48)
                    advance()
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            case "x":
                if let value = readHex(maximum: 2) { bytes.append(UInt8(value)) } else { bytes += Array("\\x".utf8) }
            case "u", "U":
                if let value = readHex(maximum: escaped == "u" ? 4 : 8), let unicode = Unicode.Scalar(value) {
                    append(unicode)
                } else {
                    append("\\")
                    append(escaped)
                }
            case "c":
                if let control = peek() {
                    advance()
                    bytes.append(UInt8(truncatingIfNeeded: control.value & 0x1F))
                }
            default:
                append("\\")
                append(escaped)
            }
        }
        throw ShellSyntaxError("unterminated $' quote", line: start.0, column: start.1)
    }

    /// Up to `maximum` hex digits as a number; nil when there is none.
    private mutating func readHex(maximum: Int) -> UInt32? {
        var value: UInt32 = 0
        var count = 0
        while count < maximum, let digit = peek(), let nibble = UInt32(String(digit), radix: 16) {
            value = value * 16 + nibble
            count += 1
            advance()
        }
        return count == 0 ? nil : value
    }

    // MARK: - Reading

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
    }

    private func error(_ message: String) -> ShellSyntaxError {
        ShellSyntaxError(message, line: line, column: column)
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether `text` is a shell variable name.
    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isNameStart(first) else { return false }
        return text.unicodeScalars.allSatisfy { isNameStart($0) || ("0"..."9").contains($0) }
    }
}
