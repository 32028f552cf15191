import APITestSupport
import APITestYAML

/// `response:`: how response bodies are decoded (the decoders in order, acceptable content types, null members).
enum ResponseDecodingParser {
    /// The keys of `response:`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case decoders, removesKeysWithNullValues, acceptableContentTypes

        var schema: SchemaValue {
            switch self {
            case .decoders:
                .described(
                    "The decoders to try, in order: " + ResponseDecoding.decoderNames.joined(separator: ", ")
                        + " (default: chosen by Content-Type and sniffing).",
                    [
                        "type": "array", "minItems": 1, "uniqueItems": true,
                        "items": ["enum": .strings(ResponseDecoding.decoderNames)],
                    ])
            case .removesKeysWithNullValues:
                .described(
                    "Drop object members whose value is null from decoded JSON (AFJSONResponseSerializer's "
                        + "removesKeysWithNullValues).", ["type": "boolean"])
            case .acceptableContentTypes:
                .described(
                    "Media types every response must have: type/subtype, type/*, or a +suffix like +json.",
                    [
                        "type": "array", "minItems": 1,
                        "items": ["type": "string", "pattern": #"^(?:\+.*|/*[^/ ]+/+[^/ ]+/*)$"#],
                    ])
            }
        }

        /// The definition of `response:`.
        static var definition: SchemaValue {
            .described(
                "How response bodies are decoded for the checks.",
                ["type": ["object", "null"], "additionalProperties": false, "properties": properties])
        }
    }

    /// The keys of `response:`, as written.
    static let keys = Key.names

    /// `response: {decoders: [json, text], removesKeysWithNullValues: true}`.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> ResponseDecoding {
        var decoding = ResponseDecoding()
        guard let entries = context.mapping(node, for: "response") else { return decoding }
        context.checkKeys(entries, of: Key.self, in: "response")
        if let entry = entries[Key.acceptableContentTypes], let items = context.sequence(entry.value, for: entry.key) {
            let types = items.compactMap { item -> String? in
                guard let type = context.text(item, for: "acceptableContentTypes") else { return nil }
                let isPattern = type.hasPrefix("+") || (type.split(separator: "/").count == 2 && !type.contains(" "))
                if !isPattern {
                    context.error(
                        "'\(type)' is not a media type (type/subtype, type/*, or a +suffix like +json)", at: item)
                    return nil
                }
                return type
            }
            if items.isEmpty { context.error("'acceptableContentTypes' is empty", at: entry.value) }
            decoding.acceptableContentTypes = types
            decoding.location = context.location(of: entry.keyNode)
        }
        if let entry = entries[Key.removesKeysWithNullValues] {
            decoding.removesKeysWithNullValues = context.bool(entry.value, for: "removesKeysWithNullValues") ?? false
        }
        if let entry = entries[Key.decoders], let items = context.sequence(entry.value, for: "decoders") {
            var names: [ResponseDecoderName] = []
            for item in items {
                guard let text = context.text(item, for: "decoders") else { continue }
                if let name = ResponseDecoderName(rawValue: text) {
                    if names.contains(name) {
                        context.error("decoder '\(text)' is listed twice", at: item)
                    } else {
                        names.append(name)
                    }
                } else {
                    context.error(
                        "unknown decoder '\(text)'" + Suggestion.didYouMean(text, in: ResponseDecoding.decoderNames),
                        at: item, note: "decoders: " + ResponseDecoding.decoderNames.joined(separator: ", "))
                }
            }
            if names.isEmpty, !items.isEmpty { return decoding }
            if items.isEmpty { context.error("'decoders' is empty; list at least one decoder", at: entry.value) }
            decoding.decoders = names
        }
        return decoding
    }
}
