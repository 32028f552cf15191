import APITestJSON

/// The schema dialect of a document's Schema Objects, from its `openapi` version.
enum SchemaDialect: Sendable, Hashable {
    /// OpenAPI 3.0: an extended subset of JSON Schema Wright draft 00, translated into 2020-12.
    case openAPI30
    /// OpenAPI 3.1: JSON Schema 2020-12 (OpenAPI's base dialect adds annotations only).
    case openAPI31

    /// The URI of OpenAPI 3.1's base dialect.
    static let openAPI31DialectURI = "https://spec.openapis.org/oas/3.1/dialect/base"

    /// Whether `uri` names a dialect apitest validates as 2020-12: 2020-12 itself or OpenAPI 3.1's base dialect
    /// (with or without an empty fragment; `http` or `https`).
    static func isSupportedDialect(_ uri: String) -> Bool {
        var text = Substring(uri)
        if text.hasSuffix("#") { text = text.dropLast() }
        if text.hasPrefix("http://") { text = "https://" + text.dropFirst("http://".count) }
        if text == "https://json-schema.org/draft/2020-12/schema" || text == Self.openAPI31DialectURI { return true }
        // The dialect's dated publications (`.../dialect/2024-11-10`) are the same dialect.
        let prefix = "https://spec.openapis.org/oas/3.1/dialect/"
        guard text.hasPrefix(prefix) else { return false }
        let date = text.dropFirst(prefix.count)
        return date.count == 10
            && date.enumerated().allSatisfy { offset, character in
                offset == 4 || offset == 7 ? character == "-" : character.isASCII && character.isNumber
            }
    }

    /// OpenAPI 3.1's base dialect as a meta-schema that the schema compiler can load (2020-12 with every vocabulary
    /// that validates; OpenAPI's own vocabulary adds annotations only).
    static let openAPI31DialectMetaSchema: JSONValue = [
        "$id": .string(openAPI31DialectURI),
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$dynamicAnchor": "meta",
        "$vocabulary": [
            "https://json-schema.org/draft/2020-12/vocab/core": true,
            "https://json-schema.org/draft/2020-12/vocab/applicator": true,
            "https://json-schema.org/draft/2020-12/vocab/unevaluated": true,
            "https://json-schema.org/draft/2020-12/vocab/validation": true,
            "https://json-schema.org/draft/2020-12/vocab/meta-data": true,
            "https://json-schema.org/draft/2020-12/vocab/format-annotation": true,
            "https://json-schema.org/draft/2020-12/vocab/content": true,
        ],
        "allOf": [["$ref": "https://json-schema.org/draft/2020-12/schema"]],
    ]
}
