public import Foundation

/// The shared test data directory (`../shared` beside the repository, with the official JSONPath and JSON Schema
/// suites): `$APITEST_SHARED_DIR` when set.
public enum SharedTestData {
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["APITEST_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // #filePath is <repo>/Tests/TestSupport/SharedTestData.swift; shared/ is <repo>/../shared.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared", isDirectory: true)
    }
}
