import APITestSupport
import APITestYAML

/// `expect:`: the status, the short forms (each a family of queries: `headers`, `json`, `xml`, `cookies`, `body`,
/// ...), the general form `assert` and `schema`.
enum ExpectParser {
    /// The keys of `expect`: the status, the short forms (each a query family) and the general form `assert`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case status, headers, json, xml, cookies, body, duration, bodySize, sha256, md5, url, redirects, certificate
        case image, schema, assert
        case events, graphql
        case grpc
        case snapshot

        var schema: SchemaValue {
            switch self {
            case .status:
                .described(
                    "The status: a code (200), a class (2xx, 2XX), or a list of them ([200, 201], [2xx, 304]). "
                        + "Absent: any 2xx.",
                    [
                        "anyOf": [
                            .ref("statusPattern"), ["type": "array", "minItems": 1, "items": .ref("statusPattern")],
                        ]
                    ])
            case .headers:
                Self.keyed(
                    "Response headers by name (case-insensitive) → check on their text.",
                    ["pattern": SuiteSchema.token],
                    "textCheck")
            case .json:
                Self.keyed(
                    "RFC 9535 JSONPath → check on the JSON body (or a property list).", ["pattern": #"^\s*\$"#],
                    "valueCheck")
            case .xml: Self.keyed("XPath 1.0 expression → check on the XML body.", ["pattern": #"\S"#], "valueCheck")
            case .cookies:
                Self.keyed(
                    "Cookies the response sets: `session` (the value) or `session[Max-Age]` (an attribute) → check.",
                    ["pattern": .string(QueryParser.cookieKeyPattern)], "scalarCheck")
            case .body: .described("The body as text (charset of Content-Type, else UTF-8).", ref: "textCheck")
            case .duration:
                .described(
                    "The whole transfer's time in milliseconds; bounds may be durations ({lessThan: 500ms}).",
                    ref: "scalarCheck")
            case .bodySize:
                .described("The body's size in bytes, after Content-Encoding is undone.", ref: "scalarCheck")
            case .sha256: .described("The lower-case hex SHA-256 of the body.", ref: "textCheck")
            case .md5: .described("The lower-case hex MD5 of the body.", ref: "textCheck")
            case .url: .described("The URL of the final response, after redirects.", ref: "textCheck")
            case .redirects: .described("The number of redirects followed.", ref: "scalarCheck")
            case .certificate:
                .described(
                    "Facts of the server's leaf certificate: subject, issuer, notBefore, notAfter (ISO-8601), "
                        + "serialNumber (upper-case hex), subjectAlternativeNames (a list) → check.",
                    [
                        "type": ["object", "null"], "additionalProperties": false,
                        "properties": .members(
                            CertificateField.allCases.map {
                                ($0.rawValue, .ref($0 == .subjectAlternativeNames ? "valueCheck" : "scalarCheck"))
                            }),
                    ])
            case .image:
                .described(
                    "Facts of an image body: format (png, jpeg, gif, webp, bmp), width, height → check.",
                    [
                        "type": ["object", "null"], "additionalProperties": false,
                        "properties": .members(ImageField.allCases.map { ($0.rawValue, .ref("scalarCheck")) }),
                    ])
            case .schema:
                .described(
                    "The JSON body must be valid for a JSON Schema (2020-12 or draft-07): a schema file relative to "
                        + "the suite (local $refs across files), or an inline schema (a map, without placeholders).",
                    ["anyOf": [.ref("filePath"), ["type": "object"]]])
            case .events: EventsParser.Key.definition
            case .graphql: GraphQLParser.ExpectKey.definition
            case .grpc: GRPCParser.ExpectKey.definition
            case .snapshot: SnapshotParser.Key.definition
            case .assert:
                .described(
                    "The general form: a list of checks, each a query, optional filters and one predicate.",
                    ["type": "array", "items": .ref("assertItem")])
            }
        }

        /// A short form keyed by subject: each name (matching `names`) → a check of the definition `check`.
        private static func keyed(_ description: String, _ names: SchemaValue, _ check: String) -> SchemaValue {
            .described(
                description,
                ["type": ["object", "null"], "propertyNames": names, "additionalProperties": .ref(check)])
        }

        /// The definition of `expect:`.
        static var definition: SchemaValue {
            .described(
                "What the response must satisfy; every key is optional.",
                ["type": ["object", "null"], "additionalProperties": false, "properties": properties])
        }
    }

    /// The keys of `expect`, as written.
    static let keys = Key.names

    // MARK: - Expect

    /// The checks of `expect:` (or of `until:`).
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> Expectations {
        var expectations = Expectations()
        // A map of known keys only (nearly every one) is read without making its keys' texts: `checkKeys` would
        // report nothing on it, and its entries come in the same order.
        if context.forEachKnownEntry(
            of: node, Key.self,
            { read($0.key, keyNode: $0.keyNode, value: $0.value, into: &expectations, in: context) })
        {
            return expectations
        }
        guard let entries = context.mapping(node, for: "expect") else { return expectations }
        context.checkKeys(entries, of: Key.self, in: "expect")
        for entry in entries {
            guard let key = Key(named: entry.key) else { continue }
            read(key, keyNode: entry.keyNode, value: entry.value, into: &expectations, in: context)
        }
        return expectations
    }

    /// Reads the entry of `key` into `expectations`.
    private static func read(
        _ key: Key, keyNode: YAMLNode, value: YAMLNode, into expectations: inout Expectations,
        in context: SuiteParseContext
    ) {
        switch key {
        case .status: expectations.status = status(value, in: context)
        case .headers:
            keyedChecks(value, for: "headers", into: &expectations.assertions, in: context) { name, keyNode in
                context.checkHeaderName(name, at: keyNode) ? .header(name) : nil
            }
        case .json:
            keyedChecks(value, for: "json", into: &expectations.assertions, in: context) { path, keyNode in
                context.jsonPath(path, at: keyNode).map(Query.jsonpath)
            }
        case .xml:
            keyedChecks(value, for: "xml", into: &expectations.assertions, in: context) { expression, node in
                context.checkXPath(expression, at: node) ? .xpath(expression) : nil
            }
        case .cookies:
            keyedChecks(value, for: "cookies", into: &expectations.assertions, in: context) { key, keyNode in
                QueryParser.cookie(key, at: keyNode, in: context)
            }
        case .certificate:
            keyedChecks(value, for: "certificate", into: &expectations.assertions, in: context) { key, node in
                QueryParser.field(key, of: "certificate", at: node, in: context).map(Query.certificate)
            }
        case .image:
            keyedChecks(value, for: "image", into: &expectations.assertions, in: context) { key, keyNode in
                QueryParser.field(key, of: "image", at: keyNode, in: context).map(Query.image)
            }
        case .assert:
            expectations.assertions += generalAssertions(value, in: context)
        case .schema:
            expectations.schema = SchemaParser.parse(value, in: context)
        case .events: expectations.events = EventsParser.parse(value, in: context)
        case .graphql: expectations.graphql = GraphQLParser.expectation(value, in: context)
        case .grpc: expectations.grpc = GRPCParser.expectation(value, in: context)
        case .snapshot: expectations.snapshot = SnapshotParser.parse(value, in: context)
        case .body: singleValue(keyNode, value, .body, into: &expectations, in: context)
        case .duration: singleValue(keyNode, value, .duration, into: &expectations, in: context)
        case .bodySize: singleValue(keyNode, value, .bodySize, into: &expectations, in: context)
        case .sha256: singleValue(keyNode, value, .sha256, into: &expectations, in: context)
        case .md5: singleValue(keyNode, value, .md5, into: &expectations, in: context)
        case .url: singleValue(keyNode, value, .url, into: &expectations, in: context)
        case .redirects: singleValue(keyNode, value, .redirects, into: &expectations, in: context)
        }
    }

    /// The check of a short form that checks one value: `body: {contains: ok}`, `duration: {lessThan: 500ms}`.
    private static func singleValue(
        _ keyNode: YAMLNode, _ value: YAMLNode, _ query: Query, into expectations: inout Expectations,
        in context: SuiteParseContext
    ) {
        if let assertion = CheckParser.check(value, query: query, at: context.location(of: keyNode), in: context) {
            expectations.assertions.append(assertion)
        }
    }

    /// The checks of a short form keyed by subject (`headers`, `json`, `xml`, `cookies`, `certificate`, `image`),
    /// appended to `assertions`; `query` makes the query of a key, reporting a bad one.
    private static func keyedChecks(
        _ node: YAMLNode, for name: String, into assertions: inout [Assertion], in context: SuiteParseContext,
        query: (String, YAMLNode) -> Query?
    ) {
        func read(_ entry: MapEntry) {
            // A bad key is reported; its check is still read, so that its own mistakes are reported too.
            let made = query(entry.key, entry.keyNode)
            let assertion = CheckParser.check(
                entry.value, query: made ?? .body, at: context.location(of: entry.keyNode), in: context)
            if let assertion, made != nil { assertions.append(assertion) }
        }
        // A map of plain keys (nearly every one) is read without the array of entries `mapping(_:for:)` makes.
        if context.forEachPlainEntry(of: node, read) { return }
        guard let entries = context.mapping(node, for: name) else { return }
        for entry in entries { read(entry) }
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
        if let code = plainCode(item, in: context) { return .code(code) }
        guard let scalar = context.scalar(item), let pattern = StatusExpectation.Pattern(scalar.string),
            !YAMLScalar.isNull(scalar)
        else {
            let shown = context.scalar(item).map { "'\($0.string)'" } ?? context.kindName(of: item)
            context.error("invalid status \(shown); use a code like 200, a class like 2xx, or a list of them", at: item)
            return nil
        }
        return pattern
    }

    /// A code from 100 to 599 written as three plain digits without a tag (nearly every `status`), read from the
    /// node's bytes without making its text; `nil` for anything else, which `StatusExpectation.Pattern` reads.
    private static func plainCode(_ node: YAMLNode, in context: SuiteParseContext) -> Int? {
        let record = context.document.records[Int(node.index)]
        guard case .scalar = record.kind, record.count == 3, record.tag == -1 else { return nil }
        switch record.style {
        case .plain, .any: break
        default: return nil
        }
        return context.document.withBytes(of: record) { bytes -> Int? in
            let digits = (Int(bytes[0]) &- 48, Int(bytes[1]) &- 48, Int(bytes[2]) &- 48)
            guard (1...5).contains(digits.0), (0...9).contains(digits.1), (0...9).contains(digits.2) else {
                return nil
            }
            return digits.0 * 100 + digits.1 * 10 + digits.2
        }
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
