// MARK: - Syntax tree

extension JSONPath {
    /// A query: `$` (absolute) or `@` (relative, inside filters) followed by segments.
    struct Query: Hashable, Sendable {
        var isRelative: Bool
        var segments: [Segment]

        /// A singular query (RFC 9535 §2.3.5.1): child segments with exactly one name or index selector each.
        var isSingular: Bool {
            segments.allSatisfy { segment in
                guard !segment.isDescendant, segment.selectors.count == 1 else { return false }
                switch segment.selectors[0] {
                case .name, .index: return true
                default: return false
                }
            }
        }
    }

    /// A child (`[...]`, `.name`, `.*`) or descendant (`..[...]`, `..name`, `..*`) segment.
    struct Segment: Hashable, Sendable {
        var isDescendant: Bool
        var selectors: [Selector]
    }

    enum Selector: Hashable, Sendable {
        case name(String)
        case wildcard
        case index(Int)
        case slice(start: Int?, end: Int?, step: Int?)
        case filter(FilterExpression)
    }

    /// A logical expression of a filter selector, already checked to be well-typed.
    indirect enum FilterExpression: Hashable, Sendable {
        case or([FilterExpression])
        case and([FilterExpression])
        case not(FilterExpression)
        case comparison(Comparable, ComparisonOperator, Comparable)
        /// An existence test: true when the query selects at least one node.
        case exists(Query)
        /// A test on a function whose result is LogicalType or NodesType.
        case function(FunctionCall)
    }

    enum ComparisonOperator: String, Hashable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// One side of a comparison: a literal, a singular query or a ValueType function.
    enum Comparable: Hashable, Sendable {
        case literal(JSONValue)
        case query(Query)
        case function(FunctionCall)
    }

    /// The RFC 9535 function type system (§2.4.1).
    enum FunctionType: String, Hashable, Sendable {
        case value = "ValueType"
        case logical = "LogicalType"
        case nodes = "NodesType"
    }

    /// The function extensions of RFC 9535 §2.4.4–2.4.8.
    enum Function: String, Hashable, Sendable, CaseIterable {
        case length, count, match, search, value

        var parameterTypes: [FunctionType] {
            switch self {
            case .length: return [.value]
            case .count, .value: return [.nodes]
            case .match, .search: return [.value, .value]
            }
        }

        var resultType: FunctionType {
            switch self {
            case .length, .count, .value: return .value
            case .match, .search: return .logical
            }
        }
    }

    /// A well-typed function call.
    struct FunctionCall: Hashable, Sendable {
        var function: Function
        var arguments: [FunctionArgument]
        /// For `match`/`search` with a literal pattern: the pattern, compiled once when the query is parsed.
        var compiledPattern: IRegexp?
    }

    enum FunctionArgument: Hashable, Sendable {
        case literal(JSONValue)
        case query(Query)
        case logical(FilterExpression)
        case function(FunctionCall)
    }
}
