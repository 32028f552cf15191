/// The JSON Schema dialects the validator implements.
package enum JSONSchemaDraft: String, Sendable, Hashable, CaseIterable {
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`), the default.
    case draft2020 = "https://json-schema.org/draft/2020-12/schema"
    /// Draft-07 (`http://json-schema.org/draft-07/schema#`).
    case draft7 = "http://json-schema.org/draft-07/schema#"

    /// The meta-schema URI without an empty fragment, as used for lookups.
    var metaSchemaURI: String {
        switch self {
        case .draft2020: return "https://json-schema.org/draft/2020-12/schema"
        case .draft7: return "http://json-schema.org/draft-07/schema"
        }
    }

    /// The draft whose meta-schema is `uri` (with or without an empty fragment, `http` or `https`).
    init?(metaSchemaURI uri: String) {
        var text = uri
        if text.hasSuffix("#") { text.removeLast() }
        if text.hasPrefix("http://") { text = "https://" + text.dropFirst("http://".count) }
        switch text {
        case "https://json-schema.org/draft/2020-12/schema": self = .draft2020
        case "https://json-schema.org/draft-07/schema": self = .draft7
        default: return nil
        }
    }
}
