import APITestJSON
import APITestSuite
import Foundation
import Synchronization

/// Applies a predicate to a subject and says, when it does not hold, what was expected and what was found.
///
/// How strictly types compare depends on where the subject comes from (``Source``): a JSON value compares by its
/// JSON type (the string `"5"` is not the number `5`), text (a header, the body, a regex group) also as the number
/// or boolean it spells. Strings compare by code points, never by Unicode canonical equivalence.
package final class PredicateEvaluator: Sendable {
    /// Where a subject comes from, which decides whether a string may stand for the number or boolean it spells.
    enum Source: Sendable, Hashable {
        /// A typed value: a JSONPath query's result (or one filtered from it), or a number or flag apitest reads
        /// from the transfer (`status`, `duration`). JSON types compare exactly: `"5"` equals neither `5` nor
        /// `"5.0"`, `"true"` is not `true`, and a string never orders against a number.
        case json
        /// Text without types of its own: a header, a cookie, the body, a regex group, an XPath string value, the
        /// URL. A string equals a number or boolean argument that JSON writes with the same text (`"5"` equals `5`),
        /// and orders numerically against a number when it reads as one.
        case text
    }

    /// The outcome of one check.
    struct Outcome: Sendable {
        var passed: Bool
        /// `expected …` phrase, e.g. `to contain "json"`: one that shows the check's argument is written when first
        /// read (a check that passes and is not listed never reads it), or as set.
        var expectation: String {
            get {
                switch phrase {
                case .text(let text): text
                case .argument(let prefix, let argument): prefix + PredicateEvaluator.display(argument, unit: unit)
                }
            }
            set { phrase = .text(newValue) }
        }
        /// What ``expectation`` says: as written, or a prefix and the argument shown after it.
        private enum Phrase {
            case text(String)
            case argument(prefix: String, JSONValue)
        }
        private var phrase: Phrase
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
            phrase = .text(expectation)
            actualText = actual
            subject = nil
            unit = nil
            typeName = nil
        }

        /// An outcome whose `actual` is `subject` shown with `unit`, after `typeName` when given.
        init(passed: Bool, expectation: String, subject: JSONValue?, unit: String?, typeName: String? = nil) {
            self.passed = passed
            phrase = .text(expectation)
            actualText = nil
            self.subject = subject
            self.unit = unit
            self.typeName = typeName
        }

        /// An outcome whose `expectation` is `prefix` and then `argument` shown with `unit`, and whose `actual` is
        /// `subject` shown with `unit`.
        init(passed: Bool, prefix: String, argument: JSONValue, subject: JSONValue?, unit: String?) {
            self.passed = passed
            phrase = .argument(prefix: prefix, argument)
            actualText = nil
            self.subject = subject
            self.unit = unit
            typeName = nil
        }

        private static func describe(_ subject: JSONValue?, unit: String?, typeName: String?) -> String {
            let shown = subject.map { PredicateEvaluator.display($0, unit: unit) } ?? "nothing"
            return typeName.map { "\($0) \(shown)" } ?? shown
        }
    }

    /// The `matches` patterns with placeholders, compiled once rendered, by their rendered text's code points
    /// (a `[String: …]` key would reuse `^\u{E9}$` for the canonically equal `^e\u{301}$`). At most
    /// ``regexCacheLimit`` of them: a pattern built from a capture is new in every test (and every iteration of a
    /// load run), and the cache grew without bound; when it is full it is emptied and starts again.
    private let regexCache = Mutex<[CodePointKey: RegularExpression]>([:])
    /// How many rendered patterns ``regexCache`` keeps at most.
    static let regexCacheLimit = 256

    /// How many rendered patterns the cache holds now.
    var cachedPatternCount: Int { regexCache.withLock { $0.count } }

    /// Checks `predicate(argument)` against `subject`, which comes from `source` (JSON, strict, unless said);
    /// `nil` means the subject is absent. Numbers in the expectation and the actual value are shown with `unit` (`ms` for `duration`) when
    /// there is one. `pattern` is the argument of `matches` compiled when the suite loaded (`Assertion.pattern`),
    /// when it has no placeholders.
    func evaluate(
        _ predicate: APITestSuite.Predicate, subject: JSONValue?, from source: Source = .json, argument: JSONValue,
        unit: String? = nil, pattern compiled: RegularExpression? = nil
    ) -> Outcome {
        let show = { (value: JSONValue) in Self.display(value, unit: unit) }
        func outcome(_ passed: Bool, _ expectation: String) -> Outcome {
            Outcome(passed: passed, expectation: expectation, subject: subject, unit: unit)
        }
        /// An outcome expecting `prefix` and the argument, shown only when read.
        func outcome(_ passed: Bool, showing prefix: String) -> Outcome {
            Outcome(passed: passed, prefix: prefix, argument: argument, subject: subject, unit: unit)
        }
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
            return outcome(subject.map { Self.equal($0, argument, source) } ?? false, showing: "")
        case .notEquals:
            return outcome(!(subject.map { Self.equal($0, argument, source) } ?? false), showing: "not ")
        case .oneOf:
            let options = argument.arrayValue ?? [argument]
            let passed = subject.map { value in options.contains { Self.equal(value, $0, source) } } ?? false
            return outcome(passed, showing: "one of ")
        case .contains, .notContains:
            let found = subject.map { Self.contains($0, argument, source) } ?? false
            return predicate == .contains
                ? outcome(found, showing: "to contain ")
                : outcome(!found, showing: "not to contain ")
        case .startsWith:
            let passed =
                subject.flatMap(Self.scalarText).map { $0.hasCodePointPrefix(TemplateContext.text(of: argument)) }
                ?? false
            return outcome(passed, showing: "to start with ")
        case .endsWith:
            let passed =
                subject.flatMap(Self.scalarText).map { $0.hasCodePointSuffix(TemplateContext.text(of: argument)) }
                ?? false
            return outcome(passed, showing: "to end with ")
        case .matches:
            let pattern = compiled?.pattern ?? TemplateContext.text(of: argument)
            guard let regex = compiled ?? regex(pattern) else {
                return outcome(false, "to match an invalid pattern /\(pattern)/")
            }
            let passed = subject.map { regex.firstMatch(in: TemplateContext.text(of: $0)) } ?? false
            return outcome(passed, "to match /\(pattern)/")
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual:
            let symbol: String
            switch predicate {
            case .greaterThan: symbol = ">"
            case .greaterThanOrEqual: symbol = ">="
            case .lessThan: symbol = "<"
            default: symbol = "<="
            }
            guard let subject, let order = Self.compare(subject, argument, source) else {
                let kind = Self.number(argument, source) != nil ? "a number" : "a string"
                return outcome(false, showing: kind + " " + symbol + " ")
            }
            let passed: Bool
            switch predicate {
            case .greaterThan: passed = order == .orderedDescending
            case .greaterThanOrEqual: passed = order != .orderedAscending
            case .lessThan: passed = order == .orderedAscending
            default: passed = order != .orderedDescending
            }
            return outcome(passed, showing: symbol + " ")
        case .between:
            let bounds = argument.arrayValue ?? []
            guard bounds.count == 2 else { return outcome(false, showing: "between two bounds, got ") }
            let expectation = "between \(show(bounds[0])) and \(show(bounds[1]))"
            guard let subject, let low = Self.compare(subject, bounds[0], source),
                let high = Self.compare(subject, bounds[1], source)
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

    private func regex(_ pattern: String) -> RegularExpression? {
        let key = CodePointKey(pattern)
        if let cached = regexCache.withLock({ $0[key] }) { return cached }
        guard let regex = try? RegularExpression(pattern) else { return nil }
        regexCache.withLock { cache in
            if cache.count >= Self.regexCacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = regex
        }
        return regex
    }

    // MARK: - Value semantics

    /// JSON equality (numbers by value, strings by code points); from a text source, a string subject also equals
    /// a number or boolean argument that JSON writes with the same text (a header `5` equals `5`).
    static func equal(_ subject: JSONValue, _ argument: JSONValue, _ source: Source) -> Bool {
        if subject == argument { return true }
        guard source == .text, case .string(let text) = subject else { return false }
        switch argument {
        case .integer, .double, .number, .bool: return text.hasSameCodePoints(as: TemplateContext.text(of: argument))
        default: return false
        }
    }

    /// A string holds the argument's text (by code points); an array an element equal to the argument (as
    /// ``equal(_:_:_:)``); an object a member named by a string argument.
    static func contains(_ subject: JSONValue, _ argument: JSONValue, _ source: Source) -> Bool {
        switch subject {
        case .string(let text): return text.containsCodePoints(TemplateContext.text(of: argument))
        case .array(let items): return items.contains { equal($0, argument, source) }
        case .object(let object):
            if case .string(let key) = argument { return object[key] != nil }
            return false
        default: return false
        }
    }

    /// A number; from a text source, also the number a string reads as (exactly for decimal text, else as
    /// `Double` reads it). The argument is the suite's own: a string argument reads as a number only beside a
    /// text subject.
    static func number(_ value: JSONValue, _ source: Source) -> JSONValue? {
        switch value {
        case .integer, .double, .number: return value
        case .string(let text) where source == .text:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return JSONValue(numberText: trimmed) ?? Double(trimmed).map(JSONValue.double)
        default: return nil
        }
    }

    /// The order of two values: numerically (exactly, by decimal value) when both are numbers (or, from a text
    /// source, numeric strings), by code points when both are strings; `nil` otherwise.
    static func compare(_ left: JSONValue, _ right: JSONValue, _ source: Source) -> ComparisonResult? {
        if let a = number(left, source), let b = number(right, source) {
            guard let order = JSONValue.numericOrder(a, b) else { return nil }
            return order < 0 ? .orderedAscending : (order > 0 ? .orderedDescending : .orderedSame)
        }
        if case .string(let a) = left, case .string(let b) = right {
            let order = a.codePointOrder(b)
            return order < 0 ? .orderedAscending : (order > 0 ? .orderedDescending : .orderedSame)
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
    /// secrets first, then shortens with `String.truncated(to:)`.
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

    /// Two texts of a failure (what was expected and what was found) that read the same but differ in their code
    /// points (`"é"` and `"e\u{301}"`), with every non-ASCII character written as a JSON escape (`"\u00e9"`,
    /// `"e\u0301"`), so the message shows the difference; other texts as they are.
    static func distinguishable(_ expected: String, _ actual: String) -> (expected: String, actual: String) {
        // Swift's `==` is canonical equivalence: exactly "looks the same".
        guard expected == actual, !expected.hasSameCodePoints(as: actual) else { return (expected, actual) }
        return (escapingNonASCII(expected), escapingNonASCII(actual))
    }

    /// `text` with every non-ASCII character written as a JSON `\uXXXX` escape (a surrogate pair above U+FFFF).
    static func escapingNonASCII(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            guard !scalar.isASCII else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }
}
