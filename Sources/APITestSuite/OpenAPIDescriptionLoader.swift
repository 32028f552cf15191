package import APITestOpenAPI
import APITestSupport

/// Reads an OpenAPI document for `apitest generate openapi`, exactly as a suite's `openapi:` reads it: through the
/// suite layer's YAML reader, with the same problems at the same places.
package enum OpenAPIDescriptionLoader {
    /// The description of the document at `path`, or its problems as a load error that renders each with its line
    /// (`path` is shown in the messages as given).
    package static func load(path: String) -> Result<OpenAPIDescription, SuiteLoadError> {
        let reader = OpenAPIYAMLReader()
        do {
            return .success(try OpenAPIDescription.load(path: path, reader: reader))
        } catch {
            let diagnostics = OpenAPIContractStore.diagnostics(error.problems, named: path)
            let sources = reader.sources
            return .failure(
                SuiteLoadError(
                    diagnostics: diagnostics, source: sources[FilePaths.absolute(path)], includedSources: sources))
        }
    }
}
