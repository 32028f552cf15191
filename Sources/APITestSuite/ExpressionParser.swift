import APITestJSON
import APITestSupport
import APITestYAML

// MARK: - ExpressionParser

/// Parses the expression grammar of `when:` and of `{{ ... }}` placeholders, checking every function's name and
/// argument count and the comparisons it can judge without values:
///
/// ```
/// expression := or
/// or         := and ("or" and)*
/// and        := not ("and" not)*
/// not        := "not" not | comparison
/// comparison := sum (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "matches") sum | "exists")?
/// sum        := primary ("+" primary)*
/// primary    := number | string | "true" | "false" | "null" | name | name "(" arguments? ")"
///             | "[" arguments? "]" | "(" expression ")" | "{{" expression "}}"
/// ```
///
/// A name is a variable (`[A-Za-z_][A-Za-z0-9_.-]*`, so `user.id` and `env.STAGE` are names and there is no binary
/// minus); strings are `"..."` or `'...'` with backslash escapes; `{{ x }}` is the same as `x`, so a condition can
/// be written with the placeholders of the rest of the suite (`'{{ count }} > 0'`).
package struct ExpressionParser {
    /// A text that is not a valid expression; `offset` and `length` count Unicode scalars from its start.
    package struct Failure: Error, Sendable, Hashable {
        /// Where the problem starts.
        package var offset: Int
        /// How many scalars it spans (at least 1).
        package var length: Int
        /// A sentence for people.
        package var message: String
    }

    private enum Token: Equatable {
        case name(String)
        case number(JSONValue)
        case string(String)
        case symbol(String)
        case end
    }

    private let scalars: [Unicode.Scalar]
    private var tokens: [(token: Token, offset: Int, length: Int)] = []
    private var position = 0
    /// How many constructs read by recursion are open (`enter()`).
    private var nesting = 0

    /// The words that are operators or literals, not variable names.
    package static let keywords: Set<String> = ["and", "or", "not", "in", "exists", "matches", "true", "false", "null"]

    /// Parses `text` as one whole expression.
    package static func parse(_ text: String) throws(Failure) -> Expression {
        var parser = ExpressionParser(scalars: Array(text.unicodeScalars))
        try parser.tokenize()
        let expression = try parser.expression().expression
        guard case .end = parser.current.token else {
            throw parser.failure("unexpected \(parser.describe(parser.current.token)) after the expression")
        }
        return expression
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    // MARK: - Tokens

    private mutating func tokenize() throws(Failure) {
        var index = 0
        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar == "_")
        }
        func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_.-".unicodeScalars.contains(scalar))
        }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        while index < scalars.count {
            let scalar = scalars[index]
            let start = index
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
                continue
            }
            if isNameStart(scalar) {
                while index < scalars.count, isNamePart(scalars[index]) { index += 1 }
                // A name does not end in `.` or `-` (`a.` is a typo, `-` may start a number after a space).
                var end = index
                while end > start + 1, scalars[end - 1] == "." || scalars[end - 1] == "-" { end -= 1 }
                index = end
                tokens.append((.name(text(start, end)), start, end - start))
                continue
            }
            if isDigit(scalar) || (scalar == "-" && index + 1 < scalars.count && isDigit(scalars[index + 1])) {
                index += 1
                while index < scalars.count, isDigit(scalars[index]) { index += 1 }
                if index + 1 < scalars.count, scalars[index] == ".", isDigit(scalars[index + 1]) {
                    index += 1
                    while index < scalars.count, isDigit(scalars[index]) { index += 1 }
                }
                if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
                    var exponent = index + 1
                    if exponent < scalars.count, scalars[exponent] == "+" || scalars[exponent] == "-" { exponent += 1 }
                    if exponent < scalars.count, isDigit(scalars[exponent]) {
                        index = exponent
                        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
                    }
                }
                let literal = text(start, index)
                guard let number = JSONNumber(text: literal) else {
                    throw Failure(offset: start, length: index - start, message: "invalid number '\(literal)'")
                }
                let value: JSONValue = Int64(literal).map { .integer($0) } ?? .number(number)
                tokens.append((.number(value), start, index - start))
                continue
            }
            if scalar == "\"" || scalar == "'" {
                let quote = scalar
                index += 1
                var value = String.UnicodeScalarView()
                var closed = false
                while index < scalars.count {
                    let next = scalars[index]
                    if next == quote {
                        closed = true
                        index += 1
                        break
                    }
                    if next == "\\" {
                        guard index + 1 < scalars.count else { break }
                        let escaped = scalars[index + 1]
                        switch escaped {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        case "\\", "\"", "'", "/": value.append(escaped)
                        default:
                            throw Failure(
                                offset: index, length: 2,
                                message: "unknown escape '\\\(escaped)' in a string; use \\n, \\t, \\r, \\\\, \\\", \\'"
                            )
                        }
                        index += 2
                        continue
                    }
                    value.append(next)
                    index += 1
                }
                guard closed else {
                    throw Failure(offset: start, length: index - start, message: "the string is not closed")
                }
                tokens.append((.string(String(value)), start, index - start))
                continue
            }
            let two = index + 1 < scalars.count ? String(scalars[index]) + String(scalars[index + 1]) : ""
            if ["==", "!=", "<=", ">=", "{{", "}}", "&&", "||"].contains(two) {
                if two == "&&" || two == "||" {
                    throw Failure(
                        offset: start, length: 2,
                        message: "'\(two)' is not an operator here; write '\(two == "&&" ? "and" : "or")'")
                }
                tokens.append((.symbol(two), start, 2))
                index += 2
                continue
            }
            if "<>+()[],".unicodeScalars.contains(scalar) {
                tokens.append((.symbol(String(scalar)), start, 1))
                index += 1
                continue
            }
            if scalar == "=" {
                throw Failure(offset: start, length: 1, message: "'=' is not an operator; write '==' to compare")
            }
            if scalar == "-" {
                throw Failure(
                    offset: start, length: 1,
                    message: "there is no '-' operator ('-' belongs to names like 'user-id'); only '+' adds")
            }
            if scalar == "!" {
                throw Failure(offset: start, length: 1, message: "'!' is not an operator; write 'not' or '!='")
            }
            throw Failure(offset: start, length: 1, message: "unexpected character '\(scalar)'")
        }
        tokens.append((.end, scalars.count, 1))
    }

    private func text(_ start: Int, _ end: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    // MARK: - Grammar

    private var current: (token: Token, offset: Int, length: Int) { tokens[position] }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isSymbol(_ symbol: String) -> Bool { current.token == .symbol(symbol) }

    private func isWord(_ word: String) -> Bool { current.token == .name(word) }

    private func failure(_ message: String) -> Failure {
        Failure(offset: current.offset, length: max(1, current.length), message: message)
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .name(let name): "'\(name)'"
        case .number: "a number"
        case .string: "a string"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end"
        }
    }

    private mutating func expect(_ symbol: String, closing what: String) throws(Failure) {
        guard isSymbol(symbol) else {
            throw failure("expected '\(symbol)' to close \(what), found \(describe(current.token))")
        }
        advance()
    }

    /// An expression and the depth of its tree (a literal or a variable is 1).
    private struct Parsed {
        var expression: Expression
        var depth: Int
    }

    /// `expression` with its depth, `1 +` the deepest of `children`; a failure at `offset` when that is deeper than
    /// `LoadBudget.maximumNesting`, so that nothing walking the tree (evaluation, hashing, the checks) recurses
    /// deeper than the parse allowed.
    private func node(
        _ expression: Expression, _ children: [Parsed], at offset: Int, length: Int = 1
    ) throws(Failure)
        -> Parsed
    {
        let depth = 1 + children.reduce(0) { max($0, $1.depth) }
        guard depth <= LoadBudget.maximumNesting else {
            throw Failure(offset: offset, length: max(1, length), message: Self.tooDeepMessage)
        }
        return Parsed(expression: expression, depth: depth)
    }

    /// Enters a construct that the parser reads by recursion (`(`, `{{`, `[`, a call, `not`): a failure past
    /// `LoadBudget.maximumNesting` levels, before the call stack grows with them.
    private mutating func enter() throws(Failure) {
        nesting += 1
        guard nesting <= LoadBudget.maximumNesting else { throw failure(Self.tooDeepMessage) }
    }

    private mutating func leave() { nesting -= 1 }

    private static let tooDeepMessage =
        "the expression is \(LoadBudget.nestingLimitText) (parentheses, lists, calls, 'not' and each operator of "
        + "a chain count)"

    private mutating func expression() throws(Failure) -> Parsed {
        var left = try and()
        while isWord("or") {
            let offset = current.offset
            advance()
            let right = try and()
            left = try node(.binary(.or, left.expression, right.expression, offset: offset), [left, right], at: offset)
        }
        return left
    }

    private mutating func and() throws(Failure) -> Parsed {
        var left = try not()
        while isWord("and") {
            let offset = current.offset
            advance()
            let right = try not()
            left = try node(
                .binary(.and, left.expression, right.expression, offset: offset), [left, right], at: offset, length: 3)
        }
        return left
    }

    private mutating func not() throws(Failure) -> Parsed {
        if isWord("not") {
            let offset = current.offset
            try enter()
            defer { leave() }
            advance()
            let operand = try not()
            return try node(.not(operand.expression), [operand], at: offset, length: 3)
        }
        return try comparison()
    }

    private mutating func comparison() throws(Failure) -> Parsed {
        let left = try sum()
        if isWord("exists") {
            let offset = current.offset
            advance()
            return try node(.exists(left.expression), [left], at: offset, length: 6)
        }
        let operators: [String: Expression.BinaryOperator] = [
            "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
        ]
        var found: Expression.BinaryOperator?
        switch current.token {
        case .symbol(let symbol): found = operators[symbol]
        case .name("in"): found = .contained
        case .name("matches"): found = .matches
        default: break
        }
        guard let found else { return left }
        let offset = current.offset
        let length = current.length
        advance()
        let right = try sum()
        if found == .matches, case .literal(.string(let pattern)) = right.expression {
            let regex: RegularExpression
            do {
                regex = try RegularExpression(pattern)
            } catch {
                throw Failure(
                    offset: offset, length: length, message: "invalid regular expression '\(pattern)': \(error)")
            }
            return try node(.matches(left.expression, regex), [left], at: offset, length: length)
        }
        if [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(found) {
            for side in [left, right] {
                let kind = ExpressionFunctions.staticKind(of: side.expression)
                if kind == .list || kind == .object || kind == .bool || kind == .null {
                    throw Failure(
                        offset: offset, length: length,
                        message: "'\(found.rawValue)' compares numbers or strings, not \(kind.rawValue)s")
                }
            }
        }
        switch current.token {
        case .symbol(let symbol) where operators[symbol] != nil:
            throw failure("comparisons do not chain; join them with 'and'")
        case .name("in"), .name("matches"), .name("exists"):
            throw failure("comparisons do not chain; join them with 'and'")
        default: break
        }
        return try node(
            .binary(found, left.expression, right.expression, offset: offset), [left, right], at: offset,
            length: length)
    }

    private mutating func sum() throws(Failure) -> Parsed {
        var left = try primary()
        while isSymbol("+") {
            let offset = current.offset
            advance()
            let right = try primary()
            left = try node(
                .binary(.plus, left.expression, right.expression, offset: offset), [left, right], at: offset)
        }
        return left
    }

    private mutating func primary() throws(Failure) -> Parsed {
        let (token, offset, length) = current
        switch token {
        case .number(let value):
            advance()
            return Parsed(expression: .literal(value), depth: 1)
        case .string(let value):
            advance()
            return Parsed(expression: .literal(.string(value)), depth: 1)
        case .symbol("("):
            try enter()
            defer { leave() }
            advance()
            let inner = try expression()
            try expect(")", closing: "'('")
            return inner
        case .symbol("{{"):
            try enter()
            defer { leave() }
            advance()
            let inner = try expression()
            try expect("}}", closing: "'{{'")
            return inner
        case .symbol("["):
            try enter()
            defer { leave() }
            advance()
            let items = try arguments(closing: "]")
            return try node(.list(items.map(\.expression)), items, at: offset)
        case .name(let name):
            switch name {
            case "true":
                advance()
                return Parsed(expression: .literal(.bool(true)), depth: 1)
            case "false":
                advance()
                return Parsed(expression: .literal(.bool(false)), depth: 1)
            case "null":
                advance()
                return Parsed(expression: .literal(.null), depth: 1)
            case _ where Self.keywords.contains(name):
                throw failure("expected a value, found the operator '\(name)'")
            default: break
            }
            advance()
            guard isSymbol("(") else {
                if let problem = TemplateScanner.problem(withName: name) {
                    throw Failure(offset: offset, length: length, message: problem)
                }
                return Parsed(expression: .variable(name, offset: offset), depth: 1)
            }
            try enter()
            defer { leave() }
            advance()
            let arguments = try arguments(closing: ")")
            guard let function = ExpressionFunctions.table[name] else {
                throw Failure(
                    offset: offset, length: length,
                    message: "unknown function '\(name)'"
                        + Suggestion.didYouMean(name, in: ExpressionFunctions.table.keys.sorted()))
            }
            guard function.arity.contains(arguments.count) else {
                throw Failure(
                    offset: offset, length: length,
                    message: "'\(name)' takes \(function.arityText), not \(arguments.count)")
            }
            return try node(
                .call(name, arguments.map(\.expression), offset: offset), arguments, at: offset, length: length)
        case .symbol(let symbol):
            throw failure("expected a value, found '\(symbol)'")
        case .end:
            throw failure("expected a value, found the end")
        }
    }

    private mutating func arguments(closing: String) throws(Failure) -> [Parsed] {
        var items: [Parsed] = []
        if isSymbol(closing) {
            advance()
            return items
        }
        while true {
            items.append(try expression())
            if isSymbol(",") {
                advance()
                continue
            }
            try expect(closing, closing: closing == ")" ? "the arguments" : "the list")
            return items
        }
    }
}
