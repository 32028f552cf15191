import APITestOpenAPI
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// The OpenAPI Initiative's example documents (kept with their licence under Tests/APITestOpenAPITests/Fixtures)
/// load through the reader suites use, libyaml's composer included, without a problem.
@Suite("OAI examples through the suite layer")
struct OAIExamplesThroughTheSuiteLayerTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("APITestOpenAPITests/Fixtures/oai-examples")

    static var documents: [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".yaml") || path.hasSuffix(".json") { found.append(path) }
        }
        return found.sorted()
    }

    @Test func thereAreTheExpectedExamples() {
        let names = Set(Self.documents.map { ($0 as NSString).lastPathComponent })
        for name in [
            "petstore.yaml", "petstore-expanded.yaml", "api-with-examples.yaml", "callback-example.yaml",
            "link-example.yaml", "uspto.yaml", "webhook-example.yaml",
        ] {
            #expect(names.contains(name), "\(name) is missing from \(Self.folder.path)")
        }
    }

    @Test(arguments: documents)
    func loads(_ relative: String) throws {
        let path = Self.folder.appendingPathComponent(relative).path
        do {
            let contract = try OpenAPIContract.load(
                path: path, options: OpenAPIContractOptions(), reader: OpenAPIYAMLReader())
            #expect(contract.version.hasPrefix("3."))
        } catch {
            Issue.record("\(relative): \(error.problems.map(\.description))")
        }
    }
}
