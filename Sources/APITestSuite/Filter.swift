package import APITestJSON

/// A transformation between a query and a predicate: `count`, `first`, `toInt`, `split: ","`, `regex: '(\d+)'`.
package enum Filter: Sendable, Hashable, CustomStringConvertible {
    /// The number of items of an array, members of an object, or characters of a string.
    case count
    case first
    case last
    /// The item at a 0-based index; a negative index counts from the end.
    case nth(Int)
    case toInt
    case toFloat
    case toString
    case lowercase
    case uppercase
    case trim
    /// A string split at every occurrence of the separator.
    case split(String)
    /// Every match of a regular expression replaced (`$1` refers to a group).
    case replace(pattern: RegularExpression, with: String)
    /// The first match's capture group 1 (or the whole match when the pattern has no group).
    case regex(RegularExpression)
    case base64Decode
    case base64Encode
    case urlDecode
    case urlEncode
    /// A JSONPath query on a string holding JSON (or on a value), compiled when the suite loads.
    case jsonpath(JSONPath)
    /// An XPath expression on a string holding XML.
    case xpath(String)
    /// Whole days from now until a date (negative when it is past).
    case daysAfterNow
    /// Whole days from a date until now (negative when it is in the future).
    case daysBeforeNow
    /// An expression function of one argument that no filter of the same name does (`sha256`, `hex`,
    /// `jsonEncode`...), applied to the value: the functions and the filters are one vocabulary.
    case function(String)

    /// The filters written as a bare name, which take no argument.
    package enum PlainName: String, Sendable, CaseIterable {
        case count, first, last, toInt, toFloat, toString, lowercase, uppercase, trim, base64Decode, base64Encode
        case urlDecode, urlEncode, daysAfterNow, daysBeforeNow

        /// The filter the name stands for.
        package var filter: Filter {
            switch self {
            case .count: .count
            case .first: .first
            case .last: .last
            case .toInt: .toInt
            case .toFloat: .toFloat
            case .toString: .toString
            case .lowercase: .lowercase
            case .uppercase: .uppercase
            case .trim: .trim
            case .base64Decode: .base64Decode
            case .base64Encode: .base64Encode
            case .urlDecode: .urlDecode
            case .urlEncode: .urlEncode
            case .daysAfterNow: .daysAfterNow
            case .daysBeforeNow: .daysBeforeNow
            }
        }
    }

    /// The filters written `{name: argument}`: the keys of a one-key filter map.
    package enum ArgumentName: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case nth, split, replace, regex, jsonpath, xpath
    }

    /// Filters written as a bare name, which take no argument.
    package static let plain: [String: Filter] = Dictionary(
        uniqueKeysWithValues: PlainName.allCases.map { ($0.rawValue, $0.filter) })

    /// Filters written `{name: argument}`.
    package static let withArgument = ArgumentName.names

    /// The expression functions of one argument usable as filters, by name (those no filter has already).
    package static let functions: [String] = ExpressionFunctions.table.filter { name, function in
        function.arity.contains(1) && plain[name] == nil && !withArgument.contains(name)
            && !ExpressionFunctions.generators.contains(name)
    }.keys.sorted()

    /// Every filter name, for suggestions.
    package static let names: [String] = plain.keys.sorted() + withArgument + functions

    package var description: String {
        switch self {
        case .count: "count"
        case .first: "first"
        case .last: "last"
        case .nth(let index): "nth \(index)"
        case .toInt: "toInt"
        case .toFloat: "toFloat"
        case .toString: "toString"
        case .lowercase: "lowercase"
        case .uppercase: "uppercase"
        case .trim: "trim"
        case .split(let separator): "split \"\(separator)\""
        case .replace(let pattern, let with): "replace /\(pattern.pattern)/ with \"\(with)\""
        case .regex(let regex): "regex /\(regex.pattern)/"
        case .base64Decode: "base64Decode"
        case .base64Encode: "base64Encode"
        case .urlDecode: "urlDecode"
        case .urlEncode: "urlEncode"
        case .jsonpath(let path): "jsonpath \(path.expression)"
        case .xpath(let expression): "xpath \(expression)"
        case .daysAfterNow: "daysAfterNow"
        case .daysBeforeNow: "daysBeforeNow"
        case .function(let name): name
        }
    }
}
