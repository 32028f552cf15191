import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// A vendor's document that is not strictly valid loads with its warnings (issue 39 §4): given once per document
/// however many suites name it, summarized (a few of each kind, then a count), and refused with `--strict-spec`
/// (``OpenAPIContractStore/strictSpec``) with the same words as errors.
struct OpenAPILoadWarningTests {
    /// A 3.1 document with seven schemas in 3.0's `nullable` and one boolean `exclusiveMinimum`.
    static let document = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /a:
            get:
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          p1: {type: string, nullable: true}
                          p2: {type: string, nullable: true}
                          p3: {type: string, nullable: true}
                          p4: {type: string, nullable: true}
                          p5: {type: string, nullable: true}
                          p6: {type: string, nullable: true}
                          p7: {type: string, nullable: true}
                          n: {type: number, minimum: 0, exclusiveMinimum: true}
        """

    private func folder() throws -> String {
        let directory = try makeTemporaryDirectory()
        try writeFile(Self.document, to: "api.yaml", in: directory)
        for name in ["one", "two", "three"] {
            try writeFile(
                "openapi: api.yaml\ntests: [{name: t, request: {url: 'http://h/a'}}]\n", to: "\(name).yaml",
                in: directory)
        }
        return directory
    }

    @Test func theWarningsAreGivenOncePerDocumentSummarized() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let suites = ["one", "two", "three"].map { "\(directory)/\($0).yaml" }
        let set = try SuiteSet.load(paths: suites, loader: SuiteLoader(environment: [:]))
        #expect(set.failures.isEmpty)
        #expect(set.suites.count == 3)
        let warnings = set.suites.flatMap(\.warnings).map(DiagnosticRenderer.oneLine)
        // The same nullable words at seven places: shown once, the six others counted.
        #expect(
            warnings == [
                "\(directory)/api.yaml:14:38: warning: openapi 'api.yaml', at "
                    + "/paths/~1a/get/responses/200/content/application~1json/schema/properties/p1/nullable: "
                    + "nullable is OpenAPI 3.0's keyword, not 3.1's (3.1 writes type: [..., \"null\"]): read as "
                    + "\"null\" added to type",
                "\(directory)/api.yaml:21:49: warning: openapi 'api.yaml', at "
                    + "/paths/~1a/get/responses/200/content/application~1json/schema/properties/n/exclusiveMinimum: "
                    + "exclusiveMinimum: true is OpenAPI 3.0's form (3.1's is a number): read as 3.1's "
                    + "exclusiveMinimum with the value of minimum beside it",
                "\(directory)/api.yaml:1:1: warning: openapi 'api.yaml': ... and 6 more of kind nullable-in-3.1",
            ])
    }

    @Test func strictSpecRefusesEachWarningWithTheSameWords() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var loader = SuiteLoader(environment: [:])
        loader.contracts = OpenAPIContractStore(strictSpec: true)
        let set = try SuiteSet.load(paths: [directory + "/one.yaml"], loader: loader)
        let errors = set.failures.flatMap(\.error.diagnostics)
        #expect(errors.count == 8)
        #expect(errors.allSatisfy { $0.severity == .error })
        let expected: String =
            "\(directory)/api.yaml:21:49: error: openapi 'api.yaml', at "
            + "/paths/~1a/get/responses/200/content/application~1json/schema/properties/n/exclusiveMinimum: "
            + "exclusiveMinimum: true is OpenAPI 3.0's form (3.1's is a number): read as 3.1's "
            + "exclusiveMinimum with the value of minimum beside it"
        #expect(errors.map(DiagnosticRenderer.oneLine).last == expected)
    }
}
