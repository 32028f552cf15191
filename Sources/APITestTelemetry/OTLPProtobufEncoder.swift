import APITestResults

/// An `ExportTraceServiceRequest` in protobuf's binary encoding (OTLP/HTTP's default, `application/x-protobuf`),
/// written field by field from `opentelemetry/proto/trace/v1/trace.proto` and its imports: one resource, one
/// scope. Only the fields apitest sets; a field at its default is left out, as protobuf does.
enum OTLPProtobufEncoder {
    /// The request body of `spans`, described by `resource` and scope `apitest` at `version`.
    static func encode(
        _ spans: [TelemetrySpan], resource: [TelemetrySpan.Attribute], version: String
    ) -> [UInt8] {
        // ScopeSpans { scope = 1; spans = 2 }
        var scopeSpans = ProtobufWriter()
        var scope = ProtobufWriter()
        scope.string(1, "apitest")
        scope.string(2, version)
        scopeSpans.message(1, scope)
        for span in spans { scopeSpans.message(2, encode(span)) }
        // ResourceSpans { resource = 1; scope_spans = 2 }, Resource { attributes = 1 }
        var resourceMessage = ProtobufWriter()
        for attribute in resource { resourceMessage.message(1, encode(attribute)) }
        var resourceSpans = ProtobufWriter()
        resourceSpans.message(1, resourceMessage)
        resourceSpans.message(2, scopeSpans)
        // ExportTraceServiceRequest { resource_spans = 1 }
        var request = ProtobufWriter()
        request.message(1, resourceSpans)
        return request.bytes
    }

    /// Span { trace_id = 1; span_id = 2; trace_state = 3; parent_span_id = 4; name = 5; kind = 6;
    /// start_time_unix_nano = 7 (fixed64); end_time_unix_nano = 8 (fixed64); attributes = 9; status = 15 }
    private static func encode(_ span: TelemetrySpan) -> ProtobufWriter {
        var out = ProtobufWriter()
        out.bytes(1, bigEndian: [span.traceID.high, span.traceID.low])
        out.bytes(2, bigEndian: [span.spanID.value])
        if let state = span.traceState, !state.isEmpty { out.string(3, state) }
        if let parent = span.parentSpanID { out.bytes(4, bigEndian: [parent.value]) }
        out.string(5, span.name)
        out.varintField(6, UInt64(span.kind.rawValue))
        out.fixed64(7, span.startNanoseconds)
        out.fixed64(8, span.endNanoseconds)
        for attribute in span.attributes { out.message(9, encode(attribute)) }
        if case .error(let message) = span.status {
            // Status { message = 2; code = 3 } with STATUS_CODE_ERROR = 2.
            var status = ProtobufWriter()
            if !message.isEmpty { status.string(2, message) }
            status.varintField(3, 2)
            out.message(15, status)
        }
        return out
    }

    /// KeyValue { key = 1; value = 2 }, AnyValue { string_value = 1; bool_value = 2; int_value = 3 }
    private static func encode(_ attribute: TelemetrySpan.Attribute) -> ProtobufWriter {
        var value = ProtobufWriter()
        switch attribute.value {
        case .string(let text): value.string(1, text, always: true)
        case .bool(let flag): value.varintField(2, flag ? 1 : 0, always: true)
        case .int(let number): value.varintField(3, UInt64(bitPattern: number), always: true)
        }
        var out = ProtobufWriter()
        out.string(1, attribute.key)
        out.message(2, value)
        return out
    }
}
