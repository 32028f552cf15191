package import APITestResults

/// One span as apitest exports it over OTLP: a run, a suite, an attempt of a test, or a step. Every text in it
/// comes from a sealed result (masked and cut as reports show it) or from names written in the suite.
package struct TelemetrySpan: Sendable, Hashable {
    /// OTLP's `SpanKind`.
    package enum Kind: Int, Sendable, Hashable {
        /// A run, a suite or a test: work inside apitest.
        case `internal` = 1
        /// A step that sent a request: the tested service's server span is its child.
        case client = 3
    }

    /// OTLP's `Status`.
    package enum Status: Sendable, Hashable {
        /// Nothing said (a passing or skipped test).
        case unset
        /// Failed, with the failure's message (masked, as reports show it).
        case error(String)
    }

    /// An attribute's value: OTLP's `AnyValue`, the kinds apitest sets.
    package enum Value: Sendable, Hashable {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    /// An attribute: a semantic-convention key and its value.
    package struct Attribute: Sendable, Hashable {
        package var key: String
        package var value: Value

        /// `key` set to `value`.
        package init(_ key: String, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    package var traceID: TraceID
    package var spanID: SpanID
    /// The parent span; nil for the root (a run without a CI parent).
    package var parentSpanID: SpanID?
    /// The W3C `tracestate` of the span's context (a CI parent's), nil for none.
    package var traceState: String?
    package var name: String
    package var kind: Kind
    /// Nanoseconds since 1970-01-01 UTC.
    package var startNanoseconds: UInt64
    /// Nanoseconds since 1970-01-01 UTC, never before the start.
    package var endNanoseconds: UInt64
    package var attributes: [Attribute]
    package var status: Status

    /// A span; an end before `start` is moved to it.
    package init(
        traceID: TraceID, spanID: SpanID, parentSpanID: SpanID?, traceState: String? = nil, name: String,
        kind: Kind = .internal, startNanoseconds: UInt64, endNanoseconds: UInt64, attributes: [Attribute] = [],
        status: Status = .unset
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.traceState = traceState
        self.name = name
        self.kind = kind
        self.startNanoseconds = startNanoseconds
        self.endNanoseconds = max(startNanoseconds, endNanoseconds)
        self.attributes = attributes
        self.status = status
    }
}
