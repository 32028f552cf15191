/// The bundled meta-schemas, so references to them work offline.
enum MetaSchemas {
    /// The JSON text of the bundled meta-schema with absolute URI `uri` (no fragment), if any.
    static func text(for uri: String) -> String? {
        switch uri {
        case "https://json-schema.org/draft/2020-12/schema": return draft2020Schema
        case "https://json-schema.org/draft/2020-12/meta/core": return draft2020Core
        case "https://json-schema.org/draft/2020-12/meta/applicator": return draft2020Applicator
        case "https://json-schema.org/draft/2020-12/meta/unevaluated": return draft2020Unevaluated
        case "https://json-schema.org/draft/2020-12/meta/validation": return draft2020Validation
        case "https://json-schema.org/draft/2020-12/meta/meta-data": return draft2020MetaData
        case "https://json-schema.org/draft/2020-12/meta/format-annotation": return draft2020FormatAnnotation
        case "https://json-schema.org/draft/2020-12/meta/format-assertion": return draft2020FormatAssertion
        case "https://json-schema.org/draft/2020-12/meta/content": return draft2020Content
        case "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema": return draft7Schema
        default: return nil
        }
    }
}
