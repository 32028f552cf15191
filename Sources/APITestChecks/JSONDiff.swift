import APITestJSON
import Foundation

/// The first place two JSON values differ, for failure messages: `$.user.roles[1]: expected "admin", got "user"`.
enum JSONDiff {
    /// One difference: where (a JSONPath from the compared value's root) and what.
    struct Difference: Equatable {
        /// Normalized path segments after the root, like `.roles[1]` or `['a key']`.
        var path: String
        var description: String
    }

    /// The first difference of `actual` from `expected` in document order, or `nil` when they are equal or not
    /// both containers (a plain `expected X, got Y` says it all then).
    static func firstDifference(expected: JSONValue, actual: JSONValue) -> Difference? {
        switch (expected, actual) {
        case (.object, .object), (.array, .array): return difference(expected, actual, path: "")
        default: return nil
        }
    }

    private static func difference(_ expected: JSONValue, _ actual: JSONValue, path: String) -> Difference? {
        if expected == actual { return nil }
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            for (key, value) in want.members {
                let at = path + segment(key)
                guard let other = got[key] else {
                    return Difference(path: at, description: "missing (expected \(display(value)))")
                }
                if let found = difference(value, other, path: at) { return found }
            }
            for (key, value) in got.members where want[key] == nil {
                return Difference(path: path + segment(key), description: "unexpected member \(display(value))")
            }
            return nil
        case (.array(let want), .array(let got)):
            for (index, value) in want.enumerated() {
                let at = "\(path)[\(index)]"
                guard index < got.count else {
                    return Difference(
                        path: at,
                        description: "missing: the array has \(got.count) item(s), expected \(want.count)")
                }
                if let found = difference(value, got[index], path: at) { return found }
            }
            if got.count > want.count {
                return Difference(
                    path: "\(path)[\(want.count)]",
                    description: "unexpected item \(display(got[want.count])): the array has \(got.count) item(s), "
                        + "expected \(want.count)")
            }
            return nil
        default:
            let shown = PredicateEvaluator.distinguishable(display(expected), display(actual))
            return Difference(path: path, description: "expected \(shown.expected), got \(shown.actual)")
        }
    }

    /// `.name` for plain member names, `['odd key']` otherwise (RFC 9535 normalized-path style).
    private static func segment(_ key: String) -> String {
        let isPlain =
            !key.isEmpty
            && key.unicodeScalars.enumerated().allSatisfy { offset, scalar in
                scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic)
                    || (offset > 0 && scalar.isASCII && scalar.properties.numericType != nil)
            }
        if isPlain { return "." + key }
        // RFC 9535 §2.7 escapes, so that no key from a server can break the line a path is shown on.
        let escaped = JSONPath.escapedMemberName(key)
        return "['\(escaped)']"
    }

    private static func display(_ value: JSONValue) -> String {
        // Not shortened here: the executor masks secrets first, then shortens messages.
        JSONWriter.string(value)
    }
}
