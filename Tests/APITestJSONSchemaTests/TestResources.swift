import APITestTestSupport
import Foundation

/// Locates the shared test data directory: `$APITEST_SHARED_DIR`, else `shared/` next to the repository.
enum TestResources {
    static var sharedDirectory: URL { SharedTestData.directory }

    /// The official JSON-Schema-Test-Suite checkout.
    static var schemaTestSuite: URL {
        sharedDirectory.appendingPathComponent("testdata/json-schema-test-suite", isDirectory: true)
    }

    /// The suite's `remotes/` folder, served as `http://localhost:1234/`.
    static var remotes: URL {
        schemaTestSuite.appendingPathComponent("remotes", isDirectory: true)
    }
}
