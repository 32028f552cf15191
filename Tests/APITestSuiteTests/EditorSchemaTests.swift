import APITestSecurity
import Foundation
import Testing

@testable import APITestSuite

/// The committed editor schemas are what `SuiteSchema` builds from the key enums: a key added to a construct's
/// enum (and so to the loader) is in the schema once it is regenerated, and this test fails until then. Regenerate
/// with `APITEST_UPDATE_EXPECTED=1 swift test --filter EditorSchemaTests`.
struct EditorSchemaTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas")

    @Test(arguments: ["apitest.schema.json", "apitest-include.schema.json"])
    func committedSchemaIsTheOneBuiltFromTheKeys(_ name: String) throws {
        let schema = name == "apitest.schema.json" ? SuiteSchema.suite : SuiteSchema.included
        let file = Self.schemas.appendingPathComponent(name)
        let generated = schema.jsonText
        let committed = try String(contentsOf: file, encoding: .utf8)
        if committed != generated, ProcessInfo.processInfo.environment["APITEST_UPDATE_EXPECTED"] == "1" {
            try generated.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            committed == generated,
            "schemas/\(name) differs from SuiteSchema; regenerate it: APITEST_UPDATE_EXPECTED=1 swift test --filter EditorSchemaTests"
        )
    }

    /// Every key of every construct is a property of its definition, with a description or a reference.
    @Test func everyKeyOfTheLoaderIsInTheSchema() throws {
        let definitions = try #require(SuiteSchema.suite["$defs"])
        let constructs: [(path: [String], keys: [String])] = [
            (["request"], RequestParser.Key.names + TransportSpec.Key.names),
            (["defaults"], SettingsParser.DefaultsKey.names + TransportSpec.Key.names),
            (["test"], TestParser.Key.names), (["expect"], ExpectParser.Key.names),
            (["retry"], RetryParser.Key.names), (["security"], SecuritySetting.allCases.map(\.rawValue)),
            (["auth"], AuthSpec.Kind.names), (["stepLoop"], StepLoop.Key.names),
            (["captureSource"], QueryParser.Key.names), (["multipartPart"], BodyParser.PartKey.names),
        ]
        for (path, keys) in constructs {
            let properties = try #require(path.reduce(Optional(definitions)) { $0?[$1] }?["properties"])
            guard case .object(let members) = properties else {
                Issue.record("\(path) has no properties")
                continue
            }
            #expect(members.map(\.name).sorted() == keys.sorted(), "\(path)")
        }
        guard case .object(let top) = try #require(SuiteSchema.suite["properties"]) else { return }
        #expect(top.map(\.name) == SuiteParser.Key.names)
    }

    /// The JSON text is Python's `json.dumps(indent=2, ensure_ascii=False)`: escapes, numbers and empty containers.
    @Test func jsonTextEscapesAndNumbers() {
        let value: SchemaValue = [
            "a\"b": "line\nbreak\t\u{01}é\\", "n": 1e9, "f": 1.1, "i": -3, "e": [], "o": [:], "z": nil, "t": true,
        ]
        #expect(
            value.jsonText == """
                {
                  "a\\"b": "line\\nbreak\\t\\u0001é\\\\",
                  "n": 1000000000.0,
                  "f": 1.1,
                  "i": -3,
                  "e": [],
                  "o": {},
                  "z": null,
                  "t": true
                }

                """)
    }
}
