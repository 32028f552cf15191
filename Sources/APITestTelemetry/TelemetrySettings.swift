package import APITestResults
import APITestSupport
import Foundation

/// What the `OTEL_*` environment asks of a run, read once into this one model (the only reader of those variables):
/// where spans go, with which headers and encoding, the resource that describes apitest, the CI parent's trace and
/// the CI pipeline's attributes. ``init(environment:)`` returns nil when tracing is off: no endpoint, the SDK
/// disabled (`OTEL_SDK_DISABLED=true`) or no OTLP exporter (`OTEL_TRACES_EXPORTER=none`).
package struct TelemetrySettings: Sendable {
    /// How spans are encoded on the wire (`OTEL_EXPORTER_OTLP_PROTOCOL`).
    package enum WireProtocol: String, Sendable, Hashable {
        /// `http/protobuf`, `application/x-protobuf`: the specification's default.
        case httpProtobuf = "http/protobuf"
        /// `http/json`, `application/json`.
        case httpJSON = "http/json"
    }

    /// The URL spans are posted to: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` with `v1/traces` appended.
    package var endpoint: String
    /// Sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`, replaced key by key by `..._TRACES_HEADERS`). Never
    /// exported as attributes, never shown.
    package var headers: [(name: String, value: String)]
    package var wireProtocol: WireProtocol
    /// The most time an export may take, and so the longest the exit waits for the last one
    /// (`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`, `OTEL_EXPORTER_OTLP_TIMEOUT`; 5 s when unset).
    package var timeout: Duration
    /// The resource's attributes, `service.name` first (`OTEL_SERVICE_NAME`, else `OTEL_RESOURCE_ATTRIBUTES`'s,
    /// else `apitest`), then the rest of `OTEL_RESOURCE_ATTRIBUTES` and the SDK's own.
    package var resource: [TelemetrySpan.Attribute]
    /// The run's trace: the CI parent's (`TRACEPARENT`, `TRACESTATE`) or a new one, sampled as
    /// `OTEL_TRACES_SAMPLER` decides (``TelemetrySampler``): an unsampled trace exports no span.
    package var trace: TraceContext
    /// The span the run span is a child of (`TRACEPARENT`'s parent id); nil for a root.
    package var parentSpanID: SpanID?
    /// The run span's `cicd.*` attributes, from the CI's variables (GitHub Actions, GitLab CI).
    package var pipeline: [TelemetrySpan.Attribute]
    /// What is odd but does not stop the run (an invalid `TRACEPARENT`, an exporter other than OTLP), for stderr.
    package var warnings: [String] = []

    /// The default of the export timeout.
    package static let defaultTimeout = Duration.seconds(5)

    /// The settings `environment` asks for; nil when tracing is off. Throws on a value that makes no exporter (a
    /// protocol apitest does not speak, an endpoint that is not a URL, a malformed header list).
    package init?(environment: [String: String], version: String) throws(TelemetrySettingsError) {
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        if value("OTEL_SDK_DISABLED")?.lowercased() == "true" { return nil }
        var warnings: [String] = []
        if let exporters = value("OTEL_TRACES_EXPORTER") {
            let names = exporters.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            for name in names where name != "otlp" && name != "none" && !name.isEmpty {
                warnings.append(
                    "OTEL_TRACES_EXPORTER: '\(name.shownInMessage)' is not supported by apitest (only otlp); ignored")
            }
            guard names.contains("otlp") else { return nil }
        }
        let endpoint: String
        if let traces = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
            try Self.check(endpoint: traces, variable: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            endpoint = traces
        } else if let base = value("OTEL_EXPORTER_OTLP_ENDPOINT") {
            try Self.check(endpoint: base, variable: "OTEL_EXPORTER_OTLP_ENDPOINT")
            endpoint = base.hasSuffix("/") ? base + "v1/traces" : base + "/v1/traces"
        } else {
            return nil
        }
        self.endpoint = endpoint

        let protocolVariable =
            value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") != nil
            ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL"
        if let name = value(protocolVariable) {
            guard let wire = WireProtocol(rawValue: name.lowercased()) else {
                throw TelemetrySettingsError(variable: protocolVariable, .unsupportedProtocol(name))
            }
            wireProtocol = wire
        } else {
            wireProtocol = .httpProtobuf
        }

        var headers: [(name: String, value: String)] = []
        for variable in ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"] {
            guard let list = value(variable) else { continue }
            for (name, text) in try Self.entries(list, variable: variable) {
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
                headers.append((name, text))
            }
        }
        self.headers = headers

        timeout = Self.defaultTimeout
        for variable in ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"] {
            guard let text = value(variable) else { continue }
            guard let milliseconds = Int(text), milliseconds > 0 else {
                throw TelemetrySettingsError(variable: variable, .invalidTimeout(text))
            }
            timeout = .milliseconds(milliseconds)
            break
        }

        var resource: [TelemetrySpan.Attribute] = []
        if let list = value("OTEL_RESOURCE_ATTRIBUTES") {
            for (key, text) in try Self.entries(list, variable: "OTEL_RESOURCE_ATTRIBUTES") {
                resource.removeAll { $0.key == key }
                resource.append(.init(key, .string(text)))
            }
        }
        let service =
            value("OTEL_SERVICE_NAME")
            ?? resource.first { $0.key == "service.name" }.flatMap { attribute in
                if case .string(let name) = attribute.value { name } else { nil }
            }
        resource.removeAll { $0.key == "service.name" || $0.key.hasPrefix("telemetry.sdk.") }
        self.resource =
            [.init("service.name", .string(service ?? "apitest"))] + resource + [
                .init("telemetry.sdk.name", .string("apitest")), .init("telemetry.sdk.language", .string("swift")),
                .init("telemetry.sdk.version", .string(version)),
            ]

        // A CI parent's context (the environment-variable carrier): its trace, with the run span as its child.
        trace = TraceContext(traceID: .random())
        parentSpanID = nil
        if let parent = value("TRACEPARENT") {
            if let parsed = Self.traceparent(parent) {
                trace = TraceContext(traceID: parsed.trace, sampled: parsed.sampled, traceState: value("TRACESTATE"))
                parentSpanID = parsed.parent
            } else {
                warnings.append(
                    "TRACEPARENT: '\(parent.truncated(to: 80).shownInMessage)' is not a W3C traceparent; "
                        + "the run starts a trace of its own")
            }
        }
        // Sampled or not, decided once for the run's trace (OTEL_TRACES_SAMPLER; parentbased_always_on by default).
        let sampler = TelemetrySampler.named(
            value("OTEL_TRACES_SAMPLER"), argument: value("OTEL_TRACES_SAMPLER_ARG"), warnings: &warnings)
        trace.sampled = sampler.samples(trace.traceID, parentSampled: parentSpanID == nil ? nil : trace.sampled)
        pipeline = Self.pipelineAttributes(environment)
        self.warnings = warnings
    }

    // MARK: - Parsing

    /// Throws unless `endpoint` is an `http://` or `https://` URL with a host.
    private static func check(endpoint: String, variable: String) throws(TelemetrySettingsError) {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw TelemetrySettingsError(variable: variable, .invalidEndpoint(endpoint)) }
    }

    /// The `key=value` entries of a W3C-baggage-like list (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_RESOURCE_ATTRIBUTES`):
    /// comma-separated, keys and values trimmed, values percent-decoded. Empty entries are skipped.
    static func entries(_ list: String, variable: String) throws(TelemetrySettingsError) -> [(String, String)] {
        var entries: [(String, String)] = []
        for (offset, entry) in list.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw TelemetrySettingsError(variable: variable, .invalidEntry(offset + 1))
            }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let raw = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.contains(where: { $0.isWhitespace }) else {
                throw TelemetrySettingsError(variable: variable, .invalidEntry(offset + 1))
            }
            entries.append((key, raw.removingPercentEncoding ?? raw))
        }
        return entries
    }

    /// A `traceparent` of version 00 (or a later version's first four fields): its trace, parent and sampled flag.
    static func traceparent(_ text: String) -> (trace: TraceID, parent: SpanID, sampled: Bool)? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields[0].utf8.count == 2, fields[0] != "ff", fields[3].utf8.count == 2,
            fields[0] != "00" || fields.count == 4, let version = UInt8(fields[0], radix: 16), version < 0xff,
            let trace = TraceID(hex: fields[1]), let parent = SpanID(hex: fields[2]),
            let flags = UInt8(fields[3], radix: 16)
        else { return nil }
        return (trace, parent, flags & 1 == 1)
    }

    /// The `cicd.*` attributes of the CI the run is in: GitHub Actions (`GITHUB_ACTIONS=true`) or GitLab CI
    /// (`GITLAB_CI=true`); none elsewhere.
    static func pipelineAttributes(_ environment: [String: String]) -> [TelemetrySpan.Attribute] {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        var attributes: [TelemetrySpan.Attribute] = []
        func add(_ key: String, _ text: String?) {
            if let text { attributes.append(.init(key, .string(text))) }
        }
        if value("GITHUB_ACTIONS") == "true" {
            add("cicd.pipeline.name", value("GITHUB_WORKFLOW"))
            add("cicd.pipeline.run.id", value("GITHUB_RUN_ID"))
            if let server = value("GITHUB_SERVER_URL"), let repository = value("GITHUB_REPOSITORY"),
                let run = value("GITHUB_RUN_ID")
            {
                add("cicd.pipeline.run.url.full", "\(server)/\(repository)/actions/runs/\(run)")
            }
            add("cicd.pipeline.task.name", value("GITHUB_JOB"))
        } else if value("GITLAB_CI") == "true" {
            add("cicd.pipeline.name", value("CI_PIPELINE_NAME") ?? value("CI_PROJECT_PATH"))
            add("cicd.pipeline.run.id", value("CI_PIPELINE_ID"))
            add("cicd.pipeline.run.url.full", value("CI_PIPELINE_URL"))
            add("cicd.pipeline.task.name", value("CI_JOB_NAME"))
            add("cicd.pipeline.task.run.id", value("CI_JOB_ID"))
        }
        return attributes
    }
}
