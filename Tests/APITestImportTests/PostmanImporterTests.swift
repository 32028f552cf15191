import APITestJSON
import APITestSuite
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
        let (text, _) = try ImportedSuiteRendererTests.load(suite)
        if ProcessInfo.processInfo.environment["APITEST_DUMP"] != nil { print(text) }
    }
}
