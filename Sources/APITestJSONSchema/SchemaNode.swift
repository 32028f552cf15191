import APITestJSON

/// A compiled schema: a boolean schema or a list of compiled keywords.
///
/// Nodes form a graph (references may be cyclic), so they are classes; they are filled in once while
/// compiling and never change afterwards, which is why sharing them across threads is safe.
final class SchemaNode: @unchecked Sendable {
    /// The schema resource this node belongs to, for the dynamic scope of `$dynamicRef`.
    let resourceURI: String
    /// `true`/`false` for boolean schemas, `nil` for object schemas.
    var boolean: Bool?
    var keywords: [Keyword] = []

    init(resourceURI: String) {
        self.resourceURI = resourceURI
    }
}

/// One compiled keyword: its name (the schema-path segment) and what it checks.
struct Keyword: Sendable {
    let name: String
    let check: Check

    /// What a keyword checks, with its value pre-processed.
    enum Check: Sendable {
        case ref(SchemaNode)
        /// `$dynamicRef`; `anchor` is set when the static target carries a matching `$dynamicAnchor`.
        case dynamicRef(SchemaNode, anchor: String?)
        case type([String])
        case const(JSONValue)
        case enumeration([JSONValue])
        case multipleOf(DecimalNumber, JSONValue)
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
        case dependentRequired([(String, [String])])
        case properties([String: SchemaNode])
        case patternProperties([(SchemaRegex, SchemaNode)])
        case additionalProperties(SchemaNode, names: Set<String>, patterns: [SchemaRegex])
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

/// The compiled form of a whole schema: its root and the dynamic anchors of every resource reached.
final class CompiledSchema: @unchecked Sendable {
    let root: SchemaNode
    /// Resource URI → dynamic anchor name → node.
    let dynamicAnchors: [String: [String: SchemaNode]]
    /// Whether any `unevaluated*` keyword exists, so evaluation must collect annotations.
    let tracksAnnotations: Bool

    init(root: SchemaNode, dynamicAnchors: [String: [String: SchemaNode]], tracksAnnotations: Bool) {
        self.root = root
        self.dynamicAnchors = dynamicAnchors
        self.tracksAnnotations = tracksAnnotations
    }
}
