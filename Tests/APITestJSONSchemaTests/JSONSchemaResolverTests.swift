import APITestJSON
import Foundation
import Testing

@testable import APITestJSONSchema

/// References resolve to bundled meta-schemas, to the suite's `remotes/` folder and to neighbouring files,
/// never to the network.
struct JSONSchemaResolverTests {
    private let remotes = DirectoryJSONSchemaResolver(
        baseURI: "http://localhost:1234/", directory: TestResources.remotes)

    @Test func refIntoRemotesFolder() throws {
        let schema = try JSONSchema(
            ["$ref": "http://localhost:1234/draft2020-12/subSchemas.json#/$defs/refToInteger"], resolver: remotes)
        #expect(schema.isValid(1))
        let errors = schema.validate("a").errors
        #expect(errors.map(\.keyword) == ["type"])
        #expect(errors.map(\.schemaPath) == ["/$ref/$ref/type"])
    }

    @Test func relativeRefAgainstBaseURIUsesResolver() throws {
        let schema = try JSONSchema(
            ["properties": ["n": ["$ref": "integer.json"]]], baseURI: "http://localhost:1234/draft2020-12/root.json",
            resolver: remotes)
        #expect(schema.isValid(["n": 1]))
        #expect(!schema.isValid(["n": "x"]))
    }

    @Test func relativeFileRefsBetweenTwoSchemaFiles() throws {
        // The space in the folder name exercises percent-encoding in file: URIs.
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("apitest schema-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("defs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"type": "object", "properties": {"id": {"$ref": "defs/id.json"}}, "required": ["id"]}"#
            .write(to: folder.appendingPathComponent("main.json"), atomically: true, encoding: .utf8)
        try #"{"type": "integer", "minimum": 1}"#
            .write(to: folder.appendingPathComponent("defs/id.json"), atomically: true, encoding: .utf8)

        let schema = try JSONSchema(contentsOf: folder.appendingPathComponent("main.json"))
        #expect(schema.isValid(["id": 3]))
        let errors = schema.validate(["id": 0]).errors
        #expect(errors.map(\.schemaPath) == ["/properties/id/$ref/minimum"])
        #expect(errors.map(\.instancePath) == ["/id"])

        // A file outside the schema's folder is not served.
        try #"{"$ref": "../outside.json"}"#
            .write(to: folder.appendingPathComponent("escape.json"), atomically: true, encoding: .utf8)
        let error = try #require(throws: JSONSchemaError.self) {
            try JSONSchema(contentsOf: folder.appendingPathComponent("escape.json"))
        }
        #expect(error.kind == .unresolvableReference)
        #expect(error.reference == "../outside.json")
    }

    @Test func unresolvableRefIsThrownWithTheRef() throws {
        let error = try #require(throws: JSONSchemaError.self) {
            try JSONSchema(["properties": ["a": ["$ref": "missing.json#/x"]]], resolver: remotes)
        }
        #expect(error.kind == .unresolvableReference)
        #expect(error.reference == "missing.json#/x")
        #expect(error.schemaPath == "/properties/a/$ref")
        #expect(error.description.contains("missing.json#/x"))
    }

    @Test func missingPointerInsideAKnownDocumentIsThrown() throws {
        let error = try #require(throws: JSONSchemaError.self) {
            try JSONSchema(["$ref": "#/$defs/nothing"])
        }
        #expect(error.kind == .unresolvableReference)
        #expect(error.reference == "#/$defs/nothing")
    }

    @Test func remoteURIWithoutResolverIsNeverFetched() throws {
        let error = try #require(throws: JSONSchemaError.self) {
            try JSONSchema(["$ref": "https://example.com/schemas/user.json"])
        }
        #expect(error.kind == .unresolvableReference)
    }

    @Test func directoryResolverRefusesPathsOutsideItsFolder() throws {
        #expect(try remotes.resolve("http://localhost:1234/../../etc/passwd") == nil)
        #expect(try remotes.resolve("http://localhost:1234/integer.json") == ["type": "integer"])
        #expect(try remotes.resolve("http://elsewhere/integer.json") == nil)
    }

    @Test func bundledMetaSchemasValidateSchemas() throws {
        let draft2020 = try JSONSchema(["$ref": "https://json-schema.org/draft/2020-12/schema"])
        #expect(draft2020.isValid(["type": "string", "minLength": 1]))
        let errors = draft2020.validate(["minLength": -1]).errors
        #expect(errors.contains { $0.keyword == "minimum" && $0.instancePath == "/minLength" })

        let draft7 = try JSONSchema(["$ref": "http://json-schema.org/draft-07/schema#"], draft: .draft7)
        #expect(draft7.isValid(["items": [["type": "string"]]]))
        #expect(!draft7.isValid(["type": "strin"]))
    }

    @Test func bundledMetaSchemasAreValidAgainstTheirMetaSchema() throws {
        let draft2020 = try JSONSchema(["$ref": "https://json-schema.org/draft/2020-12/schema"])
        for path in [
            "schema", "meta/core", "meta/applicator", "meta/unevaluated", "meta/validation", "meta/meta-data",
            "meta/format-annotation", "meta/format-assertion", "meta/content",
        ] {
            let text = try #require(MetaSchemas.text(for: "https://json-schema.org/draft/2020-12/" + path))
            let result = draft2020.validate(try JSONParser.parse(text))
            #expect(result.isValid, "\(path): \(result.errors)")
        }
        #expect(!draft2020.isValid(["$defs": ["a": ["type": 1]]]))

        let draft7 = try JSONSchema(["$ref": "http://json-schema.org/draft-07/schema#"], draft: .draft7)
        let text = try #require(MetaSchemas.text(for: "http://json-schema.org/draft-07/schema"))
        #expect(draft7.validate(try JSONParser.parse(text)).isValid)
    }
}
