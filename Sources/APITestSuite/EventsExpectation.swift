package import APITestJSON
package import APITestSupport

/// `expect.events:`: the response is read as a stream of events while it arrives (Server-Sent Events, or JSON
/// records a line for NDJSON / JSON Lines / JSON text sequences), each event checked as it comes and then
/// forgotten (docs/streaming.md).
package struct EventsExpectation: Sendable, Hashable {
    /// How the body is cut into events.
    package enum Format: String, Sendable, Hashable, CaseIterable {
        /// `text/event-stream` (WHATWG server-sent events).
        case sse
        /// One JSON text a line: `application/x-ndjson`, `application/jsonl`, `application/json-lines`.
        case ndjson
        /// RFC 7464 JSON text sequences: `application/json-seq`.
        case jsonSeq = "json-seq"

        /// The format of a response's `Content-Type` (its media type, lower-cased), `nil` for another type.
        package static func of(mediaType: String) -> Format? {
            switch mediaType {
            case "text/event-stream": .sse
            case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonl",
                "application/json-lines", "application/jsonlines", "application/x-jsonlines":
                .ndjson
            case "application/json-seq": .jsonSeq
            default: nil
            }
        }
    }

    /// Where `events:` is written.
    package var location: SourceLocation
    /// The format written (`format:`); `nil` reads it from the response's `Content-Type` (SSE when it names none).
    package var format: Format?
    /// Checks on the number of events (query ``StreamQuery/count``).
    package var count: [Assertion] = []
    /// Checks every event must pass.
    package var each: EventCheck?
    /// Checks at least one event must pass.
    package var any: EventCheck?
    /// Checks of the first event.
    package var first: EventCheck?
    /// Checks of the last event (before the one `until` matched).
    package var last: EventCheck?
    /// Checks of events by 0-based position, in the order written.
    package var nth: [IndexedEventCheck] = []
    /// The event that ends the stream: the transfer stops when an event passes every check of it.
    package var until: EventCheck?
    /// The longest wait for the first event, from the start of the request.
    package var firstWithin: Duration?
    /// The longest wait between two events (and for the end of the stream after the last one).
    package var gapWithin: Duration?
    /// How many events the reports show (`show:`), at most.
    package var shown = 5

    /// An expectation written at `location`.
    package init(location: SourceLocation) {
        self.location = location
    }
}

/// Checks of one event: its `event`, `id`, `retry` and `data` (as text, or JSON through `json:`).
package struct EventCheck: Sendable, Hashable {
    /// Where the check is written.
    package var location: SourceLocation
    /// The checks, in the order written: queries ``Query/stream(_:)`` (`event`, `id`, `retry`), ``Query/body``
    /// (`data`) and ``Query/jsonpath(_:)`` (`json`, on the data parsed as JSON).
    package var assertions: [Assertion]

    /// A check of `assertions` written at `location`.
    package init(location: SourceLocation, assertions: [Assertion]) {
        self.location = location
        self.assertions = assertions
    }
}

/// Checks of the event at a 0-based position (`nth: {2: {...}}`); a negative index counts from the end.
package struct IndexedEventCheck: Sendable, Hashable {
    /// The position; negative counts from the end (-1 is the last event).
    package var index: Int
    /// The checks.
    package var check: EventCheck

    /// The check of the event at `index`.
    package init(index: Int, check: EventCheck) {
        self.index = index
        self.check = check
    }
}

/// A part of an event stream a query reads.
package enum StreamQuery: Sendable, Hashable, CustomStringConvertible {
    /// A field of the event checked.
    case field(EventField)
    /// The number of events.
    case count
    /// A capture from one event: its `field`, else the value at `path` of its data parsed as JSON, else its data
    /// (JSON when it parses, else text).
    case captured(EventSelector, field: EventField?, path: JSONPath?)

    /// How the query is named in messages.
    package var description: String {
        switch self {
        case .field(let field): field.rawValue
        case .count: "events count"
        case .captured(let selector, let field, let path):
            "events[\(selector)]" + (field.map { " \($0.rawValue)" } ?? "") + (path.map { " \($0.expression)" } ?? "")
        }
    }
}

/// A field of an event.
package enum EventField: String, Sendable, Hashable, CaseIterable {
    /// The event type (`message` when the event named none; `message` for a JSON line).
    case event
    /// The last event ID (absent until an `id` field was seen).
    case id
    /// The `retry` field in milliseconds (absent when the event had none).
    case retry
    /// The data, as text.
    case data
}

/// Which event a capture reads.
package enum EventSelector: Sendable, Hashable, CustomStringConvertible {
    /// The first event.
    case first
    /// The last event (before the one `until` matched).
    case last
    /// The event `until` matched.
    case terminal
    /// The event at a 0-based position.
    case index(Int)

    /// How the selector is written.
    package var description: String {
        switch self {
        case .first: "first"
        case .last: "last"
        case .terminal: "until"
        case .index(let index): String(index)
        }
    }
}
