import APITestSuiteWriting
import Foundation

@testable import APITestImport

/// The Postman files under `Fixtures/` (Newman's, Apache-2.0, see `Fixtures/newman/NOTICE`, and apitest's own).
enum PostmanFixtures {
    /// The fixtures folder.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        .path

    /// The bytes of the fixture at `path` (relative to `Fixtures/`).
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
    }

    /// The suite imported from a collection and optional environment and globals fixtures.
    static func suite(_ collection: String, environment: String? = nil, globals: String? = nil) throws -> SuiteDocument
    {
        let decoded = try PostmanCollectionDecoder(file: collection).decode(bytes(collection))
        let environmentFile = try environment.map { try PostmanEnvironment.decode(bytes($0), file: $0) }
        let globalsFile = try globals.map { try PostmanEnvironment.decode(bytes($0), file: $0) }
        return PostmanImporter(
            collection: decoded, environment: environmentFile, globals: globalsFile,
            files: [collection] + [environment, globals].compactMap { $0 }
        ).suite()
    }
}
