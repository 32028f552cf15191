import APITestJSON

/// All schema documents known while compiling: the root, bundled meta-schemas and resolved remotes, with
/// their embedded resources (`$id`), anchors and dynamic anchors indexed.
final class SchemaRegistry {
    struct Document {
        let uri: String
        let root: JSONValue
        let draft: JSONSchemaDraft
        let vocabulary: Vocabulary
    }

    private(set) var documents: [String: Document] = [:]
    /// Absolute resource URI (no fragment) → location of the resource's root schema.
    private(set) var resources: [String: SchemaLocation] = [:]
    /// `uri#name` → location, for `$anchor`, `$dynamicAnchor` and draft-07 `$id: "#name"`.
    private(set) var anchors: [String: SchemaLocation] = [:]
    /// Resource URI → dynamic anchor name → location.
    private(set) var dynamicAnchors: [String: [String: SchemaLocation]] = [:]
    /// Base URI of every schema location found while indexing.
    private var bases: [SchemaLocation: String] = [:]

    let resolver: (any JSONSchemaResolver)?

    init(resolver: (any JSONSchemaResolver)?) {
        self.resolver = resolver
    }

    // MARK: - Documents

    /// Adds a document under `uri` and indexes it. `fallbackDraft` applies when it has no `$schema`.
    @discardableResult
    func add(_ root: JSONValue, uri: String, fallbackDraft: JSONSchemaDraft) throws(JSONSchemaError) -> Document {
        if let existing = documents[uri] { return existing }
        var draft = fallbackDraft
        var vocabulary = Vocabulary.all
        if case .object(let object) = root, let schema = object["$schema"] {
            guard case .string(let metaURI) = schema else {
                throw JSONSchemaError(
                    kind: .invalidSchema, documentURI: uri, schemaPath: "/$schema", reason: "$schema must be a string")
            }
            if let known = JSONSchemaDraft(metaSchemaURI: metaURI) {
                draft = known
            } else {
                let metaKey = URIReference(URIReference.resolve(metaURI, against: uri)).withoutFragment.text
                guard metaKey != uri, let meta = try load(metaKey, fallbackDraft: .draft2020, from: uri) else {
                    throw JSONSchemaError(
                        kind: .unsupportedDraft, documentURI: uri, schemaPath: "/$schema",
                        reason: "unknown meta-schema \"\(metaURI)\": neither a supported draft nor resolvable",
                        reference: metaURI)
                }
                draft = meta.draft
                if case .object(let metaObject) = meta.root, case .object(let vocab) = metaObject["$vocabulary"] {
                    vocabulary = Vocabulary(vocabularyObject: vocab)
                }
            }
        }
        let document = Document(uri: uri, root: root, draft: draft, vocabulary: vocabulary)
        documents[uri] = document
        resources[uri] = SchemaLocation(document: uri, pointer: [])
        index(root, at: SchemaLocation(document: uri, pointer: []), base: uri, draft: draft)
        return document
    }

    /// The document at `uri`: already known, bundled, or from the resolver; `nil` when nobody has it.
    func load(
        _ uri: String, fallbackDraft: JSONSchemaDraft, from referrer: String
    ) throws(JSONSchemaError)
        -> Document?
    {
        if let existing = documents[uri] { return existing }
        if let text = MetaSchemas.text(for: uri) {
            let value: JSONValue
            do { value = try JSONParser.parse(text) } catch {
                throw JSONSchemaError(
                    kind: .resolverFailure, documentURI: uri, schemaPath: "",
                    reason: "bundled meta-schema does not parse: \(error)")
            }
            return try add(value, uri: uri, fallbackDraft: fallbackDraft)
        }
        guard let resolver else { return nil }
        let value: JSONValue?
        do { value = try resolver.resolve(uri) } catch {
            throw JSONSchemaError(
                kind: .resolverFailure, documentURI: referrer, schemaPath: "",
                reason: "cannot load \(uri): \(JSONParseError.describing(error))", reference: uri)
        }
        guard let value else { return nil }
        return try add(value, uri: uri, fallbackDraft: fallbackDraft)
    }

    // MARK: - Indexing

    /// Indexes the schema at `location` inside a document that is not itself a schema (an OpenAPI document, whose
    /// schemas sit under members that indexing the root does not walk): its `$id`s, anchors and subschemas.
    func indexEmbeddedSchema(at location: SchemaLocation) {
        guard let document = documents[location.document], let value = value(at: location) else { return }
        index(value, at: location, base: base(for: location), draft: document.draft)
    }

    private func index(_ value: JSONValue, at location: SchemaLocation, base: String, draft: JSONSchemaDraft) {
        guard case .object(let object) = value else {
            if case .bool = value { bases[location] = base }
            return
        }
        var base = base
        if case .string(let id) = object["$id"] {
            if draft == .draft2020 {
                let resolved = URIReference(URIReference.resolve(id, against: base)).withoutFragment.text
                base = resolved
                if resources[resolved] == nil || !location.pointer.isEmpty { resources[resolved] = location }
            } else if object["$ref"] == nil {
                let resolved = URIReference(URIReference.resolve(id, against: base))
                let withoutFragment = resolved.withoutFragment.text
                if !id.hasPrefix("#") {
                    base = withoutFragment
                    resources[withoutFragment] = location
                }
                if let fragment = resolved.fragment, !fragment.isEmpty, !fragment.hasPrefix("/") {
                    anchors[base + "#" + fragment] = location
                }
            }
        }
        if draft == .draft2020 {
            if case .string(let anchor) = object["$anchor"] { anchors[base + "#" + anchor] = location }
            if case .string(let anchor) = object["$dynamicAnchor"] {
                anchors[base + "#" + anchor] = location
                dynamicAnchors[base, default: [:]][anchor] = location
            }
        }
        bases[location] = base
        for (key, child) in object {
            switch Self.subschemaShape(of: key, draft: draft) {
            case .single:
                index(child, at: location.appending(key), base: base, draft: draft)
            case .array:
                if case .array(let items) = child {
                    for (offset, item) in items.enumerated() {
                        index(item, at: location.appending(key, String(offset)), base: base, draft: draft)
                    }
                } else {
                    index(child, at: location.appending(key), base: base, draft: draft)
                }
            case .map:
                if case .object(let members) = child {
                    for (name, item) in members {
                        index(item, at: location.appending(key, name), base: base, draft: draft)
                    }
                }
            case nil:
                break
            }
        }
    }

    enum SubschemaShape {
        case single
        case array
        case map
    }

    /// How a keyword holds subschemas, or `nil` for keywords whose value is not a schema.
    static func subschemaShape(of keyword: String, draft: JSONSchemaDraft) -> SubschemaShape? {
        switch keyword {
        case "additionalItems", "additionalProperties", "contains", "propertyNames", "if", "then", "else", "not":
            return .single
        case "unevaluatedItems", "unevaluatedProperties", "contentSchema":
            return draft == .draft2020 ? .single : nil
        case "items", "allOf", "anyOf", "oneOf": return .array
        case "prefixItems": return draft == .draft2020 ? .array : nil
        case "properties", "patternProperties", "definitions", "dependencies": return .map
        case "$defs", "dependentSchemas": return draft == .draft2020 ? .map : nil
        default: return nil
        }
    }

    // MARK: - Lookup

    /// The base URI in effect at `location` (the nearest enclosing `$id`).
    func base(for location: SchemaLocation) -> String {
        var probe = location
        while true {
            if let base = bases[probe] { return base }
            if probe.pointer.isEmpty { return location.document }
            probe.pointer.removeLast()
        }
    }

    /// The JSON value at `location`.
    func value(at location: SchemaLocation) -> JSONValue? {
        guard let document = documents[location.document] else { return nil }
        return JSONPointer.value(in: document.root, at: location.pointer)
    }

    /// Resolves the absolute URI `uri` (fragment allowed) to a schema location, loading documents on demand.
    func locate(
        _ uri: String, fallbackDraft: JSONSchemaDraft, from referrer: String
    ) throws(JSONSchemaError)
        -> SchemaLocation?
    {
        let parsed = URIReference(uri)
        let resource = parsed.withoutFragment.text
        let fragment = parsed.fragment ?? ""
        if resources[resource] == nil && anchors[resource + "#" + fragment] == nil {
            _ = try load(resource, fallbackDraft: fallbackDraft, from: referrer)
        }
        if let tokens = JSONPointer.tokens(fromFragment: fragment) {
            guard let root = resources[resource] else { return nil }
            let location = SchemaLocation(document: root.document, pointer: root.pointer + tokens)
            return value(at: location) == nil ? nil : location
        }
        return anchors[resource + "#" + fragment]
    }
}
