import APITestTestSupport
import Foundation

/// Locates the shared test data directory: `$APITEST_SHARED_DIR`, else `shared/` next to the repository.
enum TestResources {
    static var sharedDirectory: URL { SharedTestData.directory }

    static var complianceSuite: URL {
        sharedDirectory.appendingPathComponent("testdata/jsonpath-cts/cts.json")
    }
}
