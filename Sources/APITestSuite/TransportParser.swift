import APITestSupport
import APITestYAML

/// The transport keys of a request or `defaults`: `resolve`, `connectTo`, `unixSocket`, `httpVersion`, `proxy`,
/// `noProxy`.
enum TransportParser {
    /// Reads `entry`, whose key is `key`, into `spec`.
    static func parse(
        _ entry: MapEntry, key: TransportSpec.Key, into spec: inout TransportSpec, in context: SuiteParseContext
    ) {
        switch key {
        case .resolve:
            spec.resolve = entries(entry, check: TransportEntry.resolveProblem, in: context)
        case .connectTo:
            spec.connectTo = entries(entry, check: TransportEntry.connectToProblem, in: context)
        case .unixSocket:
            guard let path = context.text(entry.value, for: "unixSocket") else { return }
            guard !path.isEmpty else {
                context.error("'unixSocket' needs a path", at: entry.value)
                return
            }
            // Not checked now: the server may create its socket after the suite loads.
            spec.unixSocket = FilePaths.absolute(path, relativeTo: context.directory)
        case .httpVersion:
            guard let text = context.text(entry.value, for: "httpVersion") else { return }
            if let problem = TransportSpec.HTTPVersion.problem(text) {
                context.error(problem, at: entry.value)
            } else {
                spec.httpVersion = TransportSpec.HTTPVersion(rawValue: text)
            }
        case .proxy:
            spec.proxy = context.template(entry.value, for: "proxy")
        case .noProxy:
            spec.noProxy = context.template(entry.value, for: "noProxy")
        }
    }

    /// A list (or one string) of templated entries, each literal one checked by `check`.
    private static func entries(
        _ entry: MapEntry, check: (String) -> String?, in context: SuiteParseContext
    ) -> [Template]? {
        let nodes: [YAMLNode]
        if context.isSequence(entry.value) {
            guard let items = context.sequence(entry.value, for: entry.key) else { return nil }
            nodes = Array(items)
        } else {
            nodes = [entry.value]
        }
        var result: [Template] = []
        for node in nodes {
            guard let template = context.template(node, for: entry.key) else { continue }
            if template.isLiteral, let problem = check(template.source) {
                context.error("invalid '\(entry.key)' entry '\(template.source)': \(problem)", at: node)
                continue
            }
            result.append(template)
        }
        return result
    }
}

// MARK: - Schema

extension TransportSpec.Key {
    var schema: SchemaValue {
        switch self {
        case .resolve:
            Self.hostEntries(
                "host:port:address[,address...] entries (curl --resolve); templated.",
                pattern: #"^(?:\{\{.*|\+?[^:]+:[0-9{]+.*:.+)$"#)
        case .connectTo:
            Self.hostEntries(
                "host:port:connect-host:connect-port entries (curl --connect-to); templated.",
                pattern: #"^(?:.*\{\{.*|(?:\[[^]]*\]|[^:]*):[0-9]*:(?:\[[^]]*\]|[^:]*):[0-9]*)$"#)
        case .unixSocket:
            .described(
                "A unix domain socket that carries every connection; relative to the suite file.",
                ["type": "string", "minLength": 1])
        case .httpVersion:
            .described(
                "The HTTP version: 1.1, 2 (HTTP/2 over TLS when offered: the default) or 2-prior-knowledge.",
                ["enum": ["1.1", "2", "2-prior-knowledge", 1.1, 2]])
        case .proxy:
            .described(
                "A proxy URL (otherwise the environment's http_proxy, https_proxy, all_proxy); templated.",
                ref: "template")
        case .noProxy:
            .described("Hosts reached without the proxy, comma-separated, * for all; templated.", ref: "template")
        }
    }

    /// One entry or a list of them, each matching `pattern`.
    private static func hostEntries(_ description: String, pattern: SchemaValue) -> SchemaValue {
        .described(
            description,
            [
                "anyOf": [
                    ["type": "string", "pattern": pattern],
                    ["type": "array", "items": ["type": "string", "pattern": pattern]],
                ]
            ])
    }
}
