import Foundation

/// Locates the shared test data directory: `$APITEST_SHARED_DIR`, else `shared/` next to the repository.
enum TestResources {
    static var sharedDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["APITEST_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // #filePath is <repo>/Tests/APITestJSONTests/TestResources.swift; shared/ is <repo>/../shared.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared", isDirectory: true)
    }

    static var complianceSuite: URL {
        sharedDirectory.appendingPathComponent("testdata/jsonpath-cts/cts.json")
    }
}
