import APITestSupport
import Foundation

/// Checks, queries and filters: the parts the short forms, the general form (`assert`) and captures share.
extension SuiteParser {
    // MARK: - Checks

    /// One check of a short form's value: a value (equality), `{predicate: argument}`, `{filters: [...],
    /// predicate: argument}`, or a filter name leading to the rest (`{count: {greaterThan: 0}}`).
    func parseCheck(
        _ node: YAMLNode, query: Query, at location: SourceLocation, filters: [Filter] = []
    ) -> Assertion? {
        guard isMapping(node), let entries = mapping(node, for: query.description) else {
            if isSequence(node), filters.isEmpty, !Self.comparesStructures(query) {
                error(
                    "expected a value or a {predicate: argument} map for \(query), found a list", at: node,
                    note: "use {oneOf: [...]} to accept several values")
                return nil
            }
            return argument(for: .equals, node, query: query, filters: filters).map {
                Assertion(location: location, query: query, filters: filters, predicate: .equals, argument: $0)
            }
        }
        if entries.count == 1, let only = entries.first, let filter = Filter.plain[only.key] {
            return parseCheck(only.value, query: query, at: location, filters: filters + [filter])
        }
        let isCheck = entries.allSatisfy { Predicate(rawValue: $0.key) != nil || $0.key == "filters" }
        if !isCheck, Self.comparesStructures(query), filters.isEmpty {
            // A map that is not a check is an expected object.
            if entries.count == 1, let only = entries.first,
                let suggestion = Suggestion.closest(to: only.key, in: Self.checkWords)
            {
                error(
                    "'\(only.key)' is not a predicate, so this map is compared as an object; did you mean "
                        + "'\(suggestion)'?",
                    at: only.keyNode, note: "write {equals: {...}} to compare with an object on purpose")
            }
            return Assertion(
                location: location, query: query, predicate: .equals, argument: templateValue(node))
        }
        return parseCheckEntries(entries, query: query, node: node, at: location, filters: filters)
    }

    /// A check written as map entries: optional `filters` and exactly one predicate.
    func parseCheckEntries(
        _ entries: [MapEntry], query: Query, node: YAMLNode, at location: SourceLocation, filters prefix: [Filter] = []
    ) -> Assertion? {
        var filters = prefix
        var predicates: [(Predicate, MapEntry)] = []
        var valid = true
        for entry in entries {
            if entry.key == "filters" {
                if let parsed = parseFilters(entry.value) { filters += parsed } else { valid = false }
            } else if let predicate = Predicate(rawValue: entry.key) {
                predicates.append((predicate, entry))
            } else {
                let suggestion = Suggestion.didYouMean(entry.key, in: Self.checkWords)
                error(
                    "unknown predicate '\(entry.key)'" + suggestion, at: entry.keyNode,
                    note: suggestion.isEmpty ? Self.predicateNote : nil)
                valid = false
            }
        }
        guard valid else { return nil }
        guard predicates.count == 1, let (predicate, entry) = predicates.first else {
            if predicates.isEmpty {
                error("the check on \(query) has no predicate", at: node, note: Self.predicateNote)
            } else if let second = predicates.dropFirst().first {
                error(
                    "a check takes one predicate, found \(predicates.count): "
                        + predicates.map { "'\($0.1.key)'" }.joined(separator: ", "),
                    at: second.1.keyNode,
                    note: Self.comparesStructures(query)
                        ? "check the same value twice with two spellings of the path ($.a and $['a']), or write "
                            + "{equals: {...}} to compare with an object"
                        : "write two checks in `assert:`")
            }
            return nil
        }
        return argument(for: predicate, entry.value, query: query, filters: filters).map {
            Assertion(location: location, query: query, filters: filters, predicate: predicate, argument: $0)
        }
    }

    /// Predicates, `filters` and filter names: the words a check map may hold.
    static let checkWords = Predicate.names + ["filters"] + Filter.names

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
        case .header, .body, .regex, .url, .sha256, .md5: true
        default: false
        }
    }

    // MARK: - Arguments

    /// Checks a predicate's argument and builds it.
    private func argument(
        for predicate: Predicate, _ node: YAMLNode, query: Query, filters: [Filter]
    ) -> TemplateValue? {
        let textual = filters.isEmpty && Self.isText(query)
        switch predicate {
        case .exists, .notExists, .isEmpty:
            return bool(node, for: predicate.rawValue).map(TemplateValue.bool)
        case .matches:
            guard let pattern = stringArgument(node, for: predicate) else { return nil }
            if pattern.isLiteral, !checkRegularExpression(pattern.source, at: node) { return nil }
            return .string(pattern)
        case .startsWith, .endsWith:
            return stringArgument(node, for: predicate).map(TemplateValue.string)
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual:
            return bound(node, for: predicate, query: query, filters: filters)
        case .between:
            guard let items = document.items(of: node), items.count == 2 else {
                error(
                    "'between' takes a list of two bounds, like [1, 10], found \(kindName(of: node))", at: node)
                return nil
            }
            let bounds = items.compactMap { bound($0, for: predicate, query: query, filters: filters) }
            return bounds.count == 2 ? .array(bounds) : nil
        case .oneOf:
            guard let items = document.items(of: node), !items.isEmpty else {
                let found = document.items(of: node) == nil ? kindName(of: node) : "an empty list"
                error("'oneOf' takes a list of at least one value, found \(found)", at: node)
                return nil
            }
            guard textual else { return templateValue(node) }
            let texts = items.compactMap { text($0, of: predicate) }
            return texts.count == items.count ? .array(texts) : nil
        case .type:
            return typeNames(node)
        case .equals, .notEquals, .contains, .notContains:
            return textual ? text(node, of: predicate) : templateValue(node)
        }
    }

    /// A bound of an ordering predicate: a number, a string (compared as text, so ISO-8601 dates order), a
    /// placeholder, or for `duration` a duration like `500ms` (the query's value is in milliseconds).
    private func bound(
        _ node: YAMLNode, for predicate: Predicate, query: Query, filters: [Filter]
    ) -> TemplateValue? {
        let value = templateValue(node)
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
                    self.error("\(error.message) for '\(predicate)' on duration", at: node)
                    return nil
                }
            }
            return value
        default:
            error("'\(predicate)' takes a number or a string, found \(kindName(of: node))", at: node)
            return nil
        }
    }

    /// The argument of `type`: a type name or a list of them.
    private func typeNames(_ node: YAMLNode) -> TemplateValue? {
        let items: [YAMLNode] = document.items(of: node).map(Array.init) ?? [node]
        if items.isEmpty {
            error("'type' takes a type name or a list of at least one", at: node)
            return nil
        }
        var names: [TemplateValue] = []
        for item in items {
            guard let scalar = scalar(item), !YAMLScalar.isNull(scalar) || scalar.string == "null" else {
                error("'type' takes a type name or a list of them, found \(kindName(of: item))", at: item)
                return nil
            }
            let name = scalar.string
            guard ValueType(rawValue: name) != nil else {
                error(
                    "unknown type '\(name)'" + Suggestion.didYouMean(name, in: ValueType.names), at: item,
                    note: "types: " + ValueType.names.joined(separator: ", "))
                return nil
            }
            names.append(.string(Template(literal: name, location: location(of: item))))
        }
        return document.items(of: node) == nil ? names.first : .array(names)
    }

    /// A string argument (quote numbers to compare them as text).
    private func stringArgument(_ node: YAMLNode, for predicate: Predicate) -> Template? {
        guard let scalar = scalar(node), case .string(let string) = YAMLScalar(scalar) else {
            error("'\(predicate)' takes a string, found \(kindName(of: node))", at: node)
            return nil
        }
        return parseTemplate(string, at: node)
    }

    /// A text argument: any scalar but null, as text (`X-Count: 5` compares with the text "5").
    private func text(_ node: YAMLNode, of predicate: Predicate) -> TemplateValue? {
        guard let scalar = scalar(node), !YAMLScalar.isNull(scalar) else {
            error("'\(predicate)' on text takes a text value, found \(kindName(of: node))", at: node)
            return nil
        }
        return template(node, for: predicate.rawValue).map(TemplateValue.string)
    }

    // MARK: - Filters

    /// A `filters` list: names (`count`) and one-key maps (`{split: ","}`).
    func parseFilters(_ node: YAMLNode) -> [Filter]? {
        guard let items = sequence(node, for: "filters") else { return nil }
        var filters: [Filter] = []
        for item in items {
            guard let filter = parseFilter(item) else { return nil }
            filters.append(filter)
        }
        return filters
    }

    private func parseFilter(_ node: YAMLNode) -> Filter? {
        if let scalar = scalar(node), !YAMLScalar.isNull(scalar) {
            let name = scalar.string
            if let filter = Filter.plain[name] { return filter }
            if Filter.withArgument.contains(name) {
                error("filter '\(name)' takes an argument: write {\(name): ...}", at: node)
            } else {
                error(
                    "unknown filter '\(name)'" + Suggestion.didYouMean(name, in: Filter.names), at: node,
                    note: "filters: " + Filter.names.joined(separator: ", "))
            }
            return nil
        }
        guard isMapping(node), let entries = mapping(node, for: "a filter"), entries.count == 1,
            let only = entries.first
        else {
            error("expected a filter name or a one-key map like {split: \",\"}, found \(kindName(of: node))", at: node)
            return nil
        }
        switch only.key {
        case "nth":
            return integer(only.value, for: "nth", in: -1_000_000...1_000_000).map(Filter.nth)
        case "split":
            guard let separator = text(only.value, for: "split") else { return nil }
            guard !separator.isEmpty else {
                error("'split' needs a non-empty separator", at: only.value)
                return nil
            }
            return .split(separator)
        case "regex":
            guard let pattern = text(only.value, for: "regex"), checkRegularExpression(pattern, at: only.value) else {
                return nil
            }
            return .regex(pattern)
        case "replace":
            guard let fields = mapping(only.value, for: "replace") else { return nil }
            checkKeys(fields, allowed: ["pattern", "with"], in: "replace")
            guard let patternEntry = fields[key: "pattern"], let withEntry = fields[key: "with"] else {
                error("'replace' needs 'pattern' and 'with': {replace: {pattern: '-', with: ''}}", at: only.value)
                return nil
            }
            guard let pattern = text(patternEntry.value, for: "pattern"),
                checkRegularExpression(pattern, at: patternEntry.value)
            else { return nil }
            guard let scalar = scalar(withEntry.value) else {
                typeError(expected: "a string", for: "with", found: withEntry.value)
                return nil
            }
            return .replace(pattern: pattern, with: YAMLScalar.isNull(scalar) ? "" : scalar.string)
        case "jsonpath":
            guard let path = text(only.value, for: "jsonpath"), checkJSONPath(path, at: only.value) else {
                return nil
            }
            return .jsonpath(path)
        case "xpath":
            guard let expression = text(only.value, for: "xpath"), checkXPath(expression, at: only.value) else {
                return nil
            }
            return .xpath(expression)
        default:
            if Filter.plain[only.key] != nil {
                error("filter '\(only.key)' takes no argument: write it as a name", at: only.keyNode)
            } else {
                error(
                    "unknown filter '\(only.key)'" + Suggestion.didYouMean(only.key, in: Filter.names),
                    at: only.keyNode, note: "filters: " + Filter.names.joined(separator: ", "))
            }
            return nil
        }
    }

    // MARK: - Queries

    /// The query of a general-form item or a capture, and the keys it used (`cookie` + `attribute`, `regex` +
    /// `group`); reports a missing, doubled or bad query.
    func parseQuery(_ entries: [MapEntry], at node: YAMLNode, for context: String) -> (Query, Set<String>)? {
        let keys = ["query"] + Query.argumentKeys
        let found = entries.filter { keys.contains($0.key) }
        guard found.count == 1, let entry = found.first else {
            if let second = found.dropFirst().first {
                error(
                    "\(context) takes one query, found " + found.map { "'\($0.key)'" }.joined(separator: " and "),
                    at: second.keyNode)
            } else if let near = entries.first(where: { Suggestion.closest(to: $0.key, in: keys) != nil }) {
                error(
                    "unknown key '\(near.key)' in \(context)" + Suggestion.didYouMean(near.key, in: keys),
                    at: near.keyNode)
            } else {
                error(
                    "\(context) needs a query: one of " + keys.joined(separator: ", "), at: node,
                    note: "for example {jsonpath: $.id}, {header: Location} or {query: status}")
            }
            return nil
        }
        guard let value = text(entry.value, for: entry.key) else { return nil }
        var used: Set<String> = [entry.key]
        switch entry.key {
        case "query":
            guard let query = Query.plainQueries[value] else {
                let note =
                    Query.argumentKeys.contains(value)
                    ? "'\(value)' takes an argument: write {\(value): ...}"
                    : "queries: " + Query.plainQueries.keys.sorted().joined(separator: ", ")
                error(
                    "unknown query '\(value)'" + Suggestion.didYouMean(value, in: Query.plainQueries.keys),
                    at: entry.value, note: note)
                return nil
            }
            return (query, used)
        case "header":
            return checkHeaderName(value, at: entry.value) ? (.header(value), used) : nil
        case "cookie":
            guard case .cookie(let name, var attribute)? = cookieQuery(value, at: entry.value) else { return nil }
            if let attributeEntry = entries[key: "attribute"] {
                used.insert("attribute")
                guard let attributeName = text(attributeEntry.value, for: "attribute") else { return nil }
                guard let named = CookieAttribute(named: attributeName) else {
                    error(
                        "unknown cookie attribute '\(attributeName)'"
                            + Suggestion.didYouMean(attributeName, in: CookieAttribute.allCases.map(\.rawValue)),
                        at: attributeEntry.value)
                    return nil
                }
                attribute = named
            }
            return (.cookie(name: name, attribute: attribute), used)
        case "jsonpath":
            return checkJSONPath(value, at: entry.value) ? (.jsonpath(value), used) : nil
        case "xpath":
            return checkXPath(value, at: entry.value) ? (.xpath(value), used) : nil
        case "regex":
            guard checkRegularExpression(value, at: entry.value),
                let regex = try? NSRegularExpression(pattern: value)
            else { return nil }
            var group = regex.numberOfCaptureGroups > 0 ? 1 : 0
            if let groupEntry = entries[key: "group"] {
                used.insert("group")
                guard let number = integer(groupEntry.value, for: "group", in: 0...99) else { return nil }
                guard number <= regex.numberOfCaptureGroups else {
                    error(
                        "'group' is \(number), but the pattern has \(regex.numberOfCaptureGroups) capture group(s)",
                        at: groupEntry.value)
                    return nil
                }
                group = number
            }
            return (.regex(value, group: group), used)
        case "certificate":
            return field(value, of: "certificate", at: entry.value).map { (Query.certificate($0), used) }
        default:
            return field(value, of: "image", at: entry.value).map { (Query.image($0), used) }
        }
    }

    // MARK: - XPath

    /// A light syntax check of an XPath expression (brackets and quotes); the full check happens when it is
    /// evaluated. True when nothing is wrong.
    func checkXPath(_ expression: String, at node: YAMLNode) -> Bool {
        guard !expression.trimmingCharacters(in: .whitespaces).isEmpty else {
            error("an XPath expression cannot be empty", at: node)
            return false
        }
        var stack: [Character] = []
        var quote: Character?
        for character in expression {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "(", "[": stack.append(character)
            case ")", "]":
                let expected: Character = character == ")" ? "(" : "["
                guard stack.last == expected else {
                    error("invalid XPath '\(expression)': '\(character)' has no matching '\(expected)'", at: node)
                    return false
                }
                stack.removeLast()
            default: break
            }
        }
        if let open = quote {
            error("invalid XPath '\(expression)': a \(open) quote is not closed", at: node)
            return false
        }
        if let open = stack.last {
            error("invalid XPath '\(expression)': a '\(open)' is not closed", at: node)
            return false
        }
        return true
    }
}
