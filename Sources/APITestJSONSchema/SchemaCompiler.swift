import APITestJSON

/// Turns schema documents from a ``SchemaRegistry`` into a graph of ``SchemaNode``s.
///
/// Every schema location compiles once (cached by document and pointer), so recursive references become
/// cycles in the graph. References are resolved here, never during validation.
final class SchemaCompiler {
    let registry: SchemaRegistry
    private var cache: [SchemaLocation: SchemaNode] = [:]
    private var seenResources: Set<String> = []
    private(set) var tracksAnnotations = false
    /// Rewrites each object schema before its keywords compile (``JSONSchemaBatchCompiler``'s dialect
    /// translation); `nil` compiles schemas as they are.
    let transform: JSONSchemaBatchCompiler.Transform?
    /// Whether the targets of references compile after the schema that names them, from a work list, rather than
    /// inside it (``JSONSchemaBatchCompiler``'s mode): a long chain of references between the components of a
    /// large document then costs no stack. Off, a schema compiles depth-first as it always has.
    let defersReferences: Bool
    /// Reference targets created but not compiled yet (``defersReferences``).
    private var pending: [SchemaLocation] = []

    init(registry: SchemaRegistry, transform: JSONSchemaBatchCompiler.Transform? = nil, defersReferences: Bool = false)
    {
        self.registry = registry
        self.transform = transform
        self.defersReferences = defersReferences
    }

    /// Compiles the document at `uri` and the dynamic anchors of every resource it reaches.
    func compile(documentURI uri: String) throws(JSONSchemaError) -> CompiledSchema {
        try compile(at: SchemaLocation(document: uri, pointer: []))
    }

    /// Compiles the schema at `location` and the dynamic anchors of every resource reached so far.
    func compile(at location: SchemaLocation) throws(JSONSchemaError) -> CompiledSchema {
        // After an error, reference targets still pending compile in the next call (where their own errors surface).
        let root = try node(at: location)
        try compilePending()
        var dynamicAnchors: [String: [String: SchemaNode]] = [:]
        var processed: Set<String> = []
        // Only the resources that declare dynamic anchors (few, if any) are looked for among those seen: a set
        // difference of every seen resource per compiled schema was quadratic in a document's files (DigitalOcean's
        // 2,907 files took 67 s to load).
        while let resource = registry.dynamicAnchors.keys.first(where: {
            !processed.contains($0) && seenResources.contains($0)
        }) {
            processed.insert(resource)
            for (name, location) in registry.dynamicAnchors[resource] ?? [:] {
                dynamicAnchors[resource, default: [:]][name] = try node(at: location)
                try compilePending()
            }
        }
        return CompiledSchema(root: root, dynamicAnchors: dynamicAnchors, tracksAnnotations: tracksAnnotations)
    }

    // MARK: - Nodes

    /// The compiled node for the schema at `location`.
    func node(at location: SchemaLocation) throws(JSONSchemaError) -> SchemaNode {
        if let cached = cache[location] { return cached }
        let (node, value, document) = try newNode(at: location)
        try fill(node, at: location, value: value, document: document)
        return node
    }

    /// The node for a reference's target: compiled now, or (``defersReferences``) created now and compiled from the
    /// work list.
    private func referencedNode(at location: SchemaLocation) throws(JSONSchemaError) -> SchemaNode {
        guard defersReferences else { return try node(at: location) }
        if let cached = cache[location] { return cached }
        let node = try newNode(at: location).node
        pending.append(location)
        return node
    }

    /// Compiles the deferred reference targets, and those they defer in turn.
    private func compilePending() throws(JSONSchemaError) {
        while let location = pending.popLast() {
            guard let node = cache[location], let value = registry.value(at: location),
                let document = registry.documents[location.document]
            else { continue }
            try fill(node, at: location, value: value, document: document)
        }
    }

    /// A new, empty node for the schema at `location`, cached; with the schema and its document.
    private func newNode(
        at location: SchemaLocation
    ) throws(JSONSchemaError) -> (node: SchemaNode, value: JSONValue, document: SchemaRegistry.Document) {
        guard let value = registry.value(at: location), let document = registry.documents[location.document] else {
            throw error(at: location, "no schema at this location", kind: .unresolvableReference)
        }
        let base = registry.base(for: location)
        let node = SchemaNode(resourceURI: base)
        cache[location] = node
        seenResources.insert(base)
        return (node, value, document)
    }

    /// Compiles `value`, the schema at `location` in `document`, into `node`.
    private func fill(
        _ node: SchemaNode, at location: SchemaLocation, value: JSONValue, document: SchemaRegistry.Document
    ) throws(JSONSchemaError) {
        let base = node.resourceURI
        switch value {
        case .bool(let boolean):
            node.boolean = boolean
        case .object(let written):
            let object = try transform?(written, location.document, location.pointer) ?? written
            var context = KeywordContext(
                compiler: self, object: object, location: location, base: base, draft: document.draft,
                vocabulary: document.draft == .draft7 ? .all : document.vocabulary)
            node.keywords = try context.compileKeywords()
            node.objectPlan = ObjectPlan(keywords: node.keywords)
            node.scalarPlan = ScalarPlan(keywords: node.keywords)
            if context.usesUnevaluated { tracksAnnotations = true }
        default:
            throw error(at: location, "a schema must be an object or a boolean, found \(value.typeName)")
        }
    }

    /// An error about the value at `location`.
    func error(
        at location: SchemaLocation, _ reason: String, kind: JSONSchemaError.Kind = .invalidSchema
    )
        -> JSONSchemaError
    {
        JSONSchemaError(
            kind: kind, documentURI: location.document, schemaPath: JSONPointer.text(location.pointer),
            reason: reason)
    }

    /// Resolves a `$ref`/`$dynamicRef` value found at `location` against `base`.
    func referenceTarget(
        _ value: JSONValue, at location: SchemaLocation, base: String, draft: JSONSchemaDraft
    )
        throws(JSONSchemaError) -> (node: SchemaNode, location: SchemaLocation, absolute: String)
    {
        guard case .string(let reference) = value else {
            throw error(at: location, "\(location.pointer.last ?? "$ref") must be a string, found \(value.typeName)")
        }
        let absolute = URIReference.resolve(reference, against: base)
        guard let target = try registry.locate(absolute, fallbackDraft: draft, from: location.document) else {
            var failure = error(
                at: location, "cannot resolve \(location.pointer.last ?? "$ref") \"\(reference)\" (\(absolute))",
                kind: .unresolvableReference)
            failure.reference = reference
            throw failure
        }
        return (try referencedNode(at: target), target, absolute)
    }
}
