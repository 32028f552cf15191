import APITestOpenAPI
import APITestSuite
import APITestYAML
import Foundation
import Testing

/// Documents written to a temporary folder and read as `apitest generate openapi` reads them (the suite layer's
/// reader), for the generator's tests.
enum GenerationFixtures {
    /// A new empty folder under the temporary directory.
    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-generate-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The description of `text` written as `name` in a new temporary folder.
    static func describe(_ text: String, name: String = "api.yaml") throws -> OpenAPIDescription {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        switch OpenAPIDescriptionLoader.load(path: path) {
        case .success(let description): return description
        case .failure(let error): throw error
        }
    }

    /// A document (JSON text) with one operation, `POST /x`, whose required JSON body has the schema `schema`
    /// (JSON text); `components` are its `components.schemas`.
    static func bodySpec(schema: String, components: String = "{}", version: String = "3.1.0") -> String {
        """
        {"openapi": "\(version)", "info": {"title": "t", "version": "1"},
         "paths": {"/x": {"post": {"requestBody": {"required": true,
           "content": {"application/json": {"schema": \(schema)}}},
           "responses": {"200": {"description": "ok"}}}}},
         "components": {"schemas": \(components)}}
        """
    }

    /// The description of ``bodySpec(schema:components:version:)`` and the body's schema.
    static func bodySchema(
        _ schema: String, components: String = "{}", version: String = "3.1.0"
    ) throws -> (OpenAPIDescription, DescribedSchema) {
        let description = try describe(bodySpec(schema: schema, components: components, version: version))
        let body = try #require(description.operations.first?.requestBody?.content.first?.schema)
        return (description, body)
    }
}
