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
