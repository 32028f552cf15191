import APITestJSON
import APITestOpenAPI
import APITestSupport

// MARK: - The OpenAPI loader

extension FuzzTarget {
    /// The path the fuzzed document is loaded as; every other path a `$ref` names is missing.
    static let openAPIPath = "/nonexistent-apitest-fuzz/openapi.json"

    /// Loads `bytes` as an OpenAPI document (JSON) and compiles it as a contract, as a lenient load (warnings) and
    /// as `--strict-spec` does (warnings as errors), and renders its warnings as a command does.
    static func loadOpenAPI(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        let reader = InMemoryOpenAPIReader(path: openAPIPath, value: value)
        if let contract = try? OpenAPIContract.load(
            path: openAPIPath, options: OpenAPIContractOptions(), reader: reader)
        {
            let summary = OpenAPIWarningSummary(contract.warnings)
            _ = summary.shown.map(\.description) + summary.omitted.map(\.description)
        }
        _ = try? OpenAPIContract.load(
            path: openAPIPath, options: OpenAPIContractOptions(strictSpec: true), reader: reader)
    }
}

/// Reads one document from memory; any other file is missing.
struct InMemoryOpenAPIReader: OpenAPIFileReader {
    /// The document's path.
    let path: String
    /// Its value.
    let value: JSONValue

    func read(_ absolutePath: String) throws(OpenAPIReadError) -> OpenAPISourceFile {
        guard absolutePath == path else { throw OpenAPIReadError(kind: .missing, message: "no such file") }
        let start = SourceLocation(file: path, line: 1, column: 1)
        return OpenAPISourceFile(value: value, locate: { _ in start })
    }
}
