import APITestJSON
import Foundation
import Testing

@testable import APITestHTTP

/// apitest's own property list writers: what they write reads back in Python's `plistlib` (an independent reader of
/// both formats) as the JSON value written, members in document order; and the XML writer's exact text.
@Suite struct PropertyListBodyTests {
    /// A value with every kind a property list holds from JSON.
    static let rich: JSONValue = .object(
        JSONObject([
            ("name", .string("apitest <&> \"q\" 'a'")),
            ("version", .integer(1)),
            ("neg", .integer(-5)),
            ("small", .integer(200)),
            ("int16", .integer(40_000)),
            ("int32", .integer(3_000_000_000)),
            ("max", .integer(Int64.max)),
            ("min", .integer(Int64.min)),
            ("beyondInt64", .number(JSONNumber(text: "18446744073709551615")!)),
            ("huge", .number(JSONNumber(text: "1e400")!)),
            ("pi", .double(3.25)),
            ("ok", .bool(true)),
            ("no", .bool(false)),
            ("unicode", .string("é, ß, 日本, 🎉")),
            ("empty", .string("")),
            ("emptyArray", .array([])),
            ("emptyDict", .object(JSONObject())),
            (
                "nested",
                .object(JSONObject([("x", .array([.integer(1), .object(JSONObject([("y", .string("é"))]))]))]))
            ),
            ("zLast", .string("kept in document order, not sorted")),
            ("aFirst", .string("after zLast")),
        ]))

    /// What Python's `plistlib` reads from `bytes`, as JSON text with members in the order read.
    static func pythonReads(_ bytes: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-plist-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.plist")
        try bytes.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import json, plistlib, sys; print(json.dumps(plistlib.loads(open(sys.argv[1], 'rb').read()), "
                + "ensure_ascii=False))",
            file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(process.terminationStatus == 0, "plistlib: \(text)")
        return text
    }

    static let richAsPython =
        #"{"name": "apitest <&> \"q\" 'a'", "version": 1, "neg": -5, "small": 200, "int16": 40000, "#
        + #""int32": 3000000000, "max": 9223372036854775807, "min": -9223372036854775808, "#
        + #""beyondInt64": 18446744073709551615, "huge": Infinity, "pi": 3.25, "ok": true, "no": false, "#
        + #""unicode": "é, ß, 日本, 🎉", "empty": "", "emptyArray": [], "emptyDict": {}, "#
        + #""nested": {"x": [1, {"y": "é"}]}, "zLast": "kept in document order, not sorted", "aFirst": "after zLast"}"#

    @Test(arguments: [RequestSerializer.Body.PropertyListFormat.xml, .binary])
    func everyKindReadsBackInPythonInDocumentOrder(_ format: RequestSerializer.Body.PropertyListFormat) throws {
        let bytes = try PropertyListBody.encode(Self.rich, format: format)
        #expect(try Self.pythonReads(bytes) == Self.richAsPython)
    }

    @Test func theXMLIsApplesFormat() throws {
        let value: JSONValue = .object(
            JSONObject([("name", .string("a<b")), ("tags", .array([.string("x"), .bool(true)])), ("n", .double(0.5))]))
        let text = String(decoding: try PropertyListBody.encode(value, format: .xml), as: UTF8.self)
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>name</key>
                \t<string>a&lt;b</string>
                \t<key>tags</key>
                \t<array>
                \t\t<string>x</string>
                \t\t<true/>
                \t</array>
                \t<key>n</key>
                \t<real>0.5</real>
                </dict>
                </plist>

                """)
    }

    /// More than 255 objects (two-byte references), a container of more than 14 members and a string of more than 14
    /// characters (counts after the marker), and an offset table past 64 KiB (four-byte offsets).
    @Test func largeBinaryListsUseWiderReferencesAndOffsets() throws {
        let items = (0..<400).map { JSONValue.string("item \($0) " + String(repeating: "x", count: $0 % 40)) }
        let big = JSONValue.string(String(repeating: "long text ", count: 8000))
        let value: JSONValue = .object(JSONObject([("items", .array(items)), ("big", big)]))
        let bytes = try PropertyListBody.encode(value, format: .binary)
        #expect(bytes.count > 65_536)
        let read = try Self.pythonReads(bytes)
        #expect(read.hasPrefix(#"{"items": ["item 0 ", "item 1 x""#))
        #expect(read.contains(#""item 399 "# + String(repeating: "x", count: 399 % 40) + #"""#))
        #expect(read.hasSuffix(String(repeating: "long text ", count: 8000) + #""}"#))
    }

    @Test func aControlCharacterIsRefusedInXMLAndKeptInBinary() throws {
        let value: JSONValue = .object(JSONObject([("list", .array([.string("ok"), .string("bell \u{7}")]))]))
        #expect(throws: HTTPError(.propertyListCharacter(path: "$.list[1]", scalar: 7))) {
            try PropertyListBody.encode(value, format: .xml)
        }
        let key: JSONValue = .object(JSONObject([("a\u{1}", .integer(1))]))
        #expect(throws: HTTPError(.propertyListCharacter(path: "$.a\u{1}", scalar: 1))) {
            try PropertyListBody.encode(key, format: .xml)
        }
        #expect(
            try Self.pythonReads(try PropertyListBody.encode(value, format: .binary))
                == #"{"list": ["ok", "bell \u0007"]}"#)
    }

    @Test func nullIsRefusedWithItsPlace() {
        let value: JSONValue = .object(JSONObject([("a", .array([.integer(1), .null]))]))
        #expect(throws: HTTPError(.propertyListNull(path: "$.a[1]"))) {
            try PropertyListBody.encode(value, format: .binary)
        }
    }
}
