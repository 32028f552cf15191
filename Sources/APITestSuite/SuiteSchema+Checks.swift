// MARK: - Checks

extension SuiteSchema {
    /// The definitions of checks and captures: filters, the check maps (a predicate and its argument, optionally
    /// after filters), `expect`, the general form and captures, in the order of `$defs`.
    static var checkDefinitions: [(String, SchemaValue)] {
        [
            ("filter", Filter.ArgumentName.definition),
            (
                "filters",
                .described(
                    "Filters applied in order between the query and the predicate.",
                    ["type": "array", "items": .ref("filter")])
            ),
            ("predicateMap", checkMap(textual: false)),
            ("textPredicateMap", checkMap(textual: true)),
            (
                "filteredCheck",
                .described(
                    "What follows a filter: a value (equality) or a check map.",
                    ["anyOf": [["not": ["type": "object"]], .ref("predicateMap")]])
            ),
            (
                "textCheck",
                .described(
                    "A check on text: a value (compared as text) or a map with one predicate, optionally after "
                        + "filters.", ["anyOf": [["type": scalarTypes], .ref("textPredicateMap")]])
            ),
            (
                "scalarCheck",
                .described(
                    "A check: a value (equality) or a map with one predicate, optionally after filters.",
                    ["anyOf": [["type": ["string", "number", "boolean", "null"]], .ref("predicateMap")]])
            ),
            ("valueCheck", valueCheck),
            ("expect", ExpectParser.Key.definition),
            ("eventCheck", EventsParser.CheckKey.definition),
            (
                "statusPattern",
                [
                    "anyOf": [
                        ["type": "integer", "minimum": 100, "maximum": 599],
                        ["type": "string", "pattern": #"^\s*(?:[1-5][xX][xX]|[1-5][0-9][0-9])\s*$"#],
                    ]
                ]
            ),
            ("assertItem", assertItem),
            (
                "captureSource",
                .described(
                    "Where a captured value comes from: one query and optional filters (no predicate).",
                    [
                        "type": "object", "additionalProperties": false, "properties": QueryParser.Key.properties,
                        "dependentRequired": queryDependencies, "allOf": [oneQuery],
                    ])
            ),
            (
                "capture",
                .described(
                    "Variable name → query: values for the later steps of the same test.",
                    [
                        "type": ["object", "null"], "propertyNames": ["pattern": variableName],
                        "additionalProperties": ["anyOf": [.ref("captureSource"), .ref("eventCapture")]],
                    ])
            ),
            (
                "eventCapture",
                .described(
                    "A value from one event of an `events` step: event (first, last, until or a 0-based index) and "
                        + "field (event, id, retry, data) or path (JSONPath on the data as JSON).",
                    [
                        "type": "object", "additionalProperties": false, "required": ["event"],
                        "properties": [
                            "event": [
                                "anyOf": [
                                    ["enum": .strings(["first", "last", "until"])], ["type": "integer", "minimum": 0],
                                ]
                            ],
                            "field": ["enum": .strings(EventField.allCases.map(\.rawValue))],
                            "path": ["type": "string", "pattern": #"^\s*\$"#],
                        ],
                    ])
            ),
        ]
    }

    /// The plain filter names (a filter name leading to the rest of a check: `{count: {greaterThan: 0}}`).
    private static var plainFilters: SchemaValue {
        .strings(Filter.PlainName.allCases.map(\.rawValue))
    }

    /// One predicate of the check map.
    private static var onePredicate: SchemaValue {
        .array(Predicate.allCases.map { ["required": [.string($0.rawValue)]] })
    }

    /// A check map: a filter name leading to the rest of the check, or `filters` and one predicate; `textual` for
    /// a check on text, which without filters compares scalars.
    private static func checkMap(textual: Bool) -> SchemaValue {
        let predicates = SchemaValue.members(
            [(QueryParser.Key.filters.rawValue, .ref("filters"))] + Predicate.properties(textual: textual))
        let map: SchemaValue = ["additionalProperties": false, "properties": predicates, "oneOf": onePredicate]
        return [
            "type": "object",
            "anyOf": [
                [
                    "description": "A filter name leading to the rest of the check: {count: {greaterThan: 0}}.",
                    "minProperties": 1, "maxProperties": 1, "propertyNames": ["enum": plainFilters],
                    "additionalProperties": .ref("filteredCheck"),
                ],
                // With filters the value is no longer the raw text.
                textual ? ["if": ["required": ["filters"]], "then": .ref("predicateMap"), "else": map] : map,
            ],
        ]
    }

    private static var valueCheck: SchemaValue {
        let words = Predicate.names + [QueryParser.Key.filters.rawValue]
        return .described(
            "A check on a JSON/XML value: any value (equality; a map that is not a check is an expected object), or "
                + "a map with one predicate, optionally after filters. Wrap an object whose keys look like a check "
                + "in {equals: ...}.",
            [
                "if": [
                    "type": "object",
                    "anyOf": [
                        ["propertyNames": ["enum": .strings(words)]],
                        ["minProperties": 1, "maxProperties": 1, "propertyNames": ["enum": plainFilters]],
                    ],
                ],
                "then": .ref("predicateMap"),
            ])
    }

    // MARK: - Queries

    /// A query's arguments need the query: `attribute` a `cookie`, `group` a `regex`.
    private static let queryDependencies: SchemaValue = ["attribute": ["cookie"], "group": ["regex"]]

    /// Exactly one query key.
    private static var oneQuery: SchemaValue {
        ["oneOf": .array(QueryParser.Key.queries.map { ["required": [.string($0.rawValue)]] })]
    }

    /// A check of the general form: one query, optional filters, one predicate; on a query of text without
    /// filters, the equality predicates compare scalars.
    private static var assertItem: SchemaValue {
        let textQuery: SchemaValue = [
            "anyOf": [
                ["required": ["header"]], ["required": ["regex"]],
                ["required": ["query"], "properties": ["query": ["enum": ["body", "url", "sha256", "md5"]]]],
            ]
        ]
        let equalities: [Predicate] = [.equals, .notEquals, .contains, .notContains, .oneOf]
        return .described(
            "A check of the general form: one query ("
                + QueryParser.Key.queries.map(\.rawValue).joined(separator: ", ")
                + "), optional filters, one predicate.",
            [
                "type": "object", "additionalProperties": false,
                "properties": QueryParser.Key.properties.merged(with: .members(Predicate.properties(textual: false))),
                "dependentRequired": queryDependencies,
                "allOf": [
                    oneQuery, ["oneOf": onePredicate],
                    [
                        "if": ["allOf": [textQuery, ["not": ["required": ["filters"]]]]],
                        "then": [
                            "properties": .members(equalities.map { ($0.rawValue, $0.schema(textual: true)) })
                        ],
                    ],
                ],
            ])
    }
}
