import APITestJSON
import APITestJSONSchema

/// The schemas of one document, compiled once each over one batch compiler, which shares compiled components across
/// every schema that reaches them. A schema reads differently in requests and in responses only through `required`
/// (`readOnly` properties are not required in requests, `writeOnly` ones not in responses): each direction gets
/// the same compiled schema, exempting its annotation.
final class SchemaCompilation {
    /// The message a schema is checked in.
    enum Direction: Sendable, Hashable {
        case request
        case response

        /// The annotation whose properties `required` does not require in this direction.
        var exemptAnnotation: String {
            switch self {
            case .request: "readOnly"
            case .response: "writeOnly"
            }
        }
    }

    private let documents: OpenAPIDocumentSet
    private let batch: JSONSchemaBatchCompiler
    private let translator: SchemaTranslator
    /// How many of the document set's files the batch has been given.
    private var filesAdded = 0
    /// Schemas compiled, by place.
    private var compiled: [SpecLocation: JSONSchema] = [:]

    /// A compiler for schemas of `dialect` in `documents`.
    init(dialect: SchemaDialect, documents: OpenAPIDocumentSet) {
        self.documents = documents
        let translator = SchemaTranslator(dialect: dialect, documents: documents)
        self.translator = translator
        batch = JSONSchemaBatchCompiler(resolver: DocumentSetResolver(documents: documents)) {
            object, uri, pointer throws(JSONSchemaError) in
            try translator.transform(object, documentURI: uri, pointer: pointer)
        }
    }

    /// Absolute `$id`s seen while compiling, and where they are.
    var identifiers: [String: SpecLocation] {
        translator.identifiers
    }

    /// What the translation of the schemas compiled so far read otherwise than written, or ignored, and where.
    var translationWarnings: [(kind: OpenAPILoadProblem.Kind, location: SpecLocation)] {
        translator.warnings
    }

    /// Makes the `$id`s and anchors of the schema at `location` known to references (OpenAPI 3.1).
    func index(_ location: SpecLocation) {
        addFiles()
        batch.indexEmbeddedSchema(documentURI: ReferenceText.fileURI(location.path), pointer: location.pointer)
    }

    /// The schema at `location` for `direction`, or the problem that stops it (with its place).
    func compile(_ location: SpecLocation, for direction: Direction) -> Result<CompiledSchemaReference, SchemaFailure> {
        let exempting: Set<String> = [direction.exemptAnnotation]
        if let done = compiled[location] {
            return .success(
                CompiledSchemaReference(schema: done.exemptingRequired(annotatedWith: exempting), site: location))
        }
        if let problem = addFiles() { return .failure(problem) }
        do {
            let schema = try batch.compile(documentURI: ReferenceText.fileURI(location.path), pointer: location.pointer)
            compiled[location] = schema
            return .success(
                CompiledSchemaReference(schema: schema.exemptingRequired(annotatedWith: exempting), site: location))
        } catch {
            if let raised = translator.takeRaised() {
                return .failure(SchemaFailure(kind: raised.kind, location: raised.location))
            }
            return .failure(SchemaFailure(error))
        }
    }

    /// Gives the batch the files read since last time; the first problem adding one, if any.
    @discardableResult
    private func addFiles() -> SchemaFailure? {
        var failure: SchemaFailure?
        while filesAdded < documents.readOrder.count {
            let path = documents.readOrder[filesAdded]
            filesAdded += 1
            guard let file = documents.files[path] else { continue }
            do {
                try batch.addDocument(file.value, uri: ReferenceText.fileURI(path))
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
