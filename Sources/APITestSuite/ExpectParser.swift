import APITestSupport

/// `expect:`: the status, the short forms (each a family of queries: `headers`, `json`, `xml`, `cookies`, `body`,
/// ...), the general form `assert` and `schema`.
enum ExpectParser {
    /// The keys of `expect`: the status, the short forms (each a query family) and the general form `assert`.
    static let keys = [
        "status", "headers", "json", "xml", "cookies", "body", "duration", "bodySize", "sha256", "md5", "url",
        "redirects", "certificate", "image", "schema", "assert",
    ]

    /// Short forms that check one value: `body: {contains: ok}`, `duration: {lessThan: 500ms}`.
    private static let singleValueShortForms: [String: Query] = [
        "body": .body, "duration": .duration, "bodySize": .bodySize, "sha256": .sha256, "md5": .md5, "url": .url,
        "redirects": .redirects,
    ]

    // MARK: - Expect

    /// The checks of `expect:` (or of `until:`).
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> Expectations {
        var expectations = Expectations()
        guard let entries = context.mapping(node, for: "expect") else { return expectations }
        context.checkKeys(entries, allowed: keys, in: "expect")
        for entry in entries {
            switch entry.key {
            case "status": expectations.status = status(entry.value, in: context)
            case "headers":
                keyedChecks(entry.value, for: "headers", into: &expectations.assertions, in: context) { name, keyNode in
                    context.checkHeaderName(name, at: keyNode) ? .header(name) : nil
                }
            case "json":
                keyedChecks(entry.value, for: "json", into: &expectations.assertions, in: context) { path, keyNode in
                    context.jsonPath(path, at: keyNode).map(Query.jsonpath)
                }
            case "xml":
                keyedChecks(entry.value, for: "xml", into: &expectations.assertions, in: context) { expression, node in
                    context.checkXPath(expression, at: node) ? .xpath(expression) : nil
                }
            case "cookies":
                keyedChecks(entry.value, for: "cookies", into: &expectations.assertions, in: context) { key, keyNode in
                    QueryParser.cookie(key, at: keyNode, in: context)
                }
            case "certificate":
                keyedChecks(entry.value, for: "certificate", into: &expectations.assertions, in: context) { key, node in
                    QueryParser.field(key, of: "certificate", at: node, in: context).map(Query.certificate)
                }
            case "image":
                keyedChecks(entry.value, for: "image", into: &expectations.assertions, in: context) { key, keyNode in
                    QueryParser.field(key, of: "image", at: keyNode, in: context).map(Query.image)
                }
            case "assert":
                expectations.assertions += generalAssertions(entry.value, in: context)
            case "schema":
                expectations.schema = SchemaParser.parse(entry.value, in: context)
            default:
                if let query = singleValueShortForms[entry.key],
                    let assertion = CheckParser.check(
                        entry.value, query: query, at: context.location(of: entry.keyNode), in: context)
                {
                    expectations.assertions.append(assertion)
                }
            }
        }
        return expectations
    }

    /// The checks of a short form keyed by subject (`headers`, `json`, `xml`, `cookies`, `certificate`, `image`),
    /// appended to `assertions`; `query` makes the query of a key, reporting a bad one.
    private static func keyedChecks(
        _ node: YAMLNode, for name: String, into assertions: inout [Assertion], in context: SuiteParseContext,
        query: (String, YAMLNode) -> Query?
    ) {
        guard let entries = context.mapping(node, for: name) else { return }
        for entry in entries {
            // A bad key is reported; its check is still read, so that its own mistakes are reported too.
            let made = query(entry.key, entry.keyNode)
            let assertion = CheckParser.check(
                entry.value, query: made ?? .body, at: context.location(of: entry.keyNode), in: context)
            if let assertion, made != nil { assertions.append(assertion) }
        }
    }

    // MARK: - Status

    /// `status:` a code, a class or a list of them.
    private static func status(_ node: YAMLNode, in context: SuiteParseContext) -> StatusExpectation? {
        guard let items = context.document.items(of: node) else {
            return statusPattern(node, in: context).map {
                StatusExpectation(patterns: [$0], location: context.location(of: node))
            }
        }
        if items.isEmpty {
            context.error("'status' is an empty list; give at least one code or class", at: node)
            return nil
        }
        var patterns: [StatusExpectation.Pattern] = []
        for item in items {
            if let pattern = statusPattern(item, in: context) { patterns.append(pattern) }
        }
        guard patterns.count == items.count else { return nil }
        return StatusExpectation(patterns: patterns, location: context.location(of: node))
    }

    /// One code or class of `status`; reports anything else.
    private static func statusPattern(
        _ item: YAMLNode, in context: SuiteParseContext
    ) -> StatusExpectation.Pattern? {
        guard let scalar = context.scalar(item), let pattern = StatusExpectation.Pattern(scalar.string),
            !YAMLScalar.isNull(scalar)
        else {
            let shown = context.scalar(item).map { "'\($0.string)'" } ?? context.kindName(of: item)
            context.error("invalid status \(shown); use a code like 200, a class like 2xx, or a list of them", at: item)
            return nil
        }
        return pattern
    }

    // MARK: - General form

    /// `assert:` items, each a query, optional `filters` and one predicate:
    /// `{jsonpath: $.users, filters: [count], greaterThan: 0}`, `{query: duration, lessThan: 500ms}`.
    private static func generalAssertions(_ node: YAMLNode, in context: SuiteParseContext) -> [Assertion] {
        guard let items = context.sequence(node, for: "assert") else { return [] }
        var assertions: [Assertion] = []
        for item in items {
            guard context.isMapping(item), let entries = context.mapping(item, for: "an assert item") else {
                context.error(
                    "expected a map for an assert item, found \(context.kindName(of: item))", at: item,
                    note: "write {jsonpath: $.id, equals: 1} or {query: status, oneOf: [200, 201]}")
                continue
            }
            guard let (query, queryKeys) = QueryParser.parse(entries, at: item, for: "an assert item", in: context)
            else {
                continue
            }
            let rest = entries.filter { !queryKeys.contains($0.key) }
            if rest.isEmpty {
                context.error("the assert item on \(query) has no predicate", at: item, note: CheckParser.predicateNote)
                continue
            }
            if let assertion = CheckParser.checkEntries(
                rest, query: query, node: item, at: context.location(of: item), in: context)
            {
                assertions.append(assertion)
            }
        }
        return assertions
    }
}
