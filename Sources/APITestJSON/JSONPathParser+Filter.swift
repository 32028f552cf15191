// MARK: - Filter expressions

extension JSONPathParser {
    typealias Expression = JSONPath.FilterExpression
    typealias FunctionCall = JSONPath.FunctionCall

    /// An operand before it is known whether it is compared, tested or passed to a function.
    enum Operand {
        case literal(JSONValue)
        /// `isSingular`: the query is a singular query as RFC 9535's grammar writes one (§2.3.5.1).
        case query(JSONPath.Query, isSingular: Bool)
        case function(FunctionCall)
    }

    /// logical-expr (logical-or-expr); `seed` is an operand already parsed as the start of the first basic-expr.
    mutating func parseLogicalExpression(seed: (Operand, Int)? = nil) throws(JSONPathError) -> Expression {
        try enterNesting()
        defer { nesting -= 1 }
        var terms = [try parseLogicalAnd(seed: seed)]
        while true {
            let save = position
            skipBlanks()
            guard lookingAt("||") else {
                position = save
                break
            }
            position += 2
            skipBlanks()
            terms.append(try parseLogicalAnd(seed: nil))
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    /// logical-and-expr = basic-expr *(S "&&" S basic-expr)
    private mutating func parseLogicalAnd(seed: (Operand, Int)?) throws(JSONPathError) -> Expression {
        var terms = [try parseBasic(seed: seed)]
        while true {
            let save = position
            skipBlanks()
            guard lookingAt("&&") else {
                position = save
                break
            }
            position += 2
            skipBlanks()
            terms.append(try parseBasic(seed: nil))
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    /// basic-expr = paren-expr / comparison-expr / test-expr
    private mutating func parseBasic(seed: (Operand, Int)?) throws(JSONPathError) -> Expression {
        if seed == nil {
            if peek == "!" {
                let bang = position
                position += 1
                skipBlanks()
                if peek == "(" { return .not(try parseParenthesized()) }
                let start = position
                guard let operand = try parseOperand() else {
                    throw error(
                        "expected '(', a query or a function after '!', found \(describe(position))",
                        at: position)
                }
                let save = position
                skipBlanks()
                if comparisonOperatorAhead() != nil {
                    throw error("'!' cannot negate a comparison without parentheses", at: bang)
                }
                position = save
                return .not(try testExpression(operand, at: start))
            }
            if peek == "(" { return try parseParenthesized() }
        }
        let start = seed?.1 ?? position
        let left: Operand
        if let seed {
            left = seed.0
        } else if let operand = try parseOperand() {
            left = operand
        } else {
            throw error("expected a filter expression, found \(describe(position))", at: position)
        }
        let save = position
        skipBlanks()
        guard let (op, length) = comparisonOperatorAhead() else {
            position = save
            return try testExpression(left, at: start)
        }
        position += length
        skipBlanks()
        let rightStart = position
        guard let right = try parseOperand() else {
            throw error(
                "expected a value to compare after '\(op.rawValue)', found \(describe(position))",
                at: position)
        }
        return .comparison(try comparable(left, at: start), op, try comparable(right, at: rightStart))
    }

    /// paren-expr body: "(" S logical-expr S ")"
    private mutating func parseParenthesized() throws(JSONPathError) -> Expression {
        let open = position
        position += 1
        skipBlanks()
        let inner = try parseLogicalExpression()
        skipBlanks()
        guard peek == ")" else {
            throw error(
                "expected ')' to close the '(' at offset \(error("", at: open).offset), found "
                    + describe(position), at: position)
        }
        position += 1
        return inner
    }

    /// The comparison operator at `position`, if any, and its length.
    private func comparisonOperatorAhead() -> (JSONPath.ComparisonOperator, Int)? {
        if lookingAt("==") { return (.equal, 2) }
        if lookingAt("!=") { return (.notEqual, 2) }
        if lookingAt("<=") { return (.lessOrEqual, 2) }
        if lookingAt(">=") { return (.greaterOrEqual, 2) }
        if lookingAt("<") { return (.less, 1) }
        if lookingAt(">") { return (.greater, 1) }
        return nil
    }

    // MARK: - Operands

    /// A literal, a query (`@...` or `$...`) or a function call; nil when none starts at `position`.
    mutating func parseOperand() throws(JSONPathError) -> Operand? {
        guard let scalar = peek else { return nil }
        switch scalar {
        case "@", "$":
            position += 1
            try enterNesting()
            defer { nesting -= 1 }
            let spacedBefore = spacedBrackets
            let query = JSONPath.Query(isRelative: scalar == "@", segments: try parseSegments())
            return .query(query, isSingular: query.isSingular && spacedBrackets == spacedBefore)
        case "'", "\"":
            return .literal(.string(try parseStringLiteral()))
        case "-", "0"..."9":
            return .literal(try parseNumberLiteral())
        case "a"..."z":
            let start = position
            var name = ""
            while let next = peek, ("a"..."z").contains(next) || ("0"..."9").contains(next) || next == "_" {
                name.unicodeScalars.append(next)
                position += 1
            }
            if peek == "(" { return .function(try parseFunctionCall(name: name, at: start)) }
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let scalar = peek, Self.isBlank(scalar), JSONPath.Function(rawValue: name) != nil {
                    throw error("no whitespace is allowed between a function name and '('", at: position)
                }
                throw error("unknown name '\(name)': expected true, false, null or a function call", at: start)
            }
        default:
            return nil
        }
    }

    /// number = (int / "-0") [ frac ] [ exp ]
    private mutating func parseNumberLiteral() throws(JSONPathError) -> JSONValue {
        let start = position
        var text = ""
        func take(_ parser: inout JSONPathParser, _ text: inout String) {
            text.unicodeScalars.append(parser.scalars[parser.position])
            parser.position += 1
        }
        if peek == "-" { take(&self, &text) }
        guard let first = peek, ("0"..."9").contains(first) else {
            throw error("expected a digit, found \(describe(position))", at: position)
        }
        if first == "0" {
            take(&self, &text)
            if let next = peek, ("0"..."9").contains(next) {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            while let next = peek, ("0"..."9").contains(next) { take(&self, &text) }
        }
        if peek == "." {
            take(&self, &text)
            guard let next = peek, ("0"..."9").contains(next) else {
                throw error("expected a digit after the decimal point, found \(describe(position))", at: position)
            }
            while let next = peek, ("0"..."9").contains(next) { take(&self, &text) }
        }
        if peek == "e" || peek == "E" {
            take(&self, &text)
            if peek == "+" || peek == "-" { take(&self, &text) }
            guard let next = peek, ("0"..."9").contains(next) else {
                throw error("expected a digit in the exponent, found \(describe(position))", at: position)
            }
            while let next = peek, ("0"..."9").contains(next) { take(&self, &text) }
        }
        guard let number = JSONValue(numberText: text) else { throw error("invalid number", at: start) }
        return number
    }

    // MARK: - Functions

    /// function-expr = function-name "(" S [function-argument *(S "," S function-argument)] S ")"
    private mutating func parseFunctionCall(name: String, at start: Int) throws(JSONPathError) -> FunctionCall {
        guard let function = JSONPath.Function(rawValue: name) else {
            throw error("unknown function '\(name)' (known: length, count, match, search, value)", at: start)
        }
        try enterNesting()
        defer { nesting -= 1 }
        position += 1
        skipBlanks()
        var arguments: [(Operand?, Expression?, Int)] = []
        if peek == ")" {
            position += 1
        } else {
            while true {
                arguments.append(try parseArgument())
                skipBlanks()
                if peek == "," {
                    position += 1
                    skipBlanks()
                } else if peek == ")" {
                    position += 1
                    break
                } else {
                    throw error(
                        "expected ',' or ')' after function argument, found \(describe(position))",
                        at: position)
                }
            }
        }
        let parameters = function.parameterTypes
        guard arguments.count == parameters.count else {
            let plural = parameters.count == 1 ? "argument" : "arguments"
            throw error("function '\(name)' takes \(parameters.count) \(plural), found \(arguments.count)", at: start)
        }
        var typed: [JSONPath.FunctionArgument] = []
        for (argument, parameter) in zip(arguments, parameters) {
            typed.append(try typedArgument(argument, for: parameter, of: name))
        }
        var compiledPattern: IRegexp?
        if function == .match || function == .search, case .literal(.string(let pattern)) = typed[1] {
            // A pattern written in the path that is not I-Regexp could never match: an error, not a silent false.
            let compiled = IRegexp(pattern)
            guard compiled.isValid else {
                throw error(
                    "'\(pattern)' is not a valid I-Regexp (RFC 9485) for \(name)() "
                        + "(or it repeats more than 1000 times)",
                    at: arguments[1].2)
            }
            compiledPattern = compiled
        }
        return FunctionCall(function: function, arguments: typed, compiledPattern: compiledPattern)
    }

    /// function-argument = literal / filter-query / logical-expr / function-expr
    private mutating func parseArgument() throws(JSONPathError) -> (Operand?, Expression?, Int) {
        let start = position
        if peek == "!" || peek == "(" {
            return (nil, try parseLogicalExpression(), start)
        }
        guard let operand = try parseOperand() else {
            throw error("expected a function argument, found \(describe(position))", at: position)
        }
        let save = position
        skipBlanks()
        if peek == "," || peek == ")" {
            position = save
            return (operand, nil, start)
        }
        position = save
        return (nil, try parseLogicalExpression(seed: (operand, start)), start)
    }

    // MARK: - Type checking (RFC 9535 §2.4.3)

    private func typedArgument(
        _ argument: (Operand?, Expression?, Int), for parameter: JSONPath.FunctionType, of name: String
    ) throws(JSONPathError) -> JSONPath.FunctionArgument {
        let (operand, logical, start) = argument
        switch (parameter, operand) {
        case (.value, .literal(let value)?):
            return .literal(value)
        case (.value, .query(let query, let isSingular)?):
            guard isSingular else {
                throw error(
                    "function '\(name)' needs a value here, but this is not a singular query", at: start)
            }
            return .query(query)
        case (.value, .function(let call)?):
            guard call.function.resultType == .value else {
                throw error(
                    "function '\(name)' needs a value here, but '\(call.function.rawValue)' returns "
                        + call.function.resultType.rawValue, at: start)
            }
            return .function(call)
        case (.nodes, .query(let query, _)?):
            return .query(query)
        case (.nodes, .function(let call)?) where call.function.resultType == .nodes:
            return .function(call)
        case (.logical, .query(let query, _)?):
            return .logical(.exists(query))
        case (.logical, .function(let call)?) where call.function.resultType != .value:
            return .logical(.function(call))
        case (.logical, nil):
            if let logical { return .logical(logical) }
        default:
            break
        }
        let found: String
        switch operand {
        case .literal: found = "a literal"
        case .function(let call): found = "'\(call.function.rawValue)' (\(call.function.resultType.rawValue))"
        case .query: found = "a query"
        case nil: found = "a logical expression"
        }
        throw error("function '\(name)' expects \(parameter.rawValue) here, found \(found)", at: start)
    }

    /// An operand used on one side of a comparison: a literal, a singular query or a ValueType function.
    private func comparable(_ operand: Operand, at start: Int) throws(JSONPathError) -> JSONPath.Comparable {
        switch operand {
        case .literal(let value):
            return .literal(value)
        case .query(let query, let isSingular):
            guard isSingular else {
                throw error(
                    "only singular queries (one name or index per segment, no blanks inside brackets) can be "
                        + "compared", at: start)
            }
            return .query(query)
        case .function(let call):
            guard call.function.resultType == .value else {
                throw error(
                    "'\(call.function.rawValue)' returns \(call.function.resultType.rawValue) and cannot "
                        + "be compared", at: start)
            }
            return .function(call)
        }
    }

    /// An operand used on its own as a test: a query (existence) or a LogicalType/NodesType function.
    private func testExpression(_ operand: Operand, at start: Int) throws(JSONPathError) -> Expression {
        switch operand {
        case .literal:
            throw error("a literal cannot be a test on its own; compare it with something", at: start)
        case .query(let query, _):
            return .exists(query)
        case .function(let call):
            guard call.function.resultType != .value else {
                throw error(
                    "'\(call.function.rawValue)' returns ValueType, so its result must be compared",
                    at: start)
            }
            return .function(call)
        }
    }

    private mutating func enterNesting() throws(JSONPathError) {
        nesting += 1
        if nesting > Self.maximumNesting {
            throw error("expression nests deeper than \(Self.maximumNesting) levels", at: position)
        }
    }
}
