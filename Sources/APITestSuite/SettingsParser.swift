import APITestSupport

/// `variables:` and `defaults:`, which a suite and the settings files it includes both hold.
enum SettingsParser {
    /// The keys of `defaults:`.
    static let defaultsKeys =
        ["headers", "timeout", "followRedirects", "maxRedirects", "retry", "maxResponseSize", "compressed", "auth"]
        + TransportSpec.keys

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
        context.checkKeys(entries, allowed: defaultsKeys, in: "defaults")
        for entry in entries {
            switch entry.key {
            case "headers": defaults.headers = RequestParser.headers(entry.value, in: context)
            case "timeout": defaults.timeout = context.duration(entry.value, for: "timeout")
            case "followRedirects":
                defaults.followRedirects = context.bool(entry.value, for: "followRedirects") ?? true
            case "maxRedirects":
                defaults.maxRedirects = context.integer(entry.value, for: "maxRedirects", in: 0...1000)
            case "retry": defaults.retry = RetryParser.parse(entry.value, in: context)
            case "maxResponseSize": defaults.maxResponseSize = context.byteSize(entry.value, for: "maxResponseSize")
            case "compressed": defaults.compressed = context.bool(entry.value, for: "compressed")
            case "auth": defaults.auth = AuthParser.parse(entry.value, in: context)
            case let key where TransportSpec.keys.contains(key):
                var transport = defaults.transport ?? TransportSpec()
                TransportParser.parse(entry, into: &transport, in: context)
                defaults.transport = transport
            default: break
            }
        }
        if defaults.auth != nil, let header = defaults.headers.first(where: { $0.name.lowercased() == "authorization" })
        {
            context.error(
                "authentication is given twice in defaults: 'auth' and an 'Authorization' header", at: header.location)
        }
        return defaults
    }
}
