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
        /// What was found, as a failure shows it: written when first read (a check that passes never reads it),
        /// or as set.
        var actual: String {
            get { actualText ?? Self.describe(subject, unit: unit, typeName: typeName) }
            set { actualText = newValue }
        }
        private var actualText: String?
        private let subject: JSONValue?
        private let unit: String?
        /// The subject's type, written before it (`string "x"`) by a `type` check.
        private let typeName: String?

        init(passed: Bool, expectation: String, actual: String) {
            self.passed = passed
            self.expectation = expectation
            actualText = actual
            subject = nil
            unit = nil
            typeName = nil
        }

        /// An outcome whose `actual` is `subject` shown with `unit`, after `typeName` when given.
        init(passed: Bool, expectation: String, subject: JSONValue?, unit: String?, typeName: String? = nil) {
            self.passed = passed
            self.expectation = expectation
            actualText = nil
            self.subject = subject
            self.unit = unit
            self.typeName = typeName
        }

        private static func describe(_ subject: JSONValue?, unit: String?, typeName: String?) -> String {
            let shown = subject.map { PredicateEvaluator.display($0, unit: unit) } ?? "nothing"
            return typeName.map { "\($0) \(shown)" } ?? shown
        }
    }

    /// The `matches` patterns with placeholders, compiled once rendered, by their rendered text.
    private let regexCache = Mutex<[String: NSRegularExpression]>([:])

    /// Checks `predicate(argument)` against `subject`; `nil` means the subject is absent. Numbers in the
    /// expectation and the actual value are shown with `unit` (`ms` for `duration`) when there is one. `pattern`
    /// is the argument of `matches` compiled when the suite loaded (`Assertion.pattern`), when it has no
    /// placeholders.
    func evaluate(
        _ predicate: APITestSuite.Predicate, subject: JSONValue?, argument: JSONValue, unit: String? = nil,
        pattern compiled: RegularExpression? = nil
    ) -> Outcome {
        let show = { (value: JSONValue) in Self.display(value, unit: unit) }
        func outcome(_ passed: Bool, _ expectation: String) -> Outcome {
            Outcome(passed: passed, expectation: expectation, subject: subject, unit: unit)
        }
        let argumentText = show(argument)
        switch predicate {
        case .exists, .notExists:
            let wanted = (argument != .bool(false)) != (predicate == .notExists)
            return outcome((subject != nil) == wanted, wanted ? "to exist" : "not to exist")
        case .isEmpty:
            let wanted = argument != .bool(false)
            guard let subject, let empty = Self.isEmpty(subject) else {
                return outcome(
                    false, wanted ? "an empty string, array or object" : "a non-empty string, array or object")
            }
            return outcome(empty == wanted, wanted ? "to be empty" : "not to be empty")
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
            let passed =
                subject.flatMap(Self.scalarText).map { $0.hasPrefix(TemplateContext.text(of: argument)) } ?? false
            return outcome(passed, "to start with \(argumentText)")
        case .endsWith:
            let passed =
                subject.flatMap(Self.scalarText).map { $0.hasSuffix(TemplateContext.text(of: argument)) } ?? false
            return outcome(passed, "to end with \(argumentText)")
        case .matches:
            let pattern = compiled?.pattern ?? TemplateContext.text(of: argument)
            guard let regex = compiled?.expression ?? regex(pattern) else {
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
            guard let subject, let order = Self.compare(subject, argument) else {
                let kind = Self.number(argument) != nil ? "a number" : "a string"
                return outcome(false, "\(kind) \(symbol) \(argumentText)")
            }
            let passed: Bool
            switch predicate {
            case .greaterThan: passed = order == .orderedDescending
            case .greaterThanOrEqual: passed = order != .orderedAscending
            case .lessThan: passed = order == .orderedAscending
            default: passed = order != .orderedDescending
            }
            return outcome(passed, "\(symbol) \(argumentText)")
        case .between:
            let bounds = argument.arrayValue ?? []
            guard bounds.count == 2 else { return outcome(false, "between two bounds, got \(argumentText)") }
            let expectation = "between \(show(bounds[0])) and \(show(bounds[1]))"
            guard let subject, let low = Self.compare(subject, bounds[0]), let high = Self.compare(subject, bounds[1])
            else { return outcome(false, expectation) }
            return outcome(low != .orderedAscending && high != .orderedDescending, expectation)
        case .type:
            let names = (argument.arrayValue ?? [argument]).map { TemplateContext.text(of: $0) }
            let expectation = "of type " + names.joined(separator: " or ")
            guard let subject else { return outcome(false, expectation) }
            let passed = names.contains { name in ValueType(rawValue: name).map { Self.isOfType(subject, $0) } ?? false
            }
            return Outcome(
                passed: passed, expectation: expectation, subject: subject, unit: unit, typeName: subject.typeName)
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
            case .integer, .double, .number, .bool: return text == TemplateContext.text(of: argument)
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

    /// A number, or the number a string reads as (exactly for decimal text, else as `Double` reads it).
    static func number(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .integer, .double, .number: return value
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return JSONValue(numberText: trimmed) ?? Double(trimmed).map(JSONValue.double)
        default: return nil
        }
    }

    /// The order of two values: numerically (exactly, by decimal value) when both are numbers (or numeric
    /// strings), by characters when both are strings; `nil` otherwise.
    static func compare(_ left: JSONValue, _ right: JSONValue) -> ComparisonResult? {
        if let a = number(left), let b = number(right) {
            guard let order = JSONValue.numericOrder(a, b) else { return nil }
            return order < 0 ? .orderedAscending : (order > 0 ? .orderedDescending : .orderedSame)
        }
        if case .string(let a) = left, case .string(let b) = right {
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        }
        return nil
    }

    /// The text of a string, number or boolean (as JSON writes it); `nil` for null, arrays and objects.
    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string, .integer, .double, .number, .bool: TemplateContext.text(of: value)
        default: nil
        }
    }

    /// Whether a string, array or object is empty; `nil` for other values.
    static func isEmpty(_ value: JSONValue) -> Bool? {
        switch value {
        case .string(let text): text.isEmpty
        case .array(let items): items.isEmpty
        case .object(let object): object.count == 0
        default: nil
        }
    }

    static func isOfType(_ value: JSONValue, _ type: ValueType) -> Bool {
        switch (type, value) {
        case (.string, .string), (.boolean, .bool), (.null, .null), (.array, .array), (.object, .object): true
        case (.number, .integer), (.number, .double), (.number, .number), (.integer, .integer): true
        case (.integer, .double(let number)): number.rounded() == number && number.isFinite
        case (.integer, .number(let number)): number.isInteger
        case (.date, .string(let text)): DateParser.isISO8601(text)
        default: false
        }
    }

    /// How a value is shown in a message: JSON, so strings are quoted. Not truncated here: the executor masks
    /// secrets first, then shortens with `truncated(_:)`.
    static func display(_ value: JSONValue) -> String {
        JSONWriter.string(value)
    }

    /// `display(value)`, with `unit` after a number (`500ms`).
    static func display(_ value: JSONValue, unit: String?) -> String {
        switch value {
        case .integer, .double: return JSONWriter.string(value) + (unit ?? "")
        default: return JSONWriter.string(value)
        }
    }

    /// `text` cut to `limit` characters with its full size noted, for messages.
    static func truncated(_ text: String, limit: Int = 300) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes)"
    }
}
