import APITestSupport

extension SuiteParser {
    static let expectKeys = ["status", "headers", "json"]

    // MARK: - Expect

    func parseExpect(_ node: YAMLNode) -> Expectations {
        var expectations = Expectations()
        guard let entries = mapping(node, for: "expect") else { return expectations }
        checkKeys(entries, allowed: Self.expectKeys, in: "expect")
        for entry in entries {
            switch entry.key {
            case "status": expectations.status = parseStatus(entry.value)
            case "headers": expectations.headers = parseAssertions(entry.value, for: "headers", onHeaders: true)
            case "json": expectations.json = parseAssertions(entry.value, for: "json", onHeaders: false)
            default: break
            }
        }
        return expectations
    }

    // MARK: - Status

    private func parseStatus(_ node: YAMLNode) -> StatusExpectation? {
        guard let items = document.items(of: node) else {
            return statusPattern(node).map { StatusExpectation(patterns: [$0], location: location(of: node)) }
        }
        if items.isEmpty {
            error("'status' is an empty list; give at least one code or class", at: node)
            return nil
        }
        var patterns: [StatusExpectation.Pattern] = []
        for item in items {
            if let pattern = statusPattern(item) { patterns.append(pattern) }
        }
        guard patterns.count == items.count else { return nil }
        return StatusExpectation(patterns: patterns, location: location(of: node))
    }

    /// One code or class of `status`; reports anything else.
    private func statusPattern(_ item: YAMLNode) -> StatusExpectation.Pattern? {
        guard let scalar = scalar(item), let pattern = StatusExpectation.Pattern(scalar.string),
            !YAMLScalar.isNull(scalar)
        else {
            let shown = scalar(item).map { "'\($0.string)'" } ?? kindName(of: item)
            error("invalid status \(shown); use a code like 200, a class like 2xx, or a list of them", at: item)
            return nil
        }
        return pattern
    }

    // MARK: - Assertions

    /// Assertions keyed by header name (`onHeaders`) or by JSONPath.
    private func parseAssertions(_ node: YAMLNode, for name: String, onHeaders: Bool) -> [Assertion] {
        guard let entries = mapping(node, for: name) else { return [] }
        var assertions: [Assertion] = []
        for entry in entries {
            let subjectIsValid =
                onHeaders ? checkHeaderName(entry.key, at: entry.keyNode) : checkJSONPath(entry.key, at: entry.keyNode)
            guard let (predicate, argument) = parseCheck(entry, onHeaders: onHeaders), subjectIsValid else {
                continue
            }
            assertions.append(
                Assertion(
                    location: location(of: entry.keyNode), subject: entry.key, predicate: predicate,
                    argument: argument))
        }
        return assertions
    }

    /// The predicate and argument of one check: the short form (a value: equality) or `{predicate: argument}`.
    private func parseCheck(_ entry: MapEntry, onHeaders: Bool) -> (Predicate, TemplateValue)? {
        let node = entry.value
        guard isMapping(node), let entries = mapping(node, for: entry.key) else {
            if onHeaders, isSequence(node) {
                error(
                    "expected a value or a {predicate: argument} map for header '\(entry.key)', found a list",
                    at: node, note: "use {oneOf: [...]} to accept several values")
                return nil
            }
            return argument(for: .equals, node, onHeaders: onHeaders).map { (.equals, $0) }
        }
        if entries.count == 1, let only = entries.first, let predicate = Predicate(rawValue: only.key) {
            return argument(for: predicate, only.value, onHeaders: onHeaders).map { (predicate, $0) }
        }
        if onHeaders {
            if entries.count == 1, let only = entries.first {
                error(
                    "unknown predicate '\(only.key)'" + Suggestion.didYouMean(only.key, in: Predicate.names),
                    at: only.keyNode)
            } else {
                error("a header check takes one {predicate: argument}, found \(entries.count) keys", at: node)
            }
            return nil
        }
        // Several predicates in one map is a mistake, not an object to compare with.
        if entries.count > 1, entries.allSatisfy({ Predicate(rawValue: $0.key) != nil }), let second = entries.last {
            error(
                "a check takes one predicate, found \(entries.count): "
                    + entries.map { "'\($0.key)'" }.joined(separator: ", "),
                at: second.keyNode,
                note: "check the same value twice with two spellings of the path ($.a and $['a']), "
                    + "or write {equals: {...}} to compare with an object")
            return nil
        }
        // A map that is not a predicate is an expected object.
        if entries.count == 1, let only = entries.first,
            let suggestion = Suggestion.closest(
                to: only.key, in: Predicate.names)
        {
            warning(
                "'\(only.key)' is not a predicate, so this map is compared as an object; did you mean '\(suggestion)'?",
                at: only.keyNode, note: "write {equals: {...}} to compare with an object on purpose")
        }
        return (.equals, templateValue(node))
    }

    /// Checks a predicate's argument and builds it. Header arguments are text; JSON arguments keep YAML types.
    private func argument(for predicate: Predicate, _ node: YAMLNode, onHeaders: Bool) -> TemplateValue? {
        switch predicate {
        case .exists:
            return bool(node, for: "exists").map(TemplateValue.bool)
        case .matches:
            guard let pattern = stringArgument(node, for: predicate) else { return nil }
            if pattern.isLiteral, !checkRegularExpression(pattern.source, at: node) { return nil }
            return .string(pattern)
        case .startsWith, .endsWith:
            return stringArgument(node, for: predicate).map(TemplateValue.string)
        case .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual:
            let value = templateValue(node)
            switch value {
            case .integer, .double: return value
            case .string(let template) where template.singlePlaceholderName != nil: return value
            default:
                error("'\(predicate)' takes a number, found \(kindName(of: node))", at: node)
                return nil
            }
        case .oneOf:
            guard let items = document.items(of: node) else {
                error("'oneOf' takes a list, found \(kindName(of: node))", at: node)
                return nil
            }
            guard onHeaders else { return templateValue(node) }
            let texts = items.compactMap { headerText($0, for: predicate) }
            return texts.count == items.count ? .array(texts) : nil
        case .equals, .notEquals, .contains, .notContains:
            return onHeaders ? headerText(node, for: predicate) : templateValue(node)
        }
    }

    /// A string argument (quote numbers to compare them as text).
    private func stringArgument(_ node: YAMLNode, for predicate: Predicate) -> Template? {
        guard let scalar = scalar(node), case .string(let string) = YAMLScalar(scalar) else {
            error("'\(predicate)' takes a string, found \(kindName(of: node))", at: node)
            return nil
        }
        return parseTemplate(string, at: node)
    }

    /// A header argument: any scalar but null, as text (`X-Count: 5` compares with the text "5").
    private func headerText(_ node: YAMLNode, for predicate: Predicate) -> TemplateValue? {
        guard let scalar = scalar(node), !YAMLScalar.isNull(scalar) else {
            error("'\(predicate)' on a header takes a text value, found \(kindName(of: node))", at: node)
            return nil
        }
        return template(node, for: predicate.rawValue).map(TemplateValue.string)
    }
}
