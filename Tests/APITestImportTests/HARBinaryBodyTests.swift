import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `import har` keeps the recorded bytes of a body that is not text: mitmproxy writes `postData.text` one code point
/// per byte (`\x89` as U+0089), other recorders base64 with `encoding: base64`; sent as a suite's `body` (UTF-8) the
/// first would be `C2 89`. Such a body is written to a file beside the suite and sent as `bodyFile`, so the request
/// the loaded suite sends holds exactly the recorded bytes; without a folder to write to, a note says it cannot.
struct HARBinaryBodyTests {
    /// PNG's signature, a NUL, C1 bytes and 0xFF: bytes UTF-8 text cannot carry as they are.
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x80, 0x9F, 0xC3, 0x28, 0xFF]

    /// The bytes one code point each, as mitmproxy writes them.
    static var latin1: String { String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }

    /// The archive: a latin-1 PNG, the same bytes in base64, base64 of JSON text, JSON text with `é`, an octet
    /// stream of ASCII only, text with a C1 control that is not UTF-8, and UTF-8 recorded one code point per byte.
    static func archive() throws -> HARArchive {
        let json = #"{"name": "é"}"#
        let har = """
            {"log": {"entries": [
              \(try entryJSON(["mimeType": "image/png", "text": .string(latin1)])),
              \(try entryJSON(["mimeType": "application/octet-stream", "text": .string(Data(bytes).base64EncodedString()), "encoding": "base64"])),
              \(try entryJSON(["mimeType": "application/json", "text": .string(Data(json.utf8).base64EncodedString()), "encoding": "base64"])),
              \(try entryJSON(["mimeType": "application/json", "text": .string(json)])),
              \(try entryJSON(["mimeType": "application/octet-stream", "text": "plain"])),
              \(try entryJSON(["mimeType": "text/plain", "text": .string("a\u{85}b")])),
              \(try entryJSON(["mimeType": "text/plain", "text": .string("\u{E2}\u{82}\u{AC}")]))
            ]}}
            """
        return try HARArchive.decode(Array(har.utf8), file: "t.har")
    }

    static func entryJSON(_ postData: JSONValue) throws -> String {
        JSONWriter.string([
            "request": ["method": "POST", "url": "http://127.0.0.1:1/upload", "headers": [], "postData": postData],
            "response": ["status": 200],
        ])
    }

    @Test func binaryBodiesGoToFilesAndKeepTheirBytes() throws {
        var importer = HARImporter(archive: try Self.archive(), includeTypes: [], file: "t.har")
        importer.includesEverything = true
        importer.bodyFolder = "t.bodies"
        let suite = importer.suite()
        #expect(suite.files.map(\.path) == ["t.bodies/entry-1.bin", "t.bodies/entry-2.bin", "t.bodies/entry-6.bin"])
        #expect(suite.files.map(\.bytes) == [Self.bytes, Self.bytes, [0x61, 0x85, 0x62]])
        #expect(suite.allNotes.isEmpty, "\(suite.allNotes.map(\.rendered))")

        let folder = try SuiteDocumentRendererTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try suite.writeFiles(relativeTo: folder, overwrite: false)
        let text = SuiteDocumentRenderer(suite: suite).render()
        try text.write(toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let loaded = try SuiteLoader(environment: [:]).load(path: folder + "/t.yaml")
        func sent(_ index: Int) throws -> [UInt8] {
            switch loaded.tests[index].steps[0].request.body {
            case .file(let path)?: return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            case .raw(let template)?: return Array(try template.render(loaded.makeContext()).utf8)
            default: return []
            }
        }
        #expect(try sent(0) == Self.bytes)
        #expect(try sent(1) == Self.bytes)
        #expect(try sent(2) == Array(#"{"name": "é"}"#.utf8))
        #expect(try sent(3) == Array(#"{"name": "é"}"#.utf8))
        #expect(try sent(4) == Array("plain".utf8))
        #expect(try sent(5) == [0x61, 0x85, 0x62])
        // UTF-8 recorded one code point per byte: the text it is, the same bytes.
        #expect(try sent(6) == [0xE2, 0x82, 0xAC])
        #expect(text.contains("body: €"), "\(text)")
        #expect(text.contains("bodyFile: t.bodies/entry-1.bin\n      contentType: image/png"), "\(text)")
        // Written again without overwrite, the files are refused.
        #expect(throws: (any Error).self) { try suite.writeFiles(relativeTo: folder, overwrite: false) }
    }

    @Test func withoutAFolderTheBodyIsLeftOutAndNoted() throws {
        var importer = HARImporter(archive: try Self.archive(), includeTypes: [], file: "t.har")
        importer.includesEverything = true
        let suite = importer.suite()
        #expect(suite.files.isEmpty)
        #expect(suite.tests[0].request.body == nil)
        #expect(
            suite.tests[0].notes.map(\.rendered) == [
                "entry 1: the body is 14 bytes that are not text (image/png), which a suite sends only from a file: "
                    + "the request is sent without it (import with -o to have it written beside the suite)"
            ])
    }
}
