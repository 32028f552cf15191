package import APITestOpenAPI
package import APITestSupport

/// Reads an OpenAPI document for `apitest generate openapi`, exactly as a suite's `openapi:` reads it: through the
/// YAML layer's reader (``OpenAPIYAMLReader``), with the same problems at the same places.
package enum OpenAPIDescriptionLoader {
    /// The description of the document at `path`, or its problems as an error that renders each with its line
    /// (`path` is shown in the messages as given).
    package static func load(path: String) -> Result<OpenAPIDescription, OpenAPIDocumentError> {
        let reader = OpenAPIYAMLReader()
        do {
            return .success(try OpenAPIDescription.load(path: path, reader: reader))
        } catch {
            let sources = reader.sources
            return .failure(
                OpenAPIDocumentError(
                    diagnostics: diagnostics(error.problems, named: path), source: sources[FilePaths.absolute(path)],
                    includedSources: sources))
        }
    }

    /// The problems of the document named `name` (as its user wrote it) as diagnostics at their places in the
    /// document; an `ignore` entry that names nothing at `ignoreEntriesAt` when given. The one place a document's
    /// problems become diagnostics (suites and `generate` alike).
    package static func diagnostics(
        _ problems: [OpenAPILoadProblem], named name: String, ignoreEntriesAt ignoreLocation: SourceLocation? = nil
    ) -> [Diagnostic] {
        problems.map { problem in
            var location = problem.location
            if case .unknownIgnoreEntry = problem.kind, let ignoreLocation { location = ignoreLocation }
            return Diagnostic.error("openapi '\(name)': \(problem.message)", at: location)
        }
    }
}
