import APITestJSON
import APITestJSONSchema

// MARK: - Schemas

extension OpenAPILoader {
    /// The schema at `node` compiled for `direction`; nil, with the problem reported, when it does not compile.
    func compileSchema(_ node: SpecNode, for direction: SchemaCompilation.Direction) -> CompiledSchemaReference? {
        switch schemas.compile(node.location, for: direction) {
        case .success(let reference):
            return reference
        case .failure(let failure):
            if let kind = failure.kind, let location = failure.location {
                report(kind, at: location)
            } else if let error = failure.error {
                report(error)
            }
            return nil
        }
    }

    /// Reports a schema compiler's error at the place in the document it names.
    private func report(_ error: JSONSchemaError) {
        let path = ReferenceText.path(ofFileURI: error.documentURI) ?? documents.rootPath
        let location = SpecLocation(path: path, pointer: JSONPointerText.tokens(error.schemaPath) ?? [])
        switch error.kind {
        case .invalidSchema, .resolverFailure:
            report(.invalidSchema(reason: error.reason), at: location)
        case .unsupportedDraft:
            report(.unsupportedDialect(error.reference ?? error.reason), at: location)
        case .unresolvableReference:
            guard let reference = error.reference else {
                report(.invalidSchema(reason: error.reason), at: location)
                return
            }
            switch ReferenceText.target(of: reference, from: path) {
            case .external:
                report(.externalReference(reference: reference), at: location)
            case .location(let target) where documents.failures[target.path] != nil:
                reportUnreadable(target.path, reference: reference, at: location)
            default:
                report(.unresolvableReference(reference: reference), at: location)
            }
        }
    }
}
