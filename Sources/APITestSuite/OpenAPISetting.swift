package import APITestSupport
import APITestYAML

/// `openapi:` of a suite or of an included settings file, or `--openapi FILE`: the OpenAPI document the suite's
/// responses are checked against, and how.
///
/// ```yaml
/// openapi: api.yaml
/// openapi: {file: api.yaml, server: "https://staging.example.com/v2", strict: true, ignore: [getMetrics]}
/// ```
package struct OpenAPISetting: Sendable, Hashable {
    /// The document's path as written (relative to the file that names it).
    package var path: String
    /// The document's absolute path.
    package var absolutePath: String
    /// The base URL or path of the API under test; the document's `servers` when `nil`.
    package var server: String?
    /// Whether request violations and requests that match no operation fail the step (else they are warnings).
    package var strict = false
    /// Operations left out of checks and coverage: `operationId`, `METHOD /path/{template}` or `/path/{template}`.
    package var ignore: [String] = []
    /// Where it is set: the `openapi` key, or the start of the suite for `--openapi`.
    package var location: SourceLocation

    package init(path: String, absolutePath: String, location: SourceLocation) {
        self.path = path
        self.absolutePath = absolutePath
        self.location = location
    }
}
