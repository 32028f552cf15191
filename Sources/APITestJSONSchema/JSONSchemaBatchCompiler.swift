package import APITestJSON

/// Compiles many schemas that live inside a set of documents (an OpenAPI document and the files it refers to)
/// over one registry: every document is added once, and a subschema that several schemas reach (a shared
/// component) compiles once, its compiled node shared by every ``JSONSchema`` made here.
///
/// ```swift
/// let batch = JSONSchemaBatchCompiler()
/// try batch.addDocument(openAPIDocument, uri: "file:///api/openapi.json")
/// let pet = try batch.compile(documentURI: "file:///api/openapi.json", pointer: ["components", "schemas", "Pet"])
/// ```
///
/// Used while loading, on one thread; the schemas it returns are immutable and `Sendable` like any other. The targets
/// of references compile from a work list rather than recursively, so a long chain of references between components
/// (`A.next → B`, `B.next → C`, ...) costs no stack.
package final class JSONSchemaBatchCompiler {
    /// Rewrites an object schema before its keywords compile, for a dialect that is translated into 2020-12
    /// (OpenAPI 3.0's Schema Object): the schema as written, its document's URI and its JSON Pointer tokens.
    ///
    /// The result must keep the subschemas where the input has them (a subschema compiles from its own location),
    /// and may throw to refuse the schema.
    package typealias Transform =
        (_ schema: JSONObject, _ documentURI: String, _ pointer: [String]) throws(JSONSchemaError) -> JSONObject

    private let registry: SchemaRegistry
    private let compiler: SchemaCompiler

    /// Creates an empty batch.
    ///
    /// - Parameters:
    ///   - resolver: supplies documents that are referenced but neither added nor bundled.
    ///   - transform: applied to every object schema compiled here, in every document; `nil` compiles them as
    ///     written.
    package init(resolver: (any JSONSchemaResolver)? = nil, transform: Transform? = nil) {
        registry = SchemaRegistry(resolver: resolver)
        compiler = SchemaCompiler(registry: registry, transform: transform, defersReferences: true)
    }

    /// Adds a document under the absolute URI `uri` (its fragment ignored), against which its relative references
    /// resolve. Its root is indexed as a schema (a root `$schema` is honoured); schemas elsewhere in it are indexed
    /// by ``indexEmbeddedSchema(documentURI:pointer:)``.
    ///
    /// - Parameter draft: the dialect when the root has no `$schema`.
    package func addDocument(
        _ value: JSONValue, uri: String, draft: JSONSchemaDraft = .draft2020
    ) throws(JSONSchemaError) {
        try registry.add(value, uri: URIReference(uri).withoutFragment.text, fallbackDraft: draft)
    }

    /// Indexes the schema at `pointer` inside the added document `documentURI`, so that the `$id`s and anchors it
    /// declares are found by references; a no-op when there is no such document or location.
    package func indexEmbeddedSchema(documentURI: String, pointer: [String]) {
        registry.indexEmbeddedSchema(at: SchemaLocation(document: documentURI, pointer: pointer))
    }

    /// Compiles the schema at `pointer` inside the document `documentURI` (added, bundled or resolvable), reusing
    /// every node an earlier call compiled.
    ///
    /// A schema that fails leaves its partly compiled nodes behind (a later schema that reaches the failed one does
    /// not fail again); the reference targets it had not compiled yet compile in the next call, which then reports
    /// their errors. After an error, a loader reports the errors and keeps none of the schemas.
    package func compile(documentURI: String, pointer: [String]) throws(JSONSchemaError) -> JSONSchema {
        let document = URIReference(documentURI).withoutFragment.text
        let compiled = try compiler.compile(at: SchemaLocation(document: document, pointer: pointer))
        return JSONSchema(
            compiled: compiled, draft: registry.documents[document]?.draft ?? .draft2020, baseURI: document)
    }
}
