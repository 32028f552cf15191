import APITestOpenAPI
import Foundation
import Testing

/// Where the fixtures are, and loading helpers shared by the tests.
enum Fixtures {
    /// `Tests/APITestOpenAPITests/Fixtures`.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The OpenAPI Initiative's example specs.
    static let oaiExamples = directory + "/oai-examples"
}

/// Loads `path`, recording every load problem as the test's issue when it fails.
func loadContract(
    _ path: String, options: OpenAPIContractOptions = .init(), reader: TestReader = TestReader(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> OpenAPIContract {
    do {
        return try OpenAPIContract.load(path: path, options: options, reader: reader)
    } catch {
        Issue.record("\(path) did not load:\n\(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The problems of loading `path`; empty when it loads.
func loadProblems(
    _ path: String, options: OpenAPIContractOptions = .init(), reader: TestReader
) -> [OpenAPILoadProblem] {
    do {
        _ = try OpenAPIContract.load(path: path, options: options, reader: reader)
        return []
    } catch {
        return error.problems
    }
}

/// The root path of the documents tests write inline.
let rootPath = "/api/openapi.yaml"

/// Loads the inline document `yaml` (at ``rootPath``) with `files` beside it (paths relative to `/api`).
func inlineContract(
    _ yaml: String, files: [String: String] = [:], options: OpenAPIContractOptions = .init(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> OpenAPIContract {
    try loadContract(rootPath, options: options, reader: inlineReader(yaml, files), sourceLocation: sourceLocation)
}

/// The problems of loading the inline document `yaml` with `files` beside it.
func inlineProblems(
    _ yaml: String, files: [String: String] = [:], options: OpenAPIContractOptions = .init()
) -> [OpenAPILoadProblem] {
    loadProblems(rootPath, options: options, reader: inlineReader(yaml, files))
}

/// A reader of the inline document and its neighbours.
func inlineReader(_ yaml: String, _ files: [String: String]) -> TestReader {
    var texts = [rootPath: yaml]
    for (path, text) in files { texts["/api/" + path] = text }
    return TestReader(texts)
}

/// The operation `displayName` of `contract`.
func operation(_ contract: OpenAPIContract, _ name: String) throws -> OpenAPIOperation {
    try #require(contract.operations.first { $0.displayName == name })
}

/// A JSON response.
func jsonResponse(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> ContractResponse {
    ContractResponse(
        status: status, headers: [("Content-Type", "application/json")] + headers, body: ContractDataBody(text: body))
}
