import APITestJSON
import APITestSupport
import APITestYAML

/// `expect.events:` and the captures from events (`capture: {name: {event: last, path: $.id}}`).
enum EventsParser {
    /// The keys of `events:`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case format, count, first, last, nth, each, any, until, within, show

        var schema: SchemaValue {
            switch self {
            case .format:
                .described(
                    "How the body is cut into events: sse (text/event-stream), ndjson (a JSON text a line) or json-seq "
                        + "(RFC 7464). Absent: from the response's Content-Type, SSE when it names none.",
                    ["enum": .strings(EventsExpectation.Format.allCases.map(\.rawValue))])
            case .count:
                .described("The number of events (before the one `until` matched).", ref: "scalarCheck")
            case .first: .described("Checks of the first event.", ref: "eventCheck")
            case .last: .described("Checks of the last event (before the one `until` matched).", ref: "eventCheck")
            case .nth:
                .described(
                    "Checks of events by 0-based position (negative counts from the end): {0: {...}, 2: {...}}.",
                    [
                        "type": "object", "propertyNames": ["pattern": "^-?[0-9]+$"],
                        "additionalProperties": .ref("eventCheck"),
                    ])
            case .each: .described("Checks every event must pass.", ref: "eventCheck")
            case .any: .described("Checks at least one event must pass.", ref: "eventCheck")
            case .until:
                .described(
                    "The event that ends the stream ({event: done}, {data: \"[DONE]\"}): the transfer stops there and "
                        + "the step goes on; a stream that ends without it fails.",
                    ref: "eventCheck")
            case .within:
                .described(
                    "Time limits: a duration for both, or {first: the first event after the request starts, gap: "
                        + "between events}.",
                    [
                        "anyOf": [
                            .ref("duration"),
                            [
                                "type": "object", "additionalProperties": false,
                                "properties": ["first": .ref("duration"), "gap": .ref("duration")],
                            ],
                        ]
                    ])
            case .show:
                .described(
                    "How many events the reports list (default 5).", ["type": "integer", "minimum": 0, "maximum": 100])
            }
        }

        /// The definition of `events:`.
        static var definition: SchemaValue {
            .described(
                "The response read as a stream of events (Server-Sent Events, NDJSON / JSON Lines), each checked as "
                    + "it arrives (docs/streaming.md).",
                ["type": "object", "additionalProperties": false, "properties": properties])
        }
    }

    /// The keys of the checks of one event.
    enum CheckKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case event, id, retry, data, json

        var schema: SchemaValue {
            switch self {
            case .event: .described("The event type (message when none was given).", ref: "textCheck")
            case .id: .described("The last event ID.", ref: "textCheck")
            case .retry: .described("The retry field, in milliseconds.", ref: "scalarCheck")
            case .data: .described("The data, as text (data lines joined with line feeds).", ref: "textCheck")
            case .json:
                .described(
                    "RFC 9535 JSONPath → check on the data parsed as JSON.",
                    [
                        "type": "object", "propertyNames": ["pattern": #"^\s*\$"#],
                        "additionalProperties": .ref("valueCheck"),
                    ])
            }
        }

        /// The definition of an event's checks.
        static var definition: SchemaValue {
            .described(
                "Checks of one event: event, id, retry, data, json.",
                ["type": "object", "additionalProperties": false, "properties": properties])
        }
    }

    // MARK: - Events

    /// `events:` of `expect`.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> EventsExpectation? {
        var expectation = EventsExpectation(location: context.location(of: node))
        if let scalar = context.scalar(node), YAMLScalar.isNull(scalar) { return expectation }
        guard let entries = context.mapping(node, for: "events") else { return nil }
        context.checkKeys(entries, of: Key.self, in: "events")
        for entry in entries {
            switch Key(named: entry.key) {
            case .format:
                guard let text = context.scalar(entry.value)?.string,
                    let format = EventsExpectation.Format(rawValue: text)
                else {
                    context.error(
                        "invalid events format; use one of "
                            + EventsExpectation.Format.allCases.map(\.rawValue).joined(separator: ", "),
                        at: entry.value)
                    continue
                }
                expectation.format = format
            case .count:
                if let assertion = CheckParser.check(
                    entry.value, query: .stream(.count), at: context.location(of: entry.keyNode), in: context)
                {
                    expectation.count.append(assertion)
                }
            case .first: expectation.first = check(entry, in: context)
            case .last: expectation.last = check(entry, in: context)
            case .each: expectation.each = check(entry, in: context)
            case .any: expectation.any = check(entry, in: context)
            case .until: expectation.until = check(entry, in: context)
            case .nth:
                guard let items = context.mapping(entry.value, for: "nth") else { continue }
                for item in items {
                    guard let index = Int(item.key), (-1_000_000...1_000_000).contains(index) else {
                        context.error(
                            "'\(item.key)' is not an event position; write a 0-based index (negative from the end)",
                            at: item.keyNode)
                        continue
                    }
                    if let made = check(item, in: context) {
                        expectation.nth.append(IndexedEventCheck(index: index, check: made))
                    }
                }
            case .within:
                if context.isMapping(entry.value), let limits = context.mapping(entry.value, for: "within") {
                    for limit in limits {
                        switch limit.key {
                        case "first": expectation.firstWithin = context.duration(limit.value, for: "within.first")
                        case "gap": expectation.gapWithin = context.duration(limit.value, for: "within.gap")
                        default:
                            context.error(
                                "unknown key '\(limit.key)' in within"
                                    + Suggestion.didYouMean(limit.key, in: ["first", "gap"]),
                                at: limit.keyNode)
                        }
                    }
                } else if let both = context.duration(entry.value, for: "within") {
                    expectation.firstWithin = both
                    expectation.gapWithin = both
                }
            case .show:
                if let shown = context.integer(entry.value, for: "show", in: 0...100) { expectation.shown = shown }
            case nil: break
            }
        }
        return expectation
    }

    /// The checks of one event (`first`, `each`, `until`, an `nth` item ...).
    private static func check(_ entry: MapEntry, in context: SuiteParseContext) -> EventCheck? {
        let location = context.location(of: entry.keyNode)
        guard context.isMapping(entry.value), let entries = context.mapping(entry.value, for: entry.key) else {
            context.error(
                "expected a map of event checks for '\(entry.key)', found \(context.kindName(of: entry.value))",
                at: entry.value, note: "write {event: done}, {data: \"[DONE]\"} or {json: {$.id: 1}}")
            return nil
        }
        context.checkKeys(entries, of: CheckKey.self, in: "an event check")
        var assertions: [Assertion] = []
        for item in entries {
            let at = context.location(of: item.keyNode)
            switch CheckKey(named: item.key) {
            case .event, .id, .retry:
                let field = EventField(rawValue: item.key) ?? .event
                if let made = CheckParser.check(item.value, query: .stream(.field(field)), at: at, in: context) {
                    assertions.append(made)
                }
            case .data:
                if let made = CheckParser.check(item.value, query: .body, at: at, in: context) {
                    assertions.append(made)
                }
            case .json:
                guard let paths = context.mapping(item.value, for: "json") else { continue }
                for path in paths {
                    let query = context.jsonPath(path.key, at: path.keyNode).map(Query.jsonpath)
                    let made = CheckParser.check(
                        path.value, query: query ?? .body, at: context.location(of: path.keyNode), in: context)
                    if let made, query != nil { assertions.append(made) }
                }
            case nil: break
            }
        }
        if assertions.isEmpty, entries.isEmpty {
            context.error("'\(entry.key)' has no checks", at: entry.value, note: "write {event: done}")
            return nil
        }
        return EventCheck(location: location, assertions: assertions)
    }

    // MARK: - Captures

    /// The keys of a capture from an event.
    static let captureKeys = ["event", "field", "path"]

    /// A capture from an event: `{event: first | last | until | N, field: id | event | retry | data, path: $.x}`
    /// (`field` and `path` exclusive; neither: the data, as JSON when it parses).
    static func capture(
        name: String, _ entries: [MapEntry], at node: YAMLNode, location: SourceLocation,
        in context: SuiteParseContext
    ) -> CaptureSpec? {
        var selector: EventSelector?
        var field: EventField?
        var path: JSONPath?
        var valid = true
        for entry in entries {
            switch entry.key {
            case "event":
                let text = context.scalar(entry.value)?.string ?? ""
                switch text {
                case "first": selector = .first
                case "last": selector = .last
                case "until": selector = .terminal
                default:
                    if let index = Int(text), index >= 0 {
                        selector = .index(index)
                    } else {
                        context.error(
                            "invalid event '\(text.shownInMessage)' in capture '\(name)'; use first, last, until or a "
                                + "0-based index",
                            at: entry.value)
                        valid = false
                    }
                }
            case "field":
                let text = context.scalar(entry.value)?.string ?? ""
                guard let made = EventField(rawValue: text) else {
                    context.error(
                        "invalid field '\(text.shownInMessage)' in capture '\(name)'; use one of "
                            + EventField.allCases.map(\.rawValue).joined(separator: ", "),
                        at: entry.value)
                    valid = false
                    continue
                }
                field = made
            case "path":
                let text = context.scalar(entry.value)?.string ?? ""
                if let made = context.jsonPath(text, at: entry.value) { path = made } else { valid = false }
            default:
                context.error(
                    "unknown key '\(entry.key)' in capture '\(name)' from an event"
                        + Suggestion.didYouMean(entry.key, in: captureKeys),
                    at: entry.keyNode)
                valid = false
            }
        }
        if field != nil, path != nil {
            context.error("capture '\(name)' takes either 'field' or 'path', not both", at: node)
            valid = false
        }
        guard valid, let selector else { return nil }
        return CaptureSpec(
            name: name, query: .stream(.captured(selector, field: field, path: path)), location: location)
    }
}
