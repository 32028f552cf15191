import APITestJSON
import APITestSupport
import APITestYAML
import Foundation

/// One check: a value (equality) or `{predicate: argument}`, with optional filters; the part the short forms, the
/// general form (`assert`) and `until` share.
enum CheckParser {
    /// The note of a check without a predicate: every predicate's name.
    static let predicateNote = "predicates: " + Predicate.names.joined(separator: ", ")

    // MARK: - Checks

    /// One check of a short form's value: a value (equality), `{predicate: argument}`, `{filters: [...],
    /// predicate: argument}`, or a filter name leading to the rest (`{count: {greaterThan: 0}}`).
    static func check(
        _ node: YAMLNode, query: Query, at location: SourceLocation, filters: [Filter] = [],
        in context: SuiteParseContext
    ) -> Assertion? {
        guard context.isMapping(node), let entries = context.mapping(node, for: query.description) else {
            if context.isSequence(node), filters.isEmpty, !comparesStructures(query) {
                context.error(
                    "expected a value or a {predicate: argument} map for \(query), found a list", at: node,
                    note: "use {oneOf: [...]} to accept several values")
                return nil
            }
            return argument(for: .equals, node, query: query, filters: filters, in: context).map {
                Assertion(location: location, query: query, filters: filters, predicate: .equals, argument: $0)
            }
        }
        if entries.count == 1, let only = entries.first, let filter = Filter.plain[only.key] {
            return check(only.value, query: query, at: location, filters: filters + [filter], in: context)
        }
        let isCheck = entries.allSatisfy {
            Predicate(rawValue: $0.key) != nil || $0.key == QueryParser.Key.filters.rawValue
        }
        if !isCheck, comparesStructures(query), filters.isEmpty {
            // A map that is not a check is an expected object.
            if entries.count == 1, let only = entries.first,
                let suggestion = Suggestion.closest(to: only.key, in: checkWords)
            {
                context.error(
                    "'\(only.key)' is not a predicate, so this map is compared as an object; did you mean "
                        + "'\(suggestion)'?",
                    at: only.keyNode, note: "write {equals: {...}} to compare with an object on purpose")
            }
            return Assertion(
                location: location, query: query, predicate: .equals, argument: context.templateValue(node))
        }
        return checkEntries(entries, query: query, node: node, at: location, filters: filters, in: context)
    }

    /// A check written as map entries: optional `filters` and exactly one predicate.
    static func checkEntries(
        _ entries: [MapEntry], query: Query, node: YAMLNode, at location: SourceLocation, filters prefix: [Filter] = [],
        in context: SuiteParseContext
    ) -> Assertion? {
        // `count: 1` beside a query (`{jsonpath: $[*], count: 1}` in `assert`) reads as `$[*]: {count: 1}` does: a
        // filter that leads to the rest.
        if entries.count == 1, let only = entries.first, let filter = Filter.plain[only.key] {
            return check(only.value, query: query, at: location, filters: prefix + [filter], in: context)
        }
        var filters = prefix
        var predicates: [(Predicate, MapEntry)] = []
        var valid = true
        for entry in entries {
            if entry.key == QueryParser.Key.filters.rawValue {
                if let parsed = FilterParser.filters(entry.value, in: context) {
                    filters += parsed
                } else {
                    valid = false
                }
            } else if let predicate = Predicate(rawValue: entry.key) {
                predicates.append((predicate, entry))
            } else if Filter.names.contains(entry.key) {
                // A filter beside a predicate: it leads to the rest only on its own.
                context.error(
                    "'\(entry.key)' is a filter, not a predicate", at: entry.keyNode,
                    note: "write '\(entry.key): {PREDICATE: VALUE}' on its own, or list it under 'filters:'")
                valid = false
            } else {
                let suggestion = Suggestion.didYouMean(entry.key, in: checkWords)
                context.error(
                    "unknown predicate '\(entry.key)'" + suggestion, at: entry.keyNode,
                    note: suggestion.isEmpty ? predicateNote : nil)
                valid = false
            }
        }
        guard valid else { return nil }
        guard predicates.count == 1, let (predicate, entry) = predicates.first else {
            if predicates.isEmpty {
                context.error("the check on \(query) has no predicate", at: node, note: predicateNote)
            } else if let second = predicates.dropFirst().first {
                context.error(
                    "a check takes one predicate, found \(predicates.count): "
                        + predicates.map { "'\($0.1.key)'" }.joined(separator: ", "),
                    at: second.1.keyNode,
                    note: comparesStructures(query)
                        ? "check the same value twice with two spellings of the path ($.a and $['a']), or write "
                            + "{equals: {...}} to compare with an object"
                        : "write two checks in `assert:`")
            }
            return nil
        }
        guard let argument = argument(for: predicate, entry.value, query: query, filters: filters, in: context) else {
            return nil
        }
        var assertion = Assertion(
            location: location, query: query, filters: filters, predicate: predicate, argument: argument)
        if predicate == .matches, case .string(let pattern) = argument, pattern.isLiteral {
            // Compiled (and checked) by `argument`; the context's cache hands the same one back.
            assertion.pattern = context.regularExpression(pattern.source, at: entry.value)
        }
        return assertion
    }

    /// Predicates, `filters` and filter names: the words a check map may hold.
    static let checkWords = Predicate.names + [QueryParser.Key.filters.rawValue] + Filter.names

    /// True for queries whose values may be objects and arrays, so a map or list is an expected value.
    private static func comparesStructures(_ query: Query) -> Bool {
        switch query {
        case .jsonpath, .xpath, .certificate(.subjectAlternativeNames): true
        default: false
        }
    }

    /// True for queries whose values are text, so arguments of equality are compared as text.
    private static func isText(_ query: Query) -> Bool {
        switch query {
        case .header, .body, .regex, .url, .sha256, .md5, .stream(.field(.event)), .stream(.field(.id)): true
        default: false
        }
    }

    // MARK: - Arguments

    /// Checks a predicate's argument and builds it.
    private static func argument(
        for predicate: Predicate, _ node: YAMLNode, query: Query, filters: [Filter], in context: SuiteParseContext
    ) -> TemplateValue? {
        let textual = filters.isEmpty && isText(query)
        switch predicate {
        case .exists, .notExists, .isEmpty:
            return context.bool(node, for: predicate.rawValue).map(TemplateValue.bool)
        case .matches:
            guard let pattern = stringArgument(node, for: predicate, in: context) else { return nil }
            if pattern.isLiteral, context.regularExpression(pattern.source, at: node) == nil { return nil }
            return .string(pattern)
        case .startsWith, .endsWith:
            return stringArgument(node, for: predicate, in: context).map(TemplateValue.string)
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual:
            return bound(node, for: predicate, query: query, filters: filters, in: context)
        case .between:
            guard let items = context.document.items(of: node), items.count == 2 else {
                context.error(
                    "'between' takes a list of two bounds, like [1, 10], found \(context.kindName(of: node))", at: node)
                return nil
            }
            let bounds = items.compactMap { bound($0, for: predicate, query: query, filters: filters, in: context) }
            guard bounds.count == 2 else { return nil }
            if let low = number(bounds[0]), let high = number(bounds[1]), low > high {
                // No value is between them: the check could only fail.
                let written = items.map { context.scalar($0)?.string ?? "" }.joined(separator: ", ")
                context.error("'between' takes the lower bound first, found [\(written)]", at: node)
                return nil
            }
            return .array(bounds)
        case .oneOf:
            guard let items = context.document.items(of: node), !items.isEmpty else {
                let found = context.document.items(of: node) == nil ? context.kindName(of: node) : "an empty list"
                context.error("'oneOf' takes a list of at least one value, found \(found)", at: node)
                return nil
            }
            guard textual else { return context.templateValue(node) }
            let texts = items.compactMap { textArgument($0, of: predicate, in: context) }
            return texts.count == items.count ? .array(texts) : nil
        case .type:
            return typeNames(node, in: context)
        case .equals, .notEquals, .contains, .notContains:
            let argument = textual ? textArgument(node, of: predicate, in: context) : context.templateValue(node)
            if predicate == .equals || predicate == .notEquals, let argument,
                !checkLiteral(argument, of: query, filters: filters, at: node, in: context)
            {
                return nil
            }
            return argument
        }
    }

    /// The number a literal bound holds, if it is one.
    private static func number(_ value: TemplateValue) -> Double? {
        switch value {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .number(let value): value.doubleValue
        default: nil
        }
    }

    /// Whether a literal value compared for equality with a query that has one form (a digest, a count of
    /// redirects) has that form; reports it when not: such a check could only fail, and only at run time.
    private static func checkLiteral(
        _ argument: TemplateValue, of query: Query, filters: [Filter], at node: YAMLNode,
        in context: SuiteParseContext
    ) -> Bool {
        guard filters.isEmpty else { return true }
        switch (query, argument) {
        case (.sha256, .string(let template)) where template.isLiteral,
            (.md5, .string(let template)) where template.isLiteral:
            let digits = query == .sha256 ? 64 : 32
            let text = template.source
            guard text.utf8.count == digits,
                text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else {
                context.error(
                    "'\(query)' is the body's digest in \(digits) lower-case hex digits, found '\(text)'", at: node)
                return false
            }
        case (.redirects, .string(let template)) where template.isLiteral:
            context.error("'redirects' counts redirects: expected a whole number, found '\(template.source)'", at: node)
            return false
        case (.redirects, .bool), (.redirects, .array), (.redirects, .object):
            context.error(
                "'redirects' counts redirects: expected a whole number, found \(context.kindName(of: node))", at: node)
            return false
        default:
            break
        }
        return true
    }

    /// A bound of an ordering predicate: a number, a string (compared as text, so ISO-8601 dates order), a
    /// placeholder, or for `duration` a duration like `500ms` (the query's value is in milliseconds).
    private static func bound(
        _ node: YAMLNode, for predicate: Predicate, query: Query, filters: [Filter], in context: SuiteParseContext
    ) -> TemplateValue? {
        let value = context.templateValue(node)
        switch value {
        case .integer, .double, .number: return value
        case .string(let template):
            if template.isLiteral, query == .duration, filters.isEmpty {
                do {
                    let duration = try DurationParser.parse(template.source)
                    let (seconds, attoseconds) = duration.components
                    let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
                    return milliseconds.rounded() == milliseconds
                        ? .integer(Int64(milliseconds)) : .double(milliseconds)
                } catch {
                    context.error("\(error.message) for '\(predicate)' on duration", at: node)
                    return nil
                }
            }
            return value
        default:
            context.error("'\(predicate)' takes a number or a string, found \(context.kindName(of: node))", at: node)
            return nil
        }
    }

    /// The argument of `type`: a type name or a list of them.
    private static func typeNames(_ node: YAMLNode, in context: SuiteParseContext) -> TemplateValue? {
        let items: [YAMLNode] = context.document.items(of: node).map(Array.init) ?? [node]
        if items.isEmpty {
            context.error("'type' takes a type name or a list of at least one", at: node)
            return nil
        }
        var names: [TemplateValue] = []
        for item in items {
            guard let scalar = context.scalar(item), !YAMLScalar.isNull(scalar) || scalar.string == "null" else {
                context.error(
                    "'type' takes a type name or a list of them, found \(context.kindName(of: item))", at: item)
                return nil
            }
            let name = scalar.string
            guard ValueType(rawValue: name) != nil else {
                context.error(
                    "unknown type '\(name)'" + Suggestion.didYouMean(name, in: ValueType.names), at: item,
                    note: "types: " + ValueType.names.joined(separator: ", "))
                return nil
            }
            names.append(.string(Template(literal: name, location: context.location(of: item))))
        }
        return context.document.items(of: node) == nil ? names.first : .array(names)
    }

    /// A string argument (quote numbers to compare them as text).
    private static func stringArgument(
        _ node: YAMLNode, for predicate: Predicate, in context: SuiteParseContext
    ) -> Template? {
        guard let scalar = context.scalar(node), case .string(let string) = YAMLScalar(scalar) else {
            context.error("'\(predicate)' takes a string, found \(context.kindName(of: node))", at: node)
            return nil
        }
        return context.parseTemplate(string, at: node)
    }

    /// A text argument: any scalar but null, as text (`X-Count: 5` compares with the text "5").
    private static func textArgument(
        _ node: YAMLNode, of predicate: Predicate, in context: SuiteParseContext
    ) -> TemplateValue? {
        guard let scalar = context.scalar(node), !YAMLScalar.isNull(scalar) else {
            context.error("'\(predicate)' on text takes a text value, found \(context.kindName(of: node))", at: node)
            return nil
        }
        return context.template(node, for: predicate.rawValue).map(TemplateValue.string)
    }
}

// MARK: - Schema

extension Predicate {
    /// The predicate's fragment of the editor schema; `textual` for a check on text (a header, the body), whose
    /// equality arguments are scalars.
    func schema(textual: Bool) -> SchemaValue {
        let any: SchemaValue = textual ? ["type": SuiteSchema.scalarTypes] : [:]
        let ordered: SchemaValue = ["type": ["number", "string"]]
        return switch self {
        case .equals:
            .described(
                "Equals the argument as a JSON value of the same type (the string \"5\" is not 5, except from text: "
                    + "headers, body, regex groups), 1 equals 1.0, strings by code points, member order ignored.", any)
        case .notEquals: .described("Does not equal the argument; holds for an absent value.", any)
        case .contains: .described("String: contains the text; array: has an equal element; object: has the key.", any)
        case .notContains: .described("The opposite of contains; holds for an absent value.", any)
        case .startsWith: .described("Starts with the text.", ["type": "string"])
        case .endsWith: .described("Ends with the text.", ["type": "string"])
        case .matches:
            .described(
                "Matches the regular expression (ICU syntax, searched anywhere; anchor with ^…$).", ["type": "string"])
        case .exists: .described("Is present (true) or absent (false).", ["type": "boolean"])
        case .notExists: .described("Is absent (true) or present (false).", ["type": "boolean"])
        case .isEmpty:
            .described("Is an empty (true) or non-empty (false) string, array or object.", ["type": "boolean"])
        case .greaterThan:
            .described(
                "Greater than a number, or a string compared by code points (ISO-8601 dates order); a JSON string "
                    + "never orders against a number; on duration, a duration like 500ms.", ordered)
        case .greaterThanOrEqual: .described("Greater than or equal (see greaterThan).", ordered)
        case .lessThan: .described("Less than (see greaterThan).", ordered)
        case .lessThanOrEqual: .described("Less than or equal (see greaterThan).", ordered)
        case .between:
            .described(
                "Within [low, high], both included.",
                ["type": "array", "minItems": 2, "maxItems": 2, "items": ["type": ["number", "string"]]])
        case .oneOf:
            .described(
                "Equals one of the listed values.", textual ? ["type": "array", "items": any] : ["type": "array"])
        case .type:
            .described(
                "Is of a type, or one of several: " + ValueType.names.joined(separator: ", ") + ".",
                [
                    "anyOf": [
                        ["enum": .array(ValueType.names.map(SchemaValue.string) + [nil])],
                        ["type": "array", "items": ["enum": .array(ValueType.names.map(SchemaValue.string) + [nil])]],
                    ]
                ])
        }
    }

    /// Every predicate with its fragment, in order.
    static func properties(textual: Bool) -> [(String, SchemaValue)] {
        allCases.map { ($0.rawValue, $0.schema(textual: textual)) }
    }
}
