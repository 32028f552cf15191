import APITestJSON
import Foundation
import Testing

@testable import APITestJSONSchema

/// A schema file that is not valid JSON says where, with the JSON Pointer beside the line and column (a minified
/// schema is one line), escaped for the display.
struct SchemaFilePointerTests {
    @Test func aSchemaFilesSyntaxErrorNamesItsPointer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-schema-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("user.schema.json")
        let text =
            #"{"type":"object","properties":{"a/b":{"type":"string"},"c~d":{"type":"object","properties":"#
            + #"{"e\u0007":{"type":"integer","minimum":01}}}}}"#
        try Data(text.utf8).write(to: file)
        do {
            _ = try JSONSchema(contentsOf: file)
            Issue.record("the schema compiled")
        } catch {
            #expect(error.reason.contains("line 1, column "), "\(error.reason)")
            #expect(error.reason.contains(#", at /properties/c~0d/properties/e\u{7}/minimum: "#), "\(error.reason)")
            #expect(!error.reason.unicodeScalars.contains { $0.value == 7 })
        }
    }

    @Test func theLocatedDescriptionLeavesThePointerOutAtTheTop() {
        do {
            _ = try JSONParser.parse("[1,2] x")
        } catch {
            #expect(error.locatedDescription == "line 1, column 7: unexpected 'x' after the JSON value")
        }
    }

    @Test func aCompileErrorsPointerIsShownEscaped() throws {
        let schema = try JSONParser.parse(#"{"properties":{"a\u001b[31m/b":{"minLength":"3"}}}"#)
        do {
            _ = try JSONSchema(schema, baseURI: "file:///s.json")
            Issue.record("the schema compiled")
        } catch {
            #expect(error.schemaPath == "/properties/a\u{1B}[31m~1b/minLength")
            #expect(error.description.hasPrefix(#"file:///s.json#/properties/a\u{1B}[31m~1b/minLength: "#))
        }
    }
}
