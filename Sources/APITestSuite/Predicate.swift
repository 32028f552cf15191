/// A comparison an assertion applies to its subject, written `{predicate: argument}` in a suite.
public enum Predicate: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Equal as JSON values (numbers compare numerically, objects ignore member order).
    case equals
    case notEquals
    /// A string contains a substring, or an array contains an element equal to the argument.
    case contains
    case notContains
    case startsWith
    case endsWith
    /// A string matches a regular expression (NSRegularExpression syntax; a match anywhere, anchor with `^...$`).
    case matches
    /// The subject is present (`true`) or absent (`false`).
    case exists
    case greaterThan
    case greaterThanOrEqual
    case lessThan
    case lessThanOrEqual
    /// Equal to one of the listed values.
    case oneOf

    /// The predicate's key, as written in a suite.
    public var description: String { rawValue }

    /// The predicate names, for suggestions and messages.
    public static let names: [String] = allCases.map(\.rawValue)

    /// True for the ordering predicates, which take a number.
    public var isComparison: Bool {
        switch self {
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual: true
        default: false
        }
    }
}
