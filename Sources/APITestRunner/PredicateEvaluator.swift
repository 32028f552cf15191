import APITestJSON
import APITestSuite
import Foundation
import Synchronization

/// Applies a predicate to a subject and says, when it does not hold, what was expected and what was found.
final class PredicateEvaluator: Sendable {
    /// The outcome of one check.
    struct Outcome: Sendable {
        var passed: Bool
        /// `expected …` phrase, e.g. `to contain "json"`.
        var expectation: String
        var actual: String
    }

    private let regexCache = Mutex<[String: NSRegularExpression]>([:])

    /// Checks `predicate(argument)` against `subject`; `nil` means the subject is absent.
    func evaluate(_ predicate: APITestSuite.Predicate, subject: JSONValue?, argument: JSONValue) -> Outcome {
        let actual = subject.map(Self.display) ?? "nothing"
        func outcome(_ passed: Bool, _ expectation: String) -> Outcome {
            Outcome(passed: passed, expectation: expectation, actual: actual)
        }
        let argumentText = Self.display(argument)
        switch predicate {
        case .exists:
            let wanted = argument == .bool(false) ? false : true
            return outcome((subject != nil) == wanted, wanted ? "to exist" : "not to exist")
        case .equals:
            return outcome(subject.map { Self.equal($0, argument) } ?? false, argumentText)
        case .notEquals:
            return outcome(!(subject.map { Self.equal($0, argument) } ?? false), "not \(argumentText)")
        case .oneOf:
            let options = argument.arrayValue ?? [argument]
            let passed = subject.map { value in options.contains { Self.equal(value, $0) } } ?? false
            return outcome(passed, "one of \(argumentText)")
        case .contains, .notContains:
            let found = subject.map { Self.contains($0, argument) } ?? false
            return predicate == .contains
                ? outcome(found, "to contain \(argumentText)")
                : outcome(!found, "not to contain \(argumentText)")
        case .startsWith:
            let passed = subject?.stringValue.map { $0.hasPrefix(TemplateContext.text(of: argument)) } ?? false
            return outcome(passed, "to start with \(argumentText)")
        case .endsWith:
            let passed = subject?.stringValue.map { $0.hasSuffix(TemplateContext.text(of: argument)) } ?? false
            return outcome(passed, "to end with \(argumentText)")
        case .matches:
            let pattern = TemplateContext.text(of: argument)
            guard let regex = regex(pattern) else {
                return outcome(false, "to match an invalid pattern /\(pattern)/")
            }
            let passed =
                subject.map { value -> Bool in
                    let text = TemplateContext.text(of: value)
                    return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                } ?? false
            return outcome(passed, "to match /\(pattern)/")
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual:
            let symbol: String
            switch predicate {
            case .greaterThan: symbol = ">"
            case .greaterThanOrEqual: symbol = ">="
            case .lessThan: symbol = "<"
            default: symbol = "<="
            }
            guard let left = subject.flatMap(Self.number), let right = Self.number(argument) else {
                return outcome(false, "a number \(symbol) \(argumentText)")
            }
            let passed: Bool
            switch predicate {
            case .greaterThan: passed = left > right
            case .greaterThanOrEqual: passed = left >= right
            case .lessThan: passed = left < right
            default: passed = left <= right
            }
            return outcome(passed, "\(symbol) \(argumentText)")
        }
    }

    private func regex(_ pattern: String) -> NSRegularExpression? {
        if let cached = regexCache.withLock({ $0[pattern] }) { return cached }
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        regexCache.withLock { $0[pattern] = regex }
        return regex
    }

    // MARK: - Value semantics

    /// JSON equality, except that a string subject (a header, say) equals a scalar argument with the same text.
    static func equal(_ subject: JSONValue, _ argument: JSONValue) -> Bool {
        if subject == argument { return true }
        if case .string(let text) = subject {
            switch argument {
            case .integer, .double, .bool: return text == TemplateContext.text(of: argument)
            default: return false
            }
        }
        return false
    }

    static func contains(_ subject: JSONValue, _ argument: JSONValue) -> Bool {
        switch subject {
        case .string(let text): return text.contains(TemplateContext.text(of: argument))
        case .array(let items): return items.contains { equal($0, argument) }
        case .object(let object):
            if case .string(let key) = argument { return object[key] != nil }
            return false
        default: return false
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer, .double: return value.doubleValue
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// How a value is shown in a message: JSON, so strings are quoted. Not truncated here: the executor masks
    /// secrets first, then shortens with `truncated(_:)`.
    static func display(_ value: JSONValue) -> String {
        JSONWriter.string(value)
    }

    /// `text` cut to `limit` characters with its full size noted, for messages.
    static func truncated(_ text: String, limit: Int = 300) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes)"
    }
}
