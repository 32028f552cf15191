import APITestSupport

/// `response:`: how response bodies are decoded (the decoders in order, acceptable content types, null members).
enum ResponseDecodingParser {
    /// The keys of `response:`.
    static let keys = ["decoders", "removesKeysWithNullValues", "acceptableContentTypes"]

    /// `response: {decoders: [json, text], removesKeysWithNullValues: true}`.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> ResponseDecoding {
        var decoding = ResponseDecoding()
        guard let entries = context.mapping(node, for: "response") else { return decoding }
        context.checkKeys(entries, allowed: keys, in: "response")
        if let entry = entries[key: "acceptableContentTypes"], let items = context.sequence(entry.value, for: entry.key)
        {
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
        if let entry = entries[key: "removesKeysWithNullValues"] {
            decoding.removesKeysWithNullValues = context.bool(entry.value, for: "removesKeysWithNullValues") ?? false
        }
        if let entry = entries[key: "decoders"], let items = context.sequence(entry.value, for: "decoders") {
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
