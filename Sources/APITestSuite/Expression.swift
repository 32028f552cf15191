package import APITestJSON

// MARK: - Expression

/// An expression of a `when:` condition or of a `{{ ... }}` placeholder: values, variables, function calls and
/// operators, parsed and checked when the suite loads (`ExpressionParser`), evaluated when the step is reached
/// (`Expression+Evaluation.swift`).
package indirect enum Expression: Sendable, Hashable {
    /// A literal: a string, a number, `true`, `false` or `null`.
    case literal(JSONValue)
    /// A variable (`user.id`, `env.STAGE`), with its offset in the text (Unicode scalars).
    case variable(String, offset: Int)
    /// A list of values, `[1, "a", x]`.
    case list([Expression])
    /// A function call, `sha256(body)`; the function was checked to exist and to take this many arguments.
    case call(String, [Expression], offset: Int)
    /// `not x`.
    case not(Expression)
    /// `a OP b`.
    case binary(BinaryOperator, Expression, Expression, offset: Int)
    /// `x exists`: defined and not null.
    case exists(Expression)
    /// `s matches "regex"` with a pattern written as a literal, compiled when the suite loads.
    case matches(Expression, RegularExpression)

    /// The binary operators, loosest first: `or`; `and`; the comparisons; `+`.
    package enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
        case or
        case and
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contained = "in"
        /// `matches` with a pattern computed when the step runs.
        case matches
        case plus = "+"

        /// Whether the operator compares (`==` to `matches`).
        var isComparison: Bool { self != .or && self != .and && self != .plus }
    }

    /// The variables the expression reads, in order, each once.
    package var referencedNames: [String] {
        var names: [String] = []
        forEachVariable { name, _ in if !names.contains(name) { names.append(name) } }
        return names
    }

    /// Calls `body` with every variable the expression reads and its offset, in order.
    package func forEachVariable(_ body: (String, Int) -> Void) {
        switch self {
        case .literal: break
        case .variable(let name, let offset): body(name, offset)
        case .list(let items): for item in items { item.forEachVariable(body) }
        case .call(_, let arguments, _): for argument in arguments { argument.forEachVariable(body) }
        case .not(let operand), .exists(let operand), .matches(let operand, _): operand.forEachVariable(body)
        case .binary(_, let left, let right, _):
            left.forEachVariable(body)
            right.forEachVariable(body)
        }
    }

    /// Whether the expression calls a function (its value is then computed, not read).
    package var callsFunction: Bool {
        switch self {
        case .literal, .variable: false
        case .call: true
        case .list(let items): items.contains { $0.callsFunction }
        case .not(let operand), .exists(let operand), .matches(let operand, _): operand.callsFunction
        case .binary(_, let left, let right, _): left.callsFunction || right.callsFunction
        }
    }
}
