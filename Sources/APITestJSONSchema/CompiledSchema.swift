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
