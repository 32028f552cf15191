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

    init(registry: SchemaRegistry, transform: JSONSchemaBatchCompiler.Transform? = nil) {
        self.registry = registry
        self.transform = transform
    }

    /// Compiles the document at `uri` and the dynamic anchors of every resource it reaches.
    func compile(documentURI uri: String) throws(JSONSchemaError) -> CompiledSchema {
        try compile(at: SchemaLocation(document: uri, pointer: []))
    }

    /// Compiles the schema at `location` and the dynamic anchors of every resource reached so far.
    func compile(at location: SchemaLocation) throws(JSONSchemaError) -> CompiledSchema {
        let root = try node(at: location)
        var dynamicAnchors: [String: [String: SchemaNode]] = [:]
        var processed: Set<String> = []
        while let resource = seenResources.subtracting(processed).first {
            processed.insert(resource)
            for (name, location) in registry.dynamicAnchors[resource] ?? [:] {
                dynamicAnchors[resource, default: [:]][name] = try node(at: location)
            }
        }
        return CompiledSchema(root: root, dynamicAnchors: dynamicAnchors, tracksAnnotations: tracksAnnotations)
    }

    // MARK: - Nodes

    /// The compiled node for the schema at `location`.
    func node(at location: SchemaLocation) throws(JSONSchemaError) -> SchemaNode {
        if let cached = cache[location] { return cached }
        guard let value = registry.value(at: location), let document = registry.documents[location.document] else {
            throw error(at: location, "no schema at this location", kind: .unresolvableReference)
        }
        let base = registry.base(for: location)
        let node = SchemaNode(resourceURI: base)
        cache[location] = node
        seenResources.insert(base)
        switch value {
        case .bool(let boolean):
            node.boolean = boolean
        case .object(let written):
            let object = try transform?(written, location.document, location.pointer) ?? written
            var context = KeywordContext(
                compiler: self, object: object, location: location, base: base, draft: document.draft,
                vocabulary: document.draft == .draft7 ? .all : document.vocabulary)
            node.keywords = try context.compileKeywords()
            if context.usesUnevaluated { tracksAnnotations = true }
        default:
            throw error(at: location, "a schema must be an object or a boolean, found \(value.typeName)")
        }
        return node
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
        return (try node(at: target), target, absolute)
    }
}
