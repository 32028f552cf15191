import APITestJSON

/// One compiled keyword: its name (the schema-path segment) and what it checks. A class, so that walking a
/// schema's keywords for every value of a large document costs one reference count each, not a copy of the check.
final class Keyword: Sendable {
    let name: String
    let check: Check

    init(name: String, check: Check) {
        self.name = name
        self.check = check
    }

    /// What a keyword checks, with its value pre-processed.
    enum Check: Sendable {
        case ref(SchemaNode)
        /// `$dynamicRef`; `anchor` is set when the static target carries a matching `$dynamicAnchor`.
        case dynamicRef(SchemaNode, anchor: String?)
        case type([String])
        case const(JSONValue)
        case enumeration([JSONValue])
        case multipleOf(JSONNumber, JSONValue)
        case maximum(JSONValue, exclusive: Bool)
        case minimum(JSONValue, exclusive: Bool)
        case maxLength(Int)
        case minLength(Int)
        case pattern(SchemaRegex)
        case maxItems(Int)
        case minItems(Int)
        case uniqueItems
        case maxProperties(Int)
        case minProperties(Int)
        case required([String])
        /// `required` where some properties' schemas set `readOnly` or `writeOnly` to true: each name with those
        /// annotations, so that a validation exempting an annotation (``JSONSchema/exemptingRequired(annotatedWith:)``)
        /// does not require the names that carry it.
        case annotatedRequired([(name: String, annotations: [String])])
        case dependentRequired([(String, [String])])
        case properties([CodePointKey: SchemaNode])
        case patternProperties([(SchemaRegex, SchemaNode)])
        case additionalProperties(SchemaNode, names: Set<CodePointKey>, patterns: [SchemaRegex])
        case propertyNames(SchemaNode)
        case dependentSchemas([(String, SchemaNode)])
        /// `prefixItems` (2020-12) or the array form of `items` (draft-07).
        case prefixItems([SchemaNode])
        /// `items` (2020-12), schema-form `items` or `additionalItems` (draft-07): applies from `start` on.
        case items(SchemaNode, start: Int)
        case contains(SchemaNode, min: Int, max: Int?)
        case allOf([SchemaNode])
        case anyOf([SchemaNode])
        case oneOf([SchemaNode])
        case not(SchemaNode)
        case conditional(if: SchemaNode, then: SchemaNode?, else: SchemaNode?)
        case unevaluatedProperties(SchemaNode)
        case unevaluatedItems(SchemaNode)
    }
}
