import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// Real collections (Newman's own test data) imported into suites that the suite loader accepts, with their
/// variables, auth, bodies and scripts translated or noted.
struct PostmanImporterTests {
    @Test(
        arguments: [
            ("newman/sample-collection.json", nil, nil),
            (
                "newman/inherited-entities.postman_collection.json",
                "newman/inherited-entities.postman_environment.json", nil
            ),
            (
                "newman/globals-env-data-files.postman_collection.json",
                "newman/globals-env-data-files.postman_environment.json",
                "newman/globals-env-data-files.postman_globals.json"
            ),
            ("newman/request-chaining-test.postman_collection.json", nil, nil),
        ] as [(String, String?, String?)])
    func newmanCollectionsLoad(collection: String, environment: String?, globals: String?) throws {
        let suite = try PostmanFixtures.suite(collection, environment: environment, globals: globals)
        // Secrets typed into auth settings are read from the environment: set every variable the suite reads.
        let environment = Dictionary(uniqueKeysWithValues: suite.environmentVariables.map { ($0, "x") })
        let (text, _) = try SuiteDocumentRendererTests.load(suite, environment: environment)
        if ProcessInfo.processInfo.environment["APITEST_DUMP"] != nil { print(text) }
    }
}

extension PostmanImporterTests {
    /// apitest's own collection for the demo API: every form the importer translates, in one file.
    @Test func theDemoCollection() throws {
        let suite = try PostmanFixtures.suite(
            "postman/apitest-demo.postman_collection.json", environment: "postman/apitest-demo.postman_environment.json"
        )
        let (text, loaded) = try SuiteDocumentRendererTests.load(
            suite, environment: ["API_TOKEN": "t0ken", "ANN_PASSWORD": "s3cret", "DIGEST_PASSWORD": "x"])
        if ProcessInfo.processInfo.environment["APITEST_DUMP"] != nil { print(text) }
        #expect(loaded.tests.count == suite.tests.count)
    }
}
