import APITestJSON
import APITestJSONSchema
import APITestSupport
import Foundation

/// `expect.schema`: a schema file (JSON, relative to the suite) or an inline schema, compiled on load.
extension SuiteParser {
    func parseSchema(_ node: YAMLNode) -> SchemaExpectation? {
        let at = location(of: node)
        if isMapping(node) {
            let value = templateValue(node)
            guard value.templates.allSatisfy(\.isLiteral), let json = try? value.render(TemplateContext()) else {
                error("an inline schema cannot use placeholders", at: node)
                return nil
            }
            // Local files only (never the network), like every other file a suite names.
            let resolver = DirectoryJSONSchemaResolver(directory: URL(fileURLWithPath: "/", isDirectory: true))
            do {
                let schema = try JSONSchema(
                    json,
                    baseURI: URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("inline.json")
                        .absoluteString, resolver: resolver)
                return SchemaExpectation(schema: schema, source: "inline", location: at)
            } catch {
                self.error("invalid inline schema: \(Self.describe(error))", at: node)
                return nil
            }
        }
        guard let path = text(node, for: "schema") else { return nil }
        guard let absolute = checkBodyFile(path, at: node, for: "schema") else { return nil }
        if let cached = context.compiledSchemas[absolute] {
            return SchemaExpectation(schema: cached, source: path, location: at)
        }
        let url = URL(fileURLWithPath: absolute)
        do {
            let schema = try JSONSchema(
                contentsOf: url,
                resolver: DirectoryJSONSchemaResolver(directory: URL(fileURLWithPath: "/", isDirectory: true)))
            context.compiledSchemas[absolute] = schema
            return SchemaExpectation(schema: schema, source: path, location: at)
        } catch {
            self.error("invalid schema '\(path)': \(Self.describe(error))", at: node)
            return nil
        }
    }

    /// A schema error without the long base URI of inline schemas.
    private static func describe(_ error: JSONSchemaError) -> String {
        var text = error.reason
        if let reference = error.reference, !text.contains(reference) { text += " ($ref \"\(reference)\")" }
        if !error.schemaPath.isEmpty { text += " at \(error.schemaPath)" }
        return text
    }
}

// MARK: - Response decoding

extension SuiteParser {
    static let responseKeys = ["decoders", "removesKeysWithNullValues", "acceptableContentTypes"]

    /// `response: {decoders: [json, text], removesKeysWithNullValues: true}`.
    func parseResponseDecoding(_ node: YAMLNode) -> ResponseDecoding {
        var decoding = ResponseDecoding()
        guard let entries = mapping(node, for: "response") else { return decoding }
        checkKeys(entries, allowed: Self.responseKeys, in: "response")
        if let entry = entries[key: "acceptableContentTypes"], let items = sequence(entry.value, for: entry.key) {
            let types = items.compactMap { item -> String? in
                guard let type = text(item, for: "acceptableContentTypes") else { return nil }
                let isPattern = type.hasPrefix("+") || (type.split(separator: "/").count == 2 && !type.contains(" "))
                if !isPattern {
                    error("'\(type)' is not a media type (type/subtype, type/*, or a +suffix like +json)", at: item)
                    return nil
                }
                return type
            }
            if items.isEmpty { error("'acceptableContentTypes' is empty", at: entry.value) }
            decoding.acceptableContentTypes = types
            decoding.location = location(of: entry.keyNode)
        }
        if let entry = entries[key: "removesKeysWithNullValues"] {
            decoding.removesKeysWithNullValues = bool(entry.value, for: "removesKeysWithNullValues") ?? false
        }
        if let entry = entries[key: "decoders"], let items = sequence(entry.value, for: "decoders") {
            var names: [ResponseDecoderName] = []
            for item in items {
                guard let text = text(item, for: "decoders") else { continue }
                if let name = ResponseDecoderName(rawValue: text) {
                    if names.contains(name) {
                        error("decoder '\(text)' is listed twice", at: item)
                    } else {
                        names.append(name)
                    }
                } else {
                    error(
                        "unknown decoder '\(text)'" + Suggestion.didYouMean(text, in: ResponseDecoding.decoderNames),
                        at: item, note: "decoders: " + ResponseDecoding.decoderNames.joined(separator: ", "))
                }
            }
            if names.isEmpty, !items.isEmpty { return decoding }
            if items.isEmpty { error("'decoders' is empty; list at least one decoder", at: entry.value) }
            decoding.decoders = names
        }
        return decoding
    }
}
