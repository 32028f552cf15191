import APITestJSON

/// A compiled schema: a boolean schema or a list of compiled keywords.
///
/// Nodes form a graph (references may be cyclic), so they are classes; they are filled in once while
/// compiling and never change afterwards, which is why sharing them across threads is safe.
final class SchemaNode: @unchecked Sendable {
    /// The schema resource this node belongs to, for the dynamic scope of `$dynamicRef`.
    let resourceURI: String
    /// `true`/`false` for boolean schemas, `nil` for object schemas. Set while compiling, only read afterwards: no
    /// dynamic exclusivity check on each read (every evaluation of every value reads it).
    @exclusivity(unchecked) var boolean: Bool?
    /// The keywords, in evaluation order; set while compiling, only read afterwards.
    @exclusivity(unchecked) var keywords: [Keyword] = []
    /// `properties`, `additionalProperties` and `required` as one pass, for the quick check; set with `keywords`.
    @exclusivity(unchecked) var objectPlan: ObjectPlan?
    /// The keywords as one check of a scalar, for the quick check, when they are only about one; set with `keywords`.
    @exclusivity(unchecked) var scalarPlan: ScalarPlan?

    init(resourceURI: String) {
        self.resourceURI = resourceURI
    }
}
