/// A comparison an assertion applies to its subject, written `{predicate: argument}` in a suite.
package enum Predicate: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Equal as JSON values: of the same JSON type (the string `"5"` is not the number `5`; text from a header or
    /// the body may stand for the number or boolean it spells), numbers numerically, strings by code points, objects
    /// ignoring member order.
    case equals
    case notEquals
    /// A string contains a substring, or an array contains an element equal to the argument.
    case contains
    case notContains
    case startsWith
    case endsWith
    /// A string matches a regular expression (``RegularExpression``: ICU syntax, linear time; a match anywhere).
    case matches
    /// The subject is present (`true`) or absent (`false`).
    case exists
    /// The subject is absent (`true`) or present (`false`).
    case notExists
    /// An empty string, array or object (`true`), or a non-empty one (`false`).
    case isEmpty
    /// Numbers compare numerically; two strings compare by code points (so ISO-8601 dates order correctly); a JSON
    /// string never orders against a number (text from a header or the body does, when it reads as one).
    case greaterThan
    case greaterThanOrEqual
    case lessThan
    case lessThanOrEqual
    /// Between two bounds, both included: `between: [1, 10]`.
    case between
    /// Equal to one of the listed values.
    case oneOf
    /// Of a JSON type, or one of several: `type: integer`, `type: [string, null]`.
    case type

    /// The predicate's key, as written in a suite.
    package var description: String { rawValue }

    /// The predicate names, for suggestions and messages.
    package static let names: [String] = allCases.map(\.rawValue)

    /// True for the ordering predicates, which take a number (or a string, a date).
    package var isComparison: Bool {
        switch self {
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual: true
        default: false
        }
    }

    /// True for the predicates that hold when the subject is absent.
    package var holdsForAbsent: Bool {
        switch self {
        case .notEquals, .notContains: true
        default: false
        }
    }
}

/// A type a `type` predicate checks for.
package enum ValueType: String, Sendable, Hashable, CaseIterable {
    case string
    /// A number without a fractional part (`3` and `3.0`).
    case integer
    case number
    case boolean
    case null
    case array
    case object
    /// A string holding an ISO-8601 date or date-time (`2026-11-22`, `2026-11-22T10:00:00Z`).
    case date

    /// The type names, for suggestions and messages.
    package static let names: [String] = allCases.map(\.rawValue)
}
