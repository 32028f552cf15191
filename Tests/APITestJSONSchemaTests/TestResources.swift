import Foundation

/// Locates the shared test data directory: `$APITEST_SHARED_DIR`, else `shared/` next to the repository.
enum TestResources {
    static var sharedDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["APITEST_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // #filePath is <repo>/Tests/APITestJSONSchemaTests/TestResources.swift; shared/ is <repo>/../shared.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared", isDirectory: true)
    }

    /// The official JSON-Schema-Test-Suite checkout.
    static var schemaTestSuite: URL {
        sharedDirectory.appendingPathComponent("testdata/json-schema-test-suite", isDirectory: true)
    }

    /// The suite's `remotes/` folder, served as `http://localhost:1234/`.
    static var remotes: URL {
        schemaTestSuite.appendingPathComponent("remotes", isDirectory: true)
    }
}
