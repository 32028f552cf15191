import APITestSupport

extension SuiteParser {
    /// The keys of `expect`: the status, the short forms (each a query family) and the general form `assert`.
    static let expectKeys = [
        "status", "headers", "json", "xml", "cookies", "body", "duration", "bodySize", "sha256", "md5", "url",
        "redirects", "certificate", "image", "schema", "assert",
    ]

    /// Short forms that check one value: `body: {contains: ok}`, `duration: {lessThan: 500ms}`.
    private static let singleValueShortForms: [String: Query] = [
        "body": .body, "duration": .duration, "bodySize": .bodySize, "sha256": .sha256, "md5": .md5, "url": .url,
        "redirects": .redirects,
    ]

    // MARK: - Expect

    func parseExpect(_ node: YAMLNode) -> Expectations {
        var expectations = Expectations()
        guard let entries = mapping(node, for: "expect") else { return expectations }
        checkKeys(entries, allowed: Self.expectKeys, in: "expect")
        for entry in entries {
            switch entry.key {
            case "status": expectations.status = parseStatus(entry.value)
            case "headers":
                expectations.assertions += keyedChecks(entry.value, for: "headers") { name, keyNode in
                    checkHeaderName(name, at: keyNode) ? .header(name) : nil
                }
            case "json":
                expectations.assertions += keyedChecks(entry.value, for: "json") { path, keyNode in
                    checkJSONPath(path, at: keyNode) ? .jsonpath(path) : nil
                }
            case "xml":
                expectations.assertions += keyedChecks(entry.value, for: "xml") { expression, keyNode in
                    checkXPath(expression, at: keyNode) ? .xpath(expression) : nil
                }
            case "cookies":
                expectations.assertions += keyedChecks(entry.value, for: "cookies") { key, keyNode in
                    cookieQuery(key, at: keyNode)
                }
            case "certificate":
                expectations.assertions += keyedChecks(entry.value, for: "certificate") { key, keyNode in
                    field(key, of: "certificate", at: keyNode).map(Query.certificate)
                }
            case "image":
                expectations.assertions += keyedChecks(entry.value, for: "image") { key, keyNode in
                    field(key, of: "image", at: keyNode).map(Query.image)
                }
            case "assert":
                expectations.assertions += parseGeneralAssertions(entry.value)
            case "schema":
                expectations.schema = parseSchema(entry.value)
            default:
                if let query = Self.singleValueShortForms[entry.key],
                    let assertion = parseCheck(entry.value, query: query, at: location(of: entry.keyNode))
                {
                    expectations.assertions.append(assertion)
                }
            }
        }
        return expectations
    }

    /// The checks of a short form keyed by subject (`headers`, `json`, `xml`, `cookies`, `certificate`, `image`);
    /// `query` makes the query of a key, reporting a bad one.
    private func keyedChecks(
        _ node: YAMLNode, for name: String, query: (String, YAMLNode) -> Query?
    ) -> [Assertion] {
        guard let entries = mapping(node, for: name) else { return [] }
        var assertions: [Assertion] = []
        for entry in entries {
            // A bad key is reported; its check is still read, so that its own mistakes are reported too.
            let made = query(entry.key, entry.keyNode)
            let assertion = parseCheck(entry.value, query: made ?? .body, at: location(of: entry.keyNode))
            if let assertion, made != nil { assertions.append(assertion) }
        }
        return assertions
    }

    /// A field of the `certificate` or `image` query, named `key`; reports an unknown one with the known fields.
    func field<Field: RawRepresentable & CaseIterable>(
        _ key: String, of what: String, at node: YAMLNode
    ) -> Field? where Field.RawValue == String {
        if let field = Field(rawValue: key) { return field }
        let names = Field.allCases.map(\.rawValue)
        error(
            "unknown \(what) field '\(key)'" + Suggestion.didYouMean(key, in: names), at: node,
            note: "\(what) fields: " + names.joined(separator: ", "))
        return nil
    }

    /// A `cookies` key: `session` (the value) or `session[Max-Age]` (an attribute).
    func cookieQuery(_ key: String, at node: YAMLNode) -> Query? {
        var name = key
        var attribute = CookieAttribute.value
        if key.hasSuffix("]"), let open = key.firstIndex(of: "[") {
            name = String(key[..<open])
            let attributeName = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
            guard let named = CookieAttribute(named: attributeName) else {
                error(
                    "unknown cookie attribute '\(attributeName)'"
                        + Suggestion.didYouMean(attributeName, in: CookieAttribute.allCases.map(\.rawValue)),
                    at: node)
                return nil
            }
            attribute = named
        }
        guard Self.isToken(name) else {
            error("invalid cookie name '\(name)'", at: node)
            return nil
        }
        return .cookie(name: name, attribute: attribute)
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

    // MARK: - General form

    /// `assert:` items, each a query, optional `filters` and one predicate:
    /// `{jsonpath: $.users, filters: [count], greaterThan: 0}`, `{query: duration, lessThan: 500ms}`.
    private func parseGeneralAssertions(_ node: YAMLNode) -> [Assertion] {
        guard let items = sequence(node, for: "assert") else { return [] }
        var assertions: [Assertion] = []
        for item in items {
            guard isMapping(item), let entries = mapping(item, for: "an assert item") else {
                error(
                    "expected a map for an assert item, found \(kindName(of: item))", at: item,
                    note: "write {jsonpath: $.id, equals: 1} or {query: status, oneOf: [200, 201]}")
                continue
            }
            guard let (query, queryKeys) = parseQuery(entries, at: item, for: "an assert item") else { continue }
            let rest = entries.filter { !queryKeys.contains($0.key) }
            if rest.isEmpty {
                error("the assert item on \(query) has no predicate", at: item, note: Self.predicateNote)
                continue
            }
            if let assertion = parseCheckEntries(rest, query: query, node: item, at: location(of: item)) {
                assertions.append(assertion)
            }
        }
        return assertions
    }

    static let predicateNote = "predicates: " + Predicate.names.joined(separator: ", ")
}
