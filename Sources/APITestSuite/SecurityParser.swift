import APITestSupport
import Foundation

/// `security:`: certificate trust and pinning for the suite's requests (AFSecurityPolicy's settings, in curl's pin
/// format), with AFNetworking's rules between the settings.
enum SecurityParser {
    /// The keys of `security:`.
    static let keys = [
        "pinning", "pins", "certificates", "allowInvalidCertificates", "validatesDomainName", "caFile",
        "clientCertificate", "clientKey", "hosts",
    ]

    // MARK: - The block

    /// The suite's `security:` block; errors and the single-pin warning are reported where they are.
    static func parse(_ entry: MapEntry, in context: SuiteParseContext) -> SecuritySpec? {
        guard let entries = context.mapping(entry.value, for: "security") else { return nil }
        context.checkKeys(entries, allowed: keys, in: "security")
        var spec = SecuritySpec(location: context.location(of: entry.keyNode))
        var pinningKnown = true
        for item in entries {
            switch item.key {
            case "pinning":
                guard let text = context.text(item.value, for: "pinning") else { continue }
                if let mode = SecuritySpec.Pinning(rawValue: text) {
                    spec.pinning = mode
                } else {
                    pinningKnown = false
                    let names = SecuritySpec.Pinning.allCases.map(\.rawValue)
                    context.error(
                        "unknown pinning '\(text)'; use none, publicKey or certificate"
                            + Suggestion.didYouMean(text, in: names), at: item.value)
                }
            case "pins":
                spec.pins = stringList(item.value, for: "pins", in: context).compactMap { text, node in
                    if let problem = pinProblem(text) {
                        context.error(problem, at: node)
                        return nil
                    }
                    return text
                }
            case "certificates":
                spec.certificates = stringList(item.value, for: "certificates", in: context).compactMap { path, node in
                    context.checkBodyFile(path, at: node, for: "certificate")
                }
            case "allowInvalidCertificates":
                spec.allowInvalidCertificates = context.bool(item.value, for: item.key) ?? false
            case "validatesDomainName":
                spec.validatesDomainName = context.bool(item.value, for: item.key) ?? true
            case "caFile", "clientCertificate", "clientKey":
                guard let path = context.text(item.value, for: item.key) else { continue }
                let absolute = context.checkBodyFile(path, at: item.value, for: item.key)
                switch item.key {
                case "caFile": spec.caFile = absolute
                case "clientCertificate": spec.clientCertificate = absolute
                default: spec.clientKey = absolute
                }
            case "hosts":
                spec.hosts = stringList(item.value, for: "hosts", in: context).map { $0.0.lowercased() }
            default:
                break
            }
        }
        // With an unknown mode, what the other settings would mean is unknown too.
        if pinningKnown { checkCombination(spec, entries: entries, at: entry, in: context) }
        return spec
    }

    /// AFNetworking's rules between the settings, and TrustKit's backup-pin warning.
    private static func checkCombination(
        _ spec: SecuritySpec, entries: [MapEntry], at entry: MapEntry, in context: SuiteParseContext
    ) {
        let modeNode = entries[key: "pinning"]?.keyNode ?? entry.keyNode
        switch spec.pinning {
        case .none:
            for key in ["pins", "certificates"] {
                if let item = entries[key: key] {
                    context.warning(
                        "'\(key)' has no effect while 'pinning' is none", at: item.keyNode,
                        note: "set 'pinning: publicKey' or 'pinning: certificate' to check them")
                }
            }
        case .publicKey:
            if spec.pins.isEmpty && spec.certificates.isEmpty && entries[key: "pins"] == nil
                && entries[key: "certificates"] == nil
            {
                context.error("pinning 'publicKey' needs 'pins' or 'certificates'", at: modeNode)
            } else if spec.pins.count + spec.certificates.count == 1 && !context.fileHasErrors {
                context.warning(
                    "only one pin: add a backup pin (a key not yet in use, or the CA's key)", at: modeNode,
                    note:
                        "a key rotation would otherwise lock out every client that ships this pin; TrustKit requires two"
                )
            }
        case .certificate:
            if entries[key: "certificates"] == nil {
                context.error("pinning 'certificate' needs 'certificates'", at: modeNode)
            }
            if let item = entries[key: "pins"] {
                context.warning(
                    "'pins' has no effect with 'pinning: certificate'", at: item.keyNode,
                    note: "certificate mode compares whole certificates; use 'pinning: publicKey' for key pins")
            }
        }
        let pinned =
            spec.pinning == .publicKey
            ? !(spec.pins.isEmpty && spec.certificates.isEmpty)
            : spec.pinning == .certificate && !spec.certificates.isEmpty
        if spec.allowInvalidCertificates && spec.validatesDomainName && !pinned {
            let at = entries[key: "allowInvalidCertificates"]?.keyNode ?? entry.keyNode
            context.error(
                "'allowInvalidCertificates' with 'validatesDomainName' needs a pin: a self-signed certificate can "
                    + "only be trusted through a pin", at: at,
                note: "pin the certificate or its key, or set 'validatesDomainName: false'")
        }
        if spec.clientKey != nil && entries[key: "clientCertificate"] == nil, let item = entries[key: "clientKey"] {
            context.error("'clientKey' needs a 'clientCertificate'", at: item.keyNode)
        }
    }

    /// The problem with a pin's text, or `nil` when it is `sha256//` and the base64 of 32 bytes.
    static func pinProblem(_ text: String) -> String? {
        guard text.hasPrefix("sha256//") else {
            return "'\(text)' is not a pin; pins look like sha256//<base64 of the SHA-256 of the public key>"
        }
        let encoded = String(text.dropFirst("sha256//".count))
        guard let bytes = Data(base64Encoded: encoded) else { return "the pin '\(text)' is not valid base64" }
        guard bytes.count == 32 else {
            return "the pin '\(text)' holds \(bytes.count) bytes; a SHA-256 pin holds 32 (44 base64 characters)"
        }
        return nil
    }

    /// The strings of a list (a single string counts as a list of one), each with its node.
    private static func stringList(
        _ node: YAMLNode, for name: String, in context: SuiteParseContext
    ) -> [(String, YAMLNode)] {
        if let scalar = context.scalar(node), !YAMLScalar.isNull(scalar) { return [(scalar.string, node)] }
        guard let items = context.sequence(node, for: name) else { return [] }
        return items.compactMap { item in context.text(item, for: name).map { ($0, item) } }
    }
}
