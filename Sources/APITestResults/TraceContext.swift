#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Identifiers

/// A W3C Trace Context trace id: 16 bytes, never all zero, written as 32 lowercase hex digits.
package struct TraceID: Sendable, Hashable, Codable {
    /// The first 8 bytes, big-endian.
    package var high: UInt64
    /// The last 8 bytes, big-endian.
    package var low: UInt64

    /// The id made of `high` and `low`.
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A random id (never all zero).
    package static func random() -> TraceID {
        var generator = SystemRandomNumberGenerator()
        while true {
            let id = TraceID(high: generator.next(), low: generator.next())
            if id.high != 0 || id.low != 0 { return id }
        }
    }

    /// The id written as `hex` (32 hex digits, not all zero); nil for anything else.
    package init?(hex: some StringProtocol) {
        guard hex.utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16),
            let low = UInt64(hex.suffix(16), radix: 16), high != 0 || low != 0,
            hex.utf8.allSatisfy(TraceHex.isLowercaseHexDigit)
        else { return nil }
        self.init(high: high, low: low)
    }

    /// 32 lowercase hex digits.
    package var hex: String { TraceHex.digits(high) + TraceHex.digits(low) }
}

/// A W3C Trace Context span id (`parent-id`): 8 bytes, never all zero, written as 16 lowercase hex digits.
package struct SpanID: Sendable, Hashable, Codable {
    /// The 8 bytes, big-endian.
    package var value: UInt64

    /// The id `value` (not zero).
    package init(_ value: UInt64) {
        self.value = value
    }

    /// A random id (never zero).
    package static func random() -> SpanID {
        var generator = SystemRandomNumberGenerator()
        while true {
            let value: UInt64 = generator.next()
            if value != 0 { return SpanID(value) }
        }
    }

    /// The id written as `hex` (16 hex digits, not all zero); nil for anything else.
    package init?(hex: some StringProtocol) {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy(TraceHex.isLowercaseHexDigit),
            let value = UInt64(hex, radix: 16), value != 0
        else { return nil }
        self.init(value)
    }

    /// 16 lowercase hex digits.
    package var hex: String { TraceHex.digits(value) }
}

/// Hex digits of trace and span ids.
enum TraceHex {
    /// `value` as 16 lowercase hex digits.
    static func digits(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.utf8.count) + text
    }

    /// Whether `byte` is `0-9` or `a-f` (W3C Trace Context allows no uppercase).
    static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
    }
}

// MARK: - The run's trace

/// What the runner needs of a traced run (`OTEL_EXPORTER_OTLP_ENDPOINT` set): the trace its steps belong to, so
/// that every request carries a W3C `traceparent` naming the step's span (`00-<trace>-<span>-<flags>`) and the
/// tested service's own spans become the step's children. Set on `RunOptions.tracing` by the command line from the
/// telemetry settings; `nil` (the default) sends no `traceparent`.
package struct TraceContext: Sendable, Hashable {
    /// The run's trace: a CI parent's (`TRACEPARENT`) or a new one.
    package var traceID: TraceID
    /// Whether the trace is sampled (`traceparent`'s flag `01`): the spans are exported.
    package var sampled: Bool
    /// The vendor state passed through unchanged in `tracestate` (`TRACESTATE` of a CI parent); nil for none.
    package var traceState: String?

    /// The context of trace `traceID`.
    package init(traceID: TraceID, sampled: Bool = true, traceState: String? = nil) {
        self.traceID = traceID
        self.sampled = sampled
        self.traceState = traceState
    }

    /// The `traceparent` header value naming `span` as the parent of what the server does.
    package func traceparent(for span: SpanID) -> String {
        "00-\(traceID.hex)-\(span.hex)-\(sampled ? "01" : "00")"
    }
}

// MARK: - A step's span

/// The span of one step in a traced run: its id (the `traceparent` its requests carried) and when it started and
/// ended, in nanoseconds since the Unix epoch. Set by the runner on the step's result; exported by the telemetry
/// exporter as a child of the test attempt's span.
package struct StepTrace: Sendable, Hashable, Codable {
    /// The step span's id.
    package var spanID: SpanID
    /// When the step started, in nanoseconds since 1970-01-01 UTC.
    package var startNanoseconds: UInt64
    /// When the step ended (after its last attempt), in nanoseconds since 1970-01-01 UTC.
    package var endNanoseconds: UInt64

    /// The span `spanID` from `start` to `end`.
    package init(spanID: SpanID, startNanoseconds: UInt64, endNanoseconds: UInt64) {
        self.spanID = spanID
        self.startNanoseconds = startNanoseconds
        self.endNanoseconds = max(startNanoseconds, endNanoseconds)
    }
}

/// The wall clock spans are stamped with (`CLOCK_REALTIME`): spans are read beside the tested service's, so they
/// need the time of day, which a run's `RunClock` (a continuous clock) does not give.
package enum WallClock {
    /// Now, in nanoseconds since 1970-01-01 UTC.
    package static func nanosecondsSinceEpoch() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) * 1_000_000_000 + UInt64(max(0, now.tv_nsec))
    }
}
