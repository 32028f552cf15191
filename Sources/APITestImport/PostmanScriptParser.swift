/// An expression of the JavaScript subset that Postman test scripts are mostly written in: names, literals, member
/// access, calls, functions, and the comparisons of old `tests[...] = ...` scripts.
indirect enum ScriptExpression: Sendable, Equatable {
    case identifier(String)
    case string(String)
    /// A number as written.
    case number(String)
    case regex(pattern: String, flags: String)
    case array([ScriptExpression])
    case object([ScriptProperty])
    /// `base.name`.
    case member(ScriptExpression, String)
    /// `base[index]`.
    case index(ScriptExpression, ScriptExpression)
    /// `callee(arguments)`.
    case call(ScriptExpression, [ScriptExpression])
    /// `function (...) { body }` or `(...) => { body }` (an expression body is one statement).
    case function([ScriptStatement])
    /// `lhs op rhs`.
    case binary(String, ScriptExpression, ScriptExpression)
    /// `op operand`: `!`, `-`, `typeof`.
    case unary(String, ScriptExpression)
}

/// A member of an object literal.
struct ScriptProperty: Sendable, Equatable {
    /// The key.
    var key: String
    /// The value.
    var value: ScriptExpression
}

/// A statement of a script, with the lines it spans.
struct ScriptStatement: Sendable, Equatable {
    /// What the statement is.
    enum Kind: Sendable, Equatable {
        /// An expression statement.
        case expression(ScriptExpression)
        /// `var|let|const name = value`.
        case declaration(name: String, value: ScriptExpression)
        /// `target = value`.
        case assignment(target: ScriptExpression, value: ScriptExpression)
        /// A statement this parser does not read (control flow, syntax it does not know): never translated.
        case unsupported
    }

    /// The statement.
    var kind: Kind
    /// Its first line, from 1.
    var firstLine: Int
    /// Its last line.
    var lastLine: Int
}

/// Reads a script's tokens into statements. A statement it cannot read becomes ``ScriptStatement/Kind/unsupported``
/// over the lines it spans (to the next `;` or line break at its nesting level), and reading goes on after it.
struct PostmanScriptParser {
    /// The tokens.
    private let tokens: [PostmanScriptToken]
    /// The next token's index.
    private var position = 0

    /// A parser of `source`.
    init(source: String) {
        tokens = PostmanScriptLexer.tokens(source)
    }

    /// The statements of the whole script.
    static func statements(_ source: String) -> [ScriptStatement] {
        var parser = PostmanScriptParser(source: source)
        return parser.statementList(untilBrace: false)
    }

    /// A failure to read: the statement is unsupported.
    private struct Failure: Error {}

    // MARK: - Statements

    /// Statements up to the end, or up to (not past) a closing `}` when `untilBrace`.
    private mutating func statementList(untilBrace: Bool) -> [ScriptStatement] {
        var result: [ScriptStatement] = []
        while position < tokens.count {
            if isPunctuation(";") {
                position += 1
                continue
            }
            if untilBrace, isPunctuation("}") { break }
            let start = position
            do {
                var statement = try self.statement()
                statement.firstLine = tokens[start].line
                statement.lastLine = tokens[max(start, position - 1)].line
                // A statement ends at `;`, at a line break, or before `}`.
                if position < tokens.count, !isPunctuation(";"), !isPunctuation("}"),
                    tokens[position].line == tokens[position - 1].line
                {
                    throw Failure()
                }
                result.append(statement)
            } catch {
                position = start
                skipStatement()
                let last = tokens[max(start, position - 1)].line
                result.append(ScriptStatement(kind: .unsupported, firstLine: tokens[start].line, lastLine: last))
            }
        }
        return result
    }

    /// Skips one statement: to the `;` or line break at its own nesting level, never past a `}` that closes an
    /// enclosing block. A line that starts with `.` (a continued chain) belongs to the statement.
    private mutating func skipStatement() {
        var depth = 0
        let start = position
        while position < tokens.count {
            let token = tokens[position]
            if position > start, depth == 0 {
                if case .punctuation(";") = token.kind { return }
                if case .punctuation("}") = token.kind { return }
                if token.line != tokens[position - 1].line, !isContinuation(token) {
                    return
                }
            }
            if case .punctuation(let mark) = token.kind {
                if mark == "(" || mark == "[" || mark == "{" { depth += 1 }
                if mark == ")" || mark == "]" || mark == "}" {
                    depth -= 1
                    // A closing bracket that opens nothing: skipped when it is the statement's first token (so that
                    // reading always moves on), else the end of the statement.
                    if depth < 0 {
                        if position == start { position += 1 }
                        return
                    }
                }
            }
            position += 1
        }
    }

    /// Whether `token`, first on its line, continues the statement of the line before (`.and.equal(...)`, `+ x`).
    private func isContinuation(_ token: PostmanScriptToken) -> Bool {
        if case .punctuation(let mark) = token.kind {
            return [".", "?.", "+", "-", "&&", "||", "?", ":", ")"].contains(mark)
        }
        return false
    }

    /// One statement.
    private mutating func statement() throws(Failure) -> ScriptStatement {
        if case .identifier(let word) = current?.kind {
            switch word {
            case "var", "let", "const":
                position += 1
                guard case .identifier(let name) = current?.kind else { throw Failure() }
                position += 1
                try expect("=")
                let value = try expression()
                if isPunctuation(",") { throw Failure() }
                return ScriptStatement(kind: .declaration(name: name, value: value), firstLine: 0, lastLine: 0)
            case "if", "else", "for", "while", "do", "switch", "try", "return", "function", "throw", "class", "break",
                "continue", "import", "export":
                throw Failure()
            default:
                break
            }
        }
        let value = try expression()
        if isPunctuation("=") {
            position += 1
            let assigned = try expression()
            return ScriptStatement(kind: .assignment(target: value, value: assigned), firstLine: 0, lastLine: 0)
        }
        return ScriptStatement(kind: .expression(value), firstLine: 0, lastLine: 0)
    }

    // MARK: - Expressions

    /// Binary operators by precedence, loosest first.
    private static let precedence: [[String]] = [
        ["||", "??"], ["&&"], ["==", "!=", "===", "!=="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"],
    ]

    /// An expression.
    private mutating func expression() throws(Failure) -> ScriptExpression {
        try binary(level: 0)
    }

    /// A binary expression at `level` of ``precedence``.
    private mutating func binary(level: Int) throws(Failure) -> ScriptExpression {
        guard level < Self.precedence.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .punctuation(let mark)? = current?.kind, Self.precedence[level].contains(mark) {
            position += 1
            left = .binary(mark, left, try binary(level: level + 1))
        }
        return left
    }

    /// `!x`, `-x`, `typeof x`, or a postfix expression.
    private mutating func unary() throws(Failure) -> ScriptExpression {
        if case .punctuation(let mark)? = current?.kind, mark == "!" || mark == "-" {
            position += 1
            return .unary(mark, try unary())
        }
        if case .identifier("typeof")? = current?.kind {
            position += 1
            return .unary("typeof", try unary())
        }
        return try postfix()
    }

    /// A primary expression followed by member accesses, indexes and calls.
    private mutating func postfix() throws(Failure) -> ScriptExpression {
        var value = try primary()
        while let token = current {
            switch token.kind {
            case .punctuation("."):
                position += 1
                guard case .identifier(let name)? = current?.kind else { throw Failure() }
                position += 1
                value = .member(value, name)
            case .punctuation("["):
                position += 1
                let index = try expression()
                try expect("]")
                value = .index(value, index)
            case .punctuation("("):
                position += 1
                value = .call(value, try list(closing: ")"))
            default:
                return value
            }
        }
        return value
    }

    /// A name, literal, parenthesized expression, function, array or object.
    private mutating func primary() throws(Failure) -> ScriptExpression {
        guard let token = current else { throw Failure() }
        switch token.kind {
        case .identifier("function"):
            position += 1
            if case .identifier? = current?.kind { position += 1 }
            try expect("(")
            try skipParameters()
            return .function(try block())
        case .identifier(let name):
            position += 1
            if isPunctuation("=>") {
                position += 1
                return try arrowBody()
            }
            return .identifier(name)
        case .string(let text):
            position += 1
            return .string(text)
        case .number(let text):
            position += 1
            return .number(text)
        case .regex(let pattern, let flags):
            position += 1
            return .regex(pattern: pattern, flags: flags)
        case .punctuation("("):
            if isArrowFunction() {
                position += 1
                try skipParameters()
                try expect("=>")
                return try arrowBody()
            }
            position += 1
            let inner = try expression()
            try expect(")")
            return inner
        case .punctuation("["):
            position += 1
            return .array(try list(closing: "]"))
        case .punctuation("{"):
            position += 1
            var properties: [ScriptProperty] = []
            while !isPunctuation("}") {
                let key: String
                switch current?.kind {
                case .identifier(let name)?: key = name
                case .string(let text)?: key = text
                case .number(let text)?: key = text
                default: throw Failure()
                }
                position += 1
                try expect(":")
                properties.append(ScriptProperty(key: key, value: try expression()))
                if isPunctuation(",") { position += 1 } else if !isPunctuation("}") { throw Failure() }
            }
            position += 1
            return .object(properties)
        default:
            throw Failure()
        }
    }

    /// Whether the `(` at the current position opens an arrow function's parameters: `(`, names and commas, `)`, `=>`.
    private func isArrowFunction() -> Bool {
        var index = position + 1
        while index < tokens.count {
            switch tokens[index].kind {
            case .identifier, .punctuation(","): index += 1
            case .punctuation(")"):
                return index + 1 < tokens.count && tokens[index + 1].kind == .punctuation("=>")
            default: return false
            }
        }
        return false
    }

    /// Skips a parameter list after its `(`, through its `)`.
    private mutating func skipParameters() throws(Failure) {
        while let token = current {
            position += 1
            switch token.kind {
            case .punctuation(")"): return
            case .identifier, .punctuation(","): continue
            default: throw Failure()
            }
        }
        throw Failure()
    }

    /// An arrow function's body: a block, or one expression.
    private mutating func arrowBody() throws(Failure) -> ScriptExpression {
        if isPunctuation("{") {
            position += 1
            return .function(try blockAfterBrace())
        }
        let line = current?.line ?? 0
        let value = try expression()
        return .function([ScriptStatement(kind: .expression(value), firstLine: line, lastLine: previousLine)])
    }

    /// `{ statements }`.
    private mutating func block() throws(Failure) -> [ScriptStatement] {
        try expect("{")
        return try blockAfterBrace()
    }

    /// Statements through the `}` that closes a block whose `{` was read.
    private mutating func blockAfterBrace() throws(Failure) -> [ScriptStatement] {
        let body = statementList(untilBrace: true)
        try expect("}")
        return body
    }

    /// Expressions separated by commas, through `closing` (a trailing comma allowed).
    private mutating func list(closing: String) throws(Failure) -> [ScriptExpression] {
        var items: [ScriptExpression] = []
        while !isPunctuation(closing) {
            items.append(try expression())
            if isPunctuation(",") { position += 1 } else if !isPunctuation(closing) { throw Failure() }
        }
        position += 1
        return items
    }

    // MARK: - Tokens

    /// The current token.
    private var current: PostmanScriptToken? {
        position < tokens.count ? tokens[position] : nil
    }

    /// The line of the token before the current one.
    private var previousLine: Int {
        position > 0 ? tokens[position - 1].line : 0
    }

    /// Whether the current token is the punctuation `mark`.
    private func isPunctuation(_ mark: String) -> Bool {
        current?.kind == .punctuation(mark)
    }

    /// Reads the punctuation `mark`, or fails.
    private mutating func expect(_ mark: String) throws(Failure) {
        guard isPunctuation(mark) else { throw Failure() }
        position += 1
    }
}
