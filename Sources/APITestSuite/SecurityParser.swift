import APITestSecurity
import APITestSupport
import APITestYAML

/// `security:`: certificate trust and pinning for the suite's requests (AFSecurityPolicy's settings, in curl's pin
/// format), with AFNetworking's rules between the settings.
enum SecurityParser {
    /// The keys of `security:`.
    static let keys = SecuritySetting.names

    // MARK: - The block

    /// The suite's `security:` block; errors and warnings (the model's rules, ``SecurityFacts/problems``) are
    /// reported at the key they concern.
    static func parse(_ entry: MapEntry, in context: SuiteParseContext) -> SuiteSecurity? {
        guard let entries = context.mapping(entry.value, for: "security") else { return nil }
        context.checkKeys(entries, of: SecuritySetting.self, in: "security")
        var settings = SecuritySettings()
        var pinningKnown = true
        for item in entries {
            switch SecuritySetting(named: item.key) {
            case .pinning:
                guard let text = context.text(item.value, for: "pinning") else { continue }
                if let mode = PinningMode(rawValue: text) {
                    settings.pinning = mode
                } else {
                    pinningKnown = false
                    let names = PinningMode.allCases.map(\.rawValue)
                    context.error(
                        "unknown pinning '\(text)'; use none, publicKey or certificate"
                            + Suggestion.didYouMean(text, in: names), at: item.value)
                }
            case .pins:
                settings.pins = stringList(item.value, for: "pins", in: context).compactMap { text, node in
                    do throws(SecurityProblem) {
                        return try PublicKeyPin(text)
                    } catch {
                        context.error(error.message(in: .suiteKeys), at: node)
                        return nil
                    }
                }
            case .certificates:
                settings.certificates = stringList(item.value, for: "certificates", in: context).compactMap {
                    path, node in context.checkBodyFile(path, at: node, for: "certificate")
                }
            case .allowInvalidCertificates:
                settings.allowInvalidCertificates = context.bool(item.value, for: item.key) ?? false
            case .validatesDomainName:
                settings.validatesDomainName = context.bool(item.value, for: item.key) ?? true
            case .caFile:
                settings.caFile = file(item, in: context)
            case .clientCertificate:
                settings.clientCertificate = file(item, in: context)
            case .clientKey:
                settings.clientKey = file(item, in: context)
            case .hosts:
                settings.hosts = stringList(item.value, for: "hosts", in: context).map { $0.0.lowercased() }
            case nil:
                break
            }
        }
        // With an unknown mode, what the other settings would mean is unknown too.
        if pinningKnown { report(settings.problems, entries: entries, at: entry, in: context) }
        return SuiteSecurity(settings: settings, location: context.location(of: entry.keyNode))
    }

    /// The absolute path of a file setting, checked to be readable; `nil` (reported) when it is not.
    private static func file(_ item: MapEntry, in context: SuiteParseContext) -> String? {
        guard let path = context.text(item.value, for: item.key) else { return nil }
        return context.checkBodyFile(path, at: item.value, for: item.key)
    }

    /// Reports the rules' problems at the key each concerns (the `security` key when that is absent). A problem
    /// that follows from a setting already reported as wrong is left out: a missing pin or file written under
    /// its key, and the single-pin warning in a file with errors.
    private static func report(
        _ problems: [SecurityProblem], entries: [MapEntry], at entry: MapEntry, in context: SuiteParseContext
    ) {
        for problem in problems {
            switch problem.kind {
            case .publicKeyNeedsPins
            where entries[SecuritySetting.pins] != nil || entries[SecuritySetting.certificates] != nil,
                .certificateNeedsCertificates where entries[SecuritySetting.certificates] != nil,
                .clientKeyNeedsCertificate where entries[SecuritySetting.clientCertificate] != nil:
                continue
            case .singlePin where context.fileHasErrors:
                continue
            default:
                break
            }
            let node = entries[key: problem.setting.rawValue]?.keyNode ?? entry.keyNode
            let message = problem.message(in: .suiteKeys)
            let note = problem.note(in: .suiteKeys)
            if problem.isError {
                context.error(message, at: node, note: note)
            } else {
                context.warning(message, at: node, note: note)
            }
        }
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

// MARK: - Schema

extension SecuritySetting {
    var schema: SchemaValue {
        switch self {
        case .pinning:
            .described(
                "What must match: none (default), publicKey (a pin matches a key of the verified chain) or "
                    + "certificate (the pinned certificates are the only trust anchors).",
                ["enum": .strings(PinningMode.allCases.map(\.rawValue))])
        case .pins:
            .described(
                "Public-key pins in curl's format, sha256//<base64 of the SHA-256 of the SubjectPublicKeyInfo>; one "
                    + "string or a list.", ["anyOf": [.ref("pin"), ["type": "array", "items": .ref("pin")]]])
        case .certificates:
            .described(
                "Pinned certificate files (PEM or DER), relative to the suite file; one path or a list.",
                ["anyOf": [.ref("filePath"), ["type": "array", "items": .ref("filePath")]]])
        case .allowInvalidCertificates:
            .described(
                "Accept a chain that fails verification (never disables a pin or the host-name check).",
                ["type": "boolean"])
        case .validatesDomainName:
            .described("Check the certificate against the URL's host (default true).", ["type": "boolean"])
        case .caFile: .described("A PEM bundle of trust anchors instead of the system's.", ref: "filePath")
        case .clientCertificate: .described("A PEM client certificate for mutual TLS.", ref: "filePath")
        case .clientKey:
            .described("The client certificate's PEM key (default: the certificate file).", ref: "filePath")
        case .hosts:
            .described(
                "The hosts the pins apply to (default: the host of each request).",
                ["anyOf": [["type": "string"], ["type": "array", "items": .ref("text")]]])
        }
    }

    /// The definition of `security:`.
    static var definition: SchemaValue {
        .described(
            "How servers' certificate chains are trusted (AFSecurityPolicy): pinning and trust anchors, checked "
                + "during the TLS handshake.",
            ["type": ["object", "null"], "additionalProperties": false, "properties": properties])
    }
}
