import APITestJSON
import APITestJSONSchema

/// The schemas of one document, compiled once each: one batch compiler per direction (a schema reads differently
/// in requests and responses: `readOnly`, `writeOnly`), each sharing compiled components across every schema that
/// reaches them.
final class SchemaCompilation {
    /// One direction's compiler.
    private struct Side {
        let batch: JSONSchemaBatchCompiler
        let translator: SchemaTranslator
        /// How many of the document set's files the batch has been given.
        var filesAdded = 0
    }

    private let documents: OpenAPIDocumentSet
    private var request: Side
    private var response: Side
    /// Schemas compiled, by place and direction.
    private var compiled: [Key: CompiledSchemaReference] = [:]

    private struct Key: Hashable {
        var location: SpecLocation
        var direction: SchemaTranslator.Direction
    }

    /// Compilers for schemas of `dialect` in `documents`.
    init(dialect: SchemaDialect, documents: OpenAPIDocumentSet) {
        self.documents = documents
        let resolver = DocumentSetResolver(documents: documents)
        func side(_ direction: SchemaTranslator.Direction) -> Side {
            let translator = SchemaTranslator(dialect: dialect, direction: direction, documents: documents)
            let batch = JSONSchemaBatchCompiler(resolver: resolver) { object, uri, pointer throws(JSONSchemaError) in
                try translator.transform(object, documentURI: uri, pointer: pointer)
            }
            return Side(batch: batch, translator: translator)
        }
        request = side(.request)
        response = side(.response)
    }

    /// Absolute `$id`s seen while compiling, and where they are.
    var identifiers: [String: SpecLocation] {
        request.translator.identifiers.merging(response.translator.identifiers) { first, _ in first }
    }

    /// Makes the `$id`s and anchors of the schema at `location` known to references (OpenAPI 3.1).
    func index(_ location: SpecLocation) {
        for direction in [SchemaTranslator.Direction.request, .response] {
            addFiles(direction)
            let uri = ReferenceText.fileURI(location.path)
            switch direction {
            case .request: request.batch.indexEmbeddedSchema(documentURI: uri, pointer: location.pointer)
            case .response: response.batch.indexEmbeddedSchema(documentURI: uri, pointer: location.pointer)
            }
        }
    }

    /// The schema at `location` compiled for `direction`, or the problem that stops it (with its place).
    func compile(
        _ location: SpecLocation, for direction: SchemaTranslator.Direction
    ) -> Result<CompiledSchemaReference, SchemaFailure> {
        let key = Key(location: location, direction: direction)
        if let done = compiled[key] { return .success(done) }
        if let problem = addFiles(direction) { return .failure(problem) }
        let side = direction == .request ? request : response
        do {
            let schema = try side.batch.compile(
                documentURI: ReferenceText.fileURI(location.path), pointer: location.pointer)
            let reference = CompiledSchemaReference(schema: schema, site: location)
            compiled[key] = reference
            return .success(reference)
        } catch {
            if let raised = side.translator.takeRaised() {
                return .failure(SchemaFailure(kind: raised.kind, location: raised.location))
            }
            return .failure(.init(error))
        }
    }

    /// Gives the direction's batch the files read since last time; the first problem adding one, if any.
    @discardableResult
    private func addFiles(_ direction: SchemaTranslator.Direction) -> SchemaFailure? {
        var side = direction == .request ? request : response
        defer {
            switch direction {
            case .request: request = side
            case .response: response = side
            }
        }
        var failure: SchemaFailure?
        while side.filesAdded < documents.readOrder.count {
            let path = documents.readOrder[side.filesAdded]
            side.filesAdded += 1
            guard let file = documents.files[path] else { continue }
            do {
                try side.batch.addDocument(file.value, uri: ReferenceText.fileURI(path))
            } catch {
                failure = failure ?? SchemaFailure(error)
            }
        }
        return failure
    }
}

/// Why a schema did not compile, before it is made a located problem: a problem of the translation, or the schema
/// compiler's error.
struct SchemaFailure: Error {
    /// A problem of the translation and where it is; nil for a compiler error.
    var kind: OpenAPILoadProblem.Kind?
    /// Where the translation's problem is.
    var location: SpecLocation?
    /// The compiler's error.
    var error: JSONSchemaError?

    /// A problem of the translation.
    init(kind: OpenAPILoadProblem.Kind, location: SpecLocation) {
        self.kind = kind
        self.location = location
    }

    /// A compiler error.
    init(_ error: JSONSchemaError) {
        self.error = error
    }
}

/// Serves the document's files (read through its reader, never fetched) and OpenAPI 3.1's dialect to the schema
/// compiler, which asks for documents that a `$ref` or `$schema` names.
///
/// `@unchecked Sendable`: the document set is only used while loading, on the loading thread; the compiler calls
/// the resolver synchronously from there.
private struct DocumentSetResolver: JSONSchemaResolver, @unchecked Sendable {
    let documents: OpenAPIDocumentSet

    func resolve(_ uri: String) throws -> JSONValue? {
        if uri == SchemaDialect.openAPI31DialectURI { return SchemaDialect.openAPI31DialectMetaSchema }
        guard let path = ReferenceText.path(ofFileURI: uri) else { return nil }
        return documents.file(at: path)?.value
    }
}
