package import APITestJSON
package import APITestSupport
import Foundation

// MARK: - Evaluation

extension Expression {
    /// The expression's value in `context`.
    ///
    /// - Parameters:
    ///   - source: the expression as written, for messages.
    ///   - location: where it is written.
    ///   - undefinedIsNull: whether a variable without a value is `null` (a `when:` condition, where a capture of
    ///     a step that did not run is simply not there) rather than an undefined-variable error (a placeholder).
    package func evaluate(
        _ context: TemplateContext, source: String, location: SourceLocation?, undefinedIsNull: Bool
    ) throws(TemplateError) -> JSONValue {
        var evaluator = Evaluator(
            context: context, source: source, location: location, undefinedIsNull: undefinedIsNull)
        return try evaluator.value(of: self)
    }

    /// Whether the condition holds in `context` (`when:`): its value must be `true`, `false`, `null` (false) or
    /// the text `true` or `false`; an undefined variable is `null`.
    package func holds(
        _ context: TemplateContext, source: String, location: SourceLocation?
    ) throws(TemplateError)
        -> Bool
    {
        var evaluator = Evaluator(context: context, source: source, location: location, undefinedIsNull: true)
        return try evaluator.truth(try evaluator.value(of: self), of: self)
    }
}

/// Evaluates one expression; its errors name the expression and the values.
private struct Evaluator {
    let context: TemplateContext
    let source: String
    let location: SourceLocation?
    let undefinedIsNull: Bool

    func failure(_ text: MessageText) -> TemplateError {
        TemplateError(kind: .evaluation, text: "in '\(source)': \(text)", location: location)
    }

    mutating func value(of expression: Expression) throws(TemplateError) -> JSONValue {
        switch expression {
        case .literal(let value):
            return value
        case .variable(let name, _):
            if let value = context[name] { return value }
            if undefinedIsNull { return .null }
            throw TemplateError.undefined(name, at: location)
        case .list(let items):
            var values: [JSONValue] = []
            for item in items { values.append(try value(of: item)) }
            return .array(values)
        case .call(let name, let arguments, _):
            guard let function = ExpressionFunctions.table[name] else { throw failure("unknown function '\(name)'") }
            var values: [JSONValue] = []
            for (index, argument) in arguments.enumerated() {
                if name == "default" && index == 0 {
                    // `default(x, fallback)`: an undefined `x` is the case it is for.
                    var lenient = Evaluator(
                        context: context, source: source, location: location, undefinedIsNull: true)
                    values.append(try lenient.value(of: argument))
                } else {
                    values.append(try value(of: argument))
                }
            }
            do {
                return try function.compute(values)
            } catch {
                throw failure(error.text)
            }
        case .not(let operand):
            return .bool(!(try truth(try value(of: operand), of: operand)))
        case .exists(let operand):
            var lenient = Evaluator(context: context, source: source, location: location, undefinedIsNull: true)
            return .bool(try lenient.value(of: operand) != .null)
        case .matches(let operand, let regex):
            return .bool(try matches(try value(of: operand), regex))
        case .binary(let op, let left, let right, _):
            switch op {
            case .and:
                guard try truth(try value(of: left), of: left) else { return .bool(false) }
                return .bool(try truth(try value(of: right), of: right))
            case .or:
                if try truth(try value(of: left), of: left) { return .bool(true) }
                return .bool(try truth(try value(of: right), of: right))
            default:
                return try apply(op, try value(of: left), try value(of: right))
            }
        }
    }

    /// A condition's value as true or false.
    func truth(_ value: JSONValue, of expression: Expression) throws(TemplateError) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .null: return false
        case .string(let text) where text.lowercased() == "true": return true
        case .string(let text) where text.lowercased() == "false": return false
        default:
            throw failure("\(ExpressionFunctions.describe(value)) is neither true nor false")
        }
    }

    private func apply(
        _ op: Expression.BinaryOperator, _ left: JSONValue, _ right: JSONValue
    ) throws(TemplateError)
        -> JSONValue
    {
        switch op {
        case .equal: return .bool(Self.equal(left, right))
        case .notEqual: return .bool(!Self.equal(left, right))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = Self.order(left, right) else {
                throw failure(
                    "'\(op.rawValue)' compares numbers or strings, not \(ExpressionFunctions.describe(left)) and \(ExpressionFunctions.describe(right))"
                )
            }
            switch op {
            case .less: return .bool(order < 0)
            case .lessOrEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case .contained:
            switch right {
            case .array(let items): return .bool(items.contains { Self.equal(left, $0) })
            case .string(let text):
                guard case .string(let part) = left else {
                    throw failure("'in' a text needs a text on its left, not \(ExpressionFunctions.describe(left))")
                }
                return .bool(text.contains(part))
            case .object(let object):
                guard case .string(let key) = left else {
                    throw failure("'in' an object needs a key on its left, not \(ExpressionFunctions.describe(left))")
                }
                return .bool(object[key] != nil)
            default:
                throw failure(
                    "'in' needs a list, a text or an object on its right, not \(ExpressionFunctions.describe(right))")
            }
        case .matches:
            guard case .string(let pattern) = right else {
                throw failure(
                    "'matches' needs a regular expression on its right, not \(ExpressionFunctions.describe(right))")
            }
            let regex: RegularExpression
            do throws(LinearRegex.SyntaxError) {
                regex = try RegularExpression(pattern)
            } catch {
                throw failure("'matches': '\(pattern)' is not a valid regular expression (\(error))")
            }
            return .bool(try matches(left, regex))
        case .plus:
            if let sum = try add(left, right) { return sum }
            if case .array(let first) = left, case .array(let second) = right {
                guard first.count + second.count <= ExpressionFunctions.maximumItems else {
                    throw failure("the joined list would have more than \(ExpressionFunctions.maximumItems) items")
                }
                return .array(first + second)
            }
            let joined = TemplateContext.text(of: left) + TemplateContext.text(of: right)
            guard joined.utf8.count <= ExpressionFunctions.maximumTextBytes else {
                throw failure("the joined text would be longer than \(ExpressionFunctions.maximumTextBytes) bytes")
            }
            return .string(joined)
        case .and, .or:
            return .null // handled by the caller (short-circuit)
        }
    }

    private func matches(_ value: JSONValue, _ regex: RegularExpression) throws(TemplateError) -> Bool {
        let text: String
        switch value {
        case .string(let string): text = string
        case .integer, .double, .number, .bool: text = TemplateContext.text(of: value)
        default: throw failure("'matches' needs a text on its left, not \(ExpressionFunctions.describe(value))")
        }
        return regex.firstMatch(in: text)
    }

    // MARK: - Comparing

    /// A number as it is.
    private static func number(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .integer, .double, .number: return value
        default: return nil
        }
    }

    /// The number a text reads as (values from the environment are text), kept exactly.
    private static func numericText(_ value: JSONValue) -> JSONValue? {
        guard case .string(let text) = value else { return nil }
        return JSONValue(numberText: text.trimmingCharacters(in: .whitespaces))
    }

    /// The two values as numbers when both are, or one is and the other is numeric text.
    private static func numbers(_ left: JSONValue, _ right: JSONValue) -> (JSONValue, JSONValue)? {
        if let a = number(left), let b = number(right) { return (a, b) }
        if let a = number(left), let b = numericText(right) { return (a, b) }
        if let a = numericText(left), let b = number(right) { return (a, b) }
        return nil
    }

    /// Equality of values; a number equals a text that reads as the same number. Numbers compare by their exact
    /// decimal values (`12345678901234567890 == 12345678901234567891` is false), never through doubles.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if let (a, b) = numbers(left, right) { return JSONValue.numericOrder(a, b) == 0 }
        return left == right
    }

    /// The order of two numbers (a numeric text counts as a number beside one), exactly, or two texts; nil
    /// otherwise (and for NaN).
    static func order(_ left: JSONValue, _ right: JSONValue) -> Int? {
        if let (a, b) = numbers(left, right) { return JSONValue.numericOrder(a, b) }
        if case .string(let a) = left, case .string(let b) = right {
            if a.unicodeScalars.elementsEqual(b.unicodeScalars) { return 0 }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
        }
        return nil
    }

    /// The exact sum of two numbers (``ExactSum``); nil unless both are numbers, an error when it has no exact
    /// value.
    func add(_ left: JSONValue, _ right: JSONValue) throws(TemplateError) -> JSONValue? {
        do {
            return try ExactSum.sum(left, right)
        } catch {
            let operands: MessageText = "\(ExpressionFunctions.describe(left)) + \(ExpressionFunctions.describe(right))"
            switch error {
            case .notFinite: throw failure("\(operands): NaN and infinities have no exact sum")
            case .tooManyDigits:
                throw failure("\(operands): the exact sum would have more than \(ExactSum.maximumDigits) digits")
            case .outOfRange: throw failure("\(operands): the sum is beyond the range of numbers (about 1.8e308)")
            }
        }
    }
}
