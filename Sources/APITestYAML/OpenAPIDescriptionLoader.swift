package import APITestOpenAPI
package import APITestSupport

/// Reads an OpenAPI document for `apitest generate openapi`, exactly as a suite's `openapi:` reads it: through the
/// YAML layer's reader (``OpenAPIYAMLReader``), with the same problems at the same places.
package enum OpenAPIDescriptionLoader {
    /// The description of the document at `path`, or its problems as an error that renders each with its line
    /// (`path` is shown in the messages as given). With `strictSpec`, its load warnings are errors.
    package static func load(
        path: String, strictSpec: Bool = false
    ) -> Result<OpenAPIDescription, OpenAPIDocumentError> {
        let reader = OpenAPIYAMLReader()
        do {
            return .success(try OpenAPIDescription.load(path: path, reader: reader, strictSpec: strictSpec))
        } catch {
            let sources = reader.sources
            return .failure(
                OpenAPIDocumentError(
                    diagnostics: diagnostics(error.problems, named: path), source: sources[FilePaths.absolute(path)],
                    includedSources: sources))
        }
    }

    /// The problems of the document named `name` (as its user wrote it) as diagnostics at their places in the
    /// document, each with its JSON Pointer beside its position (`openapi 'api.json', at /paths/~1users/get: …`);
    /// an `ignore` entry that names nothing at `ignoreEntriesAt` when given (the suite's, without a pointer). The one place a document's
    /// problems become diagnostics (suites and `generate` alike).
    package static func diagnostics(
        _ problems: [OpenAPILoadProblem], named name: String, ignoreEntriesAt ignoreLocation: SourceLocation? = nil
    ) -> [Diagnostic] {
        problems.map { problem in
            var location = problem.location
            // The JSON Pointer beside the position: in a minified JSON document every position is on line 1.
            var pointer = problem.pointerText.map { ", at \($0)" } ?? ""
            if case .unknownIgnoreEntry = problem.kind, let ignoreLocation {
                (location, pointer) = (ignoreLocation, "")
            }
            return Diagnostic.error("openapi '\(name)'\(pointer): \(problem.message)", at: location)
        }
    }

    /// The load warnings of a loaded document named `name` (as its user wrote it), summarized as
    /// ``warningDiagnostics(_:named:rootPath:)`` says.
    package static func warningDiagnostics(of description: OpenAPIDescription, named name: String) -> [Diagnostic] {
        warningDiagnostics(description.warnings, named: name, rootPath: description.rootPath)
    }

    /// The load warnings of the document named `name` as a command prints them, once per document: the first few
    /// distinct ones of each kind at their places, then a count of the rest of each kind at the start of the root
    /// file `rootPath` (``OpenAPIWarningSummary``): `openapi 'api.yaml': ... and 212 more of kind unknown-format`.
    package static func warningDiagnostics(
        _ warnings: [OpenAPILoadProblem], named name: String, rootPath: String
    ) -> [Diagnostic] {
        let summary = OpenAPIWarningSummary(warnings)
        let start = SourceLocation(file: rootPath, line: 1, column: 1)
        return summary.shown.map { warning in
            let pointer = warning.pointerText.map { ", at \($0)" } ?? ""
            return Diagnostic.warning("openapi '\(name)'\(pointer): \(warning.message)", at: warning.location)
        }
            + summary.omitted.map { omitted in
                Diagnostic.warning("openapi '\(name)': \(omitted)", at: start)
            }
    }
}
