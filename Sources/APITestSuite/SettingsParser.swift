import APITestSupport
import APITestYAML

/// `variables:` and `defaults:`, which a suite and the settings files it includes both hold.
enum SettingsParser {
    /// The keys of `defaults:` besides the transport keys (``TransportSpec/Key``), which follow them.
    enum DefaultsKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case headers, timeout, followRedirects, maxRedirects, retry, maxResponseSize, compressed, auth

        var schema: SchemaValue {
            switch self {
            case .headers:
                .described(
                    "Headers sent with every request; a request header of the same name (case-insensitive) "
                        + "replaces one.", ref: "headers")
            case .timeout: .described("Per-request time limit.", ref: "duration")
            case .followRedirects, .maxRedirects, .compressed: .ref(rawValue)
            case .retry: .described("The retry policy of every step that has none of its own.", ref: "retry")
            case .maxResponseSize:
                .described(
                    "The most bytes of a response body kept in memory for checks: a number of bytes, or a size with "
                        + "a unit (`200MB`, `64MiB`, `1.5GB`; KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of "
                        + "1024); `0` for no limit. Default: `--max-response-size`, 64 MiB. Bodies that no check reads "
                        + "(only size or digests) are not kept and not limited.",
                    [
                        "anyOf": [
                            ["type": "integer", "minimum": 0],
                            [
                                "type": "string",
                                "pattern": #"^\s*(?:[0-9]+\.?[0-9]*|\.[0-9]+)\s*(?:[kKmMgGtT][iI]?[bB]|[bB])?\s*$"#,
                            ],
                        ]
                    ])
            case .auth:
                .described(
                    "How every request without auth, basicAuth or its own Authorization header authenticates.",
                    ref: "auth")
            }
        }
    }

    /// The keys of `defaults:`, as written.
    static let defaultsKeys = DefaultsKey.names + TransportSpec.Key.names

    // MARK: - Variables

    /// The variables of a `variables:` map, in document order; invalid names are reported and left out.
    static func variables(_ node: YAMLNode, in context: SuiteParseContext) -> [Suite.Variable] {
        guard let entries = context.mapping(node, for: "variables") else { return [] }
        var variables: [Suite.Variable] = []
        for entry in entries where context.checkVariableName(entry.key, at: entry.keyNode, what: "variable") {
            variables.append(
                Suite.Variable(
                    name: entry.key, value: context.templateValue(entry.value),
                    location: context.location(of: entry.keyNode)))
        }
        return variables
    }

    // MARK: - Defaults

    /// The request defaults of a `defaults:` map.
    static func defaults(_ node: YAMLNode, in context: SuiteParseContext) -> RequestDefaults {
        var defaults = RequestDefaults()
        guard let entries = context.mapping(node, for: "defaults") else { return defaults }
        context.checkKeys(entries, of: DefaultsKey.self, and: TransportSpec.Key.self, in: "defaults")
        for entry in entries {
            switch DefaultsKey(named: entry.key) {
            case .headers: defaults.headers = RequestParser.headers(entry.value, in: context)
            case .timeout: defaults.timeout = context.duration(entry.value, for: "timeout")
            case .followRedirects:
                defaults.followRedirects = context.bool(entry.value, for: "followRedirects") ?? true
            case .maxRedirects:
                defaults.maxRedirects = context.integer(entry.value, for: "maxRedirects", in: 0...1000)
            case .retry: defaults.retry = RetryParser.parse(entry.value, in: context)
            case .maxResponseSize: defaults.maxResponseSize = context.byteSize(entry.value, for: "maxResponseSize")
            case .compressed: defaults.compressed = context.bool(entry.value, for: "compressed")
            case .auth: defaults.auth = AuthParser.parse(entry.value, in: context)
            case nil:
                guard let key = TransportSpec.Key(named: entry.key) else { break }
                var transport = defaults.transport ?? TransportSpec()
                TransportParser.parse(entry, key: key, into: &transport, in: context)
                defaults.transport = transport
            }
        }
        // `auth: none` is no authentication: beside an `Authorization` header it gives nothing twice.
        if let auth = defaults.auth, auth != .disabled,
            let header = defaults.headers.first(where: { $0.name.lowercased() == "authorization" })
        {
            context.error(
                "authentication is given twice in defaults: 'auth' and an 'Authorization' header", at: header.location)
        }
        return defaults
    }
}
