import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// Every note and comment an import writes is one line: a name from the source holding a line break or another
/// control character (a Postman collection's, a folder's, a curl argument's) is escaped, so it can neither start a
/// line of YAML in the suite nor a line of its own on standard error.
struct ImportNotesOneLineTests {
    /// A name that would add a test to the suite if a comment carried its line breaks.
    static let hostile = "c\n- name: evil\n  request: {url: http://evil.example/}\r\u{1B}[2J\u{202E}"

    @Test func postmanNamesStayOnTheirLine() throws {
        let name = JSONWriter.quoted(Self.hostile)
        let url = JSONWriter.quoted("http://a.example/{{\(Self.hostile)}}")
        let collection = """
            {"info": {"name": \(name), "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "event": [{"listen": "prerequest", "script": {"exec": ["console.log(1)"]}}],
             "item": [{"name": \(name), "item": [{"name": \(name),
               "request": {"method": "GET", "url": \(url)},
               "event": [{"listen": "test", "script": {"exec": ["if (x) {", "}"]}}]}]}]}
            """
        let decoded = try PostmanCollectionDecoder(file: "c.json").decode(Array(collection.utf8))
        let suite = PostmanImporter(collection: decoded, files: [Self.hostile]).suite()
        #expect(!suite.allNotes.isEmpty)
        for note in suite.allNotes.map(\.rendered) {
            #expect(!note.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(note)")
        }
        #expect(suite.allNotes.map(\.rendered).contains { $0.contains(#"c\n- name: evil\n  request: "#) })
        let (text, loaded) = try SuiteDocumentRendererTests.load(suite)
        #expect(loaded.tests.count == 1, "\(text)")
        for line in text.split(separator: "\n") {
            // The name's line break is `\n` in a comment or in a quoted scalar: never a line of its own.
            #expect(!line.trimmingCharacters(in: .whitespaces).hasPrefix("- name: evil"), "\(text)")
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(line)")
            }
        }
        #expect(!text.contains("\u{1B}"))
    }

    @Test func curlCommandCommentsStayOnTheirLine() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let suite = try importer.importTexts(["curl -d $'a\\tb\\n- name: evil' http://a/x"])
        let (text, loaded) = try SuiteDocumentRendererTests.load(suite)
        #expect(loaded.tests.count == 1)
        let comment = try #require(text.split(separator: "\n").first { $0.contains("curl -d") })
        #expect(comment.hasPrefix(#"  # curl -d 'a'"$(printf '\t')"'b\n- name: evil'"#), "\(text)")
    }
}
