// MARK: - Filter expressions

extension JSONPathEvaluator {
    /// The result of a function: RFC 9535's ValueType (nil is Nothing), LogicalType or NodesType.
    enum FunctionResult {
        case value(JSONValue?)
        case logical(Bool)
        case nodes([JSONValue])
    }

    /// Whether `expression` holds for the filter's current node `current`.
    func test(_ expression: JSONPath.FilterExpression, current: JSONValue) -> Bool {
        switch expression {
        case .or(let terms):
            return terms.contains { test($0, current: current) }
        case .and(let terms):
            return terms.allSatisfy { test($0, current: current) }
        case .not(let inner):
            return !test(inner, current: current)
        case .comparison(let left, let op, let right):
            return Self.compare(value(of: left, current: current), op, value(of: right, current: current))
        case .exists(let query):
            return exists(query, current: current)
        case .function(let call):
            switch evaluate(call, current: current) {
            case .logical(let flag): return flag
            case .nodes(let nodes): return !nodes.isEmpty
            case .value(let value): return value != nil
            }
        }
    }

    private func exists(_ query: JSONPath.Query, current: JSONValue) -> Bool {
        if query.isSingular { return singularValue(query, current: current) != nil }
        return !nodes(query, current: current).isEmpty
    }

    private func nodes(_ query: JSONPath.Query, current: JSONValue) -> [JSONValue] {
        select(query.segments, from: query.isRelative ? current : root, at: NoLocation()).map(\.value)
    }

    /// The node a singular query selects, or nil (Nothing).
    private func singularValue(_ query: JSONPath.Query, current: JSONValue) -> JSONValue? {
        var value = query.isRelative ? current : root
        for segment in query.segments {
            switch segment.selectors.first {
            case .name(let name)?:
                guard case .object(let object) = value, let member = object[name] else { return nil }
                value = member
            case .index(let index)?:
                guard case .array(let elements) = value else { return nil }
                let normalized = index < 0 ? elements.count + index : index
                guard normalized >= 0 && normalized < elements.count else { return nil }
                value = elements[normalized]
            default:
                return nil
            }
        }
        return value
    }

    private func value(of comparable: JSONPath.Comparable, current: JSONValue) -> JSONValue? {
        switch comparable {
        case .literal(let value): return value
        case .query(let query): return singularValue(query, current: current)
        case .function(let call):
            if case .value(let value) = evaluate(call, current: current) { return value }
            return nil
        }
    }

    // MARK: - Functions

    func evaluate(_ call: JSONPath.FunctionCall, current: JSONValue) -> FunctionResult {
        switch call.function {
        case .length:
            switch valueArgument(call.arguments[0], current: current) {
            case .string(let string)?: return .value(.integer(Int64(string.unicodeScalars.count)))
            case .array(let elements)?: return .value(.integer(Int64(elements.count)))
            case .object(let object)?: return .value(.integer(Int64(object.count)))
            default: return .value(Optional<JSONValue>.none)
            }
        case .count:
            return .value(.integer(Int64(nodesArgument(call.arguments[0], current: current).count)))
        case .value:
            let nodes = nodesArgument(call.arguments[0], current: current)
            // Not `nodes.count == 1 ? nodes[0] : nil`: JSONValue is ExpressibleByNilLiteral, so that is `.null`.
            guard nodes.count == 1 else { return .value(Optional<JSONValue>.none) }
            return .value(nodes[0])
        case .match, .search:
            guard case .string(let subject)? = valueArgument(call.arguments[0], current: current) else {
                return .logical(false)
            }
            let pattern: IRegexp
            if let compiled = call.compiledPattern {
                pattern = compiled
            } else if case .string(let text)? = valueArgument(call.arguments[1], current: current) {
                pattern = dynamicPattern(text)
            } else {
                return .logical(false)
            }
            return .logical(pattern.matches(subject, wholeString: call.function == .match))
        }
    }

    private func dynamicPattern(_ text: String) -> IRegexp {
        if let cached = dynamicPatterns[CodePointKey(text)] { return cached }
        let compiled = IRegexp(text)
        dynamicPatterns[CodePointKey(text)] = compiled
        return compiled
    }

    private func valueArgument(_ argument: JSONPath.FunctionArgument, current: JSONValue) -> JSONValue? {
        switch argument {
        case .literal(let value): return value
        case .query(let query): return singularValue(query, current: current)
        case .function(let call):
            if case .value(let value) = evaluate(call, current: current) { return value }
            return nil
        case .logical: return nil
        }
    }

    private func nodesArgument(_ argument: JSONPath.FunctionArgument, current: JSONValue) -> [JSONValue] {
        switch argument {
        case .query(let query): return nodes(query, current: current)
        case .function(let call):
            if case .nodes(let nodes) = evaluate(call, current: current) { return nodes }
            return []
        case .literal, .logical: return []
        }
    }
}

// MARK: - Comparisons (RFC 9535 §2.3.5.2.2)

extension JSONPathEvaluator {
    /// Compares two comparables; nil is Nothing (an empty nodelist or a function's Nothing).
    static func compare(_ left: JSONValue?, _ op: JSONPath.ComparisonOperator, _ right: JSONValue?) -> Bool {
        switch op {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return less(left, right)
        case .greater: return less(right, left)
        case .lessOrEqual: return less(left, right) || equal(left, right)
        case .greaterOrEqual: return less(right, left) || equal(left, right)
        }
    }

    private static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (.none, .none): return true
        case (let left?, let right?): return deepEqual(left, right)
        default: return false
        }
    }

    /// Type-aware equality: numbers by value, strings by Unicode scalars, arrays and objects member by member.
    static func deepEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a.hasSameCodePoints(as: b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { deepEqual($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.members.allSatisfy { member in b[member.key].map { deepEqual(member.value, $0) } ?? false }
        default:
            if let order = numericOrder(left, right) { return order == 0 }
            return false
        }
    }

    private static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return false }
        if case .string(let a) = left, case .string(let b) = right {
            return a.precedesInCodePointOrder(b)
        }
        if let order = numericOrder(left, right) { return order < 0 }
        return false
    }

    /// -1, 0 or 1 comparing two numbers exactly (see ``JSONValue/numericOrder(_:_:)``); nil unless both are
    /// numbers.
    static func numericOrder(_ left: JSONValue, _ right: JSONValue) -> Int? {
        JSONValue.numericOrder(left, right)
    }
}
