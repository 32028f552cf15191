import APITestJSON
import APITestResults

/// An `ExportTraceServiceRequest` in OTLP/HTTP's JSON encoding (the protobuf JSON mapping with OTLP's changes:
/// trace and span ids as hex, enums as integers, keys in lowerCamelCase), one resource and one scope.
enum OTLPJSONEncoder {
    /// The request body of `spans`, described by `resource` and scope `apitest` at `version`.
    static func encode(
        _ spans: [TelemetrySpan], resource: [TelemetrySpan.Attribute], version: String
    ) -> [UInt8] {
        var out = "{\"resourceSpans\":[{\"resource\":{\"attributes\":"
        append(resource, to: &out)
        out += "},\"scopeSpans\":[{\"scope\":{\"name\":\"apitest\",\"version\":"
        out += JSONWriter.quoted(version)
        out += "},\"spans\":["
        for (index, span) in spans.enumerated() {
            if index > 0 { out += "," }
            append(span, to: &out)
        }
        out += "]}]}]}"
        return Array(out.utf8)
    }

    // MARK: - Parts

    private static func append(_ span: TelemetrySpan, to out: inout String) {
        out += "{\"traceId\":\"\(span.traceID.hex)\",\"spanId\":\"\(span.spanID.hex)\""
        if let parent = span.parentSpanID { out += ",\"parentSpanId\":\"\(parent.hex)\"" }
        if let state = span.traceState { out += ",\"traceState\":" + JSONWriter.quoted(state) }
        out += ",\"name\":" + JSONWriter.quoted(span.name)
        out += ",\"kind\":\(span.kind.rawValue)"
        // 64-bit integers as strings, as the protobuf JSON mapping writes them.
        out += ",\"startTimeUnixNano\":\"\(span.startNanoseconds)\",\"endTimeUnixNano\":\"\(span.endNanoseconds)\""
        out += ",\"attributes\":"
        append(span.attributes, to: &out)
        switch span.status {
        case .unset: break
        case .error(let message): out += ",\"status\":{\"code\":2,\"message\":" + JSONWriter.quoted(message) + "}"
        }
        out += "}"
    }

    private static func append(_ attributes: [TelemetrySpan.Attribute], to out: inout String) {
        out += "["
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { out += "," }
            out += "{\"key\":" + JSONWriter.quoted(attribute.key) + ",\"value\":{"
            switch attribute.value {
            case .string(let text): out += "\"stringValue\":" + JSONWriter.quoted(text)
            case .int(let number): out += "\"intValue\":\"\(number)\""
            case .bool(let flag): out += "\"boolValue\":\(flag)"
            }
            out += "}}"
        }
        out += "]"
    }
}
