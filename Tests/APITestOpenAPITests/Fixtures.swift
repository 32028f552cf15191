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
