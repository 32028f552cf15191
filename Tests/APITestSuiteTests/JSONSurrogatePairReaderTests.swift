import APITestJSON
import APITestOpenAPI
import APITestSupport
import Foundation
import Testing

@testable import APITestYAML

/// An OpenAPI document in JSON may write a character outside the Basic Multilingual Plane as an escaped UTF-16
/// surrogate pair (RFC 8259 §7; Twilio's documents do), which libyaml refuses: the reader rewrites each pair to
/// YAML's `\U` escape and maps every position after it back to the text as written.
final class JSONSurrogatePairReaderTests {
    let folder: String

    init() throws {
        folder = try makeTemporaryDirectory()
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    private func read(_ text: String, name: String = "api.json") throws(OpenAPIReadError) -> OpenAPISourceFile {
        let path = folder + "/" + name
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        return try OpenAPIYAMLReader().read(path)
    }

    @Test func aPairReadsAsItsCharacterWithPositionsAsWritten() throws {
        let pairs = try read(#"{"a": "\ud83d\udc4d and \uD83D\uDE00", "b": {"c": 1}}"#)
        #expect(pairs.value == ["a": "\u{1F44D} and \u{1F600}", "b": ["c": 1]])
        // The same text with escapes of the same length that libyaml reads: the same positions.
        let plain = try read(#"{"a": "\u0041\u0042 and \u0043\u0044", "b": {"c": 1}}"#, name: "plain.json")
        #expect(pairs.locate(["b", "c"]).column == plain.locate(["b", "c"]).column)
        #expect(pairs.locate(["b"]).column == plain.locate(["b"]).column)
    }

    @Test func anEscapedBackslashIsNotAnEscape() throws {
        let file = try read(#"{"a": "\\ud83d\\udc4d"}"#)
        #expect(file.value == ["a": #"\ud83d\udc4d"#])
    }

    /// A lone surrogate is no character: still refused, at its place as written.
    @Test func aLoneSurrogateIsStillRefusedWhereItIs() {
        do {
            _ = try read(#"{"a": "\ud83d\udc4d", "b": "\ud83d x"}"#)
            Issue.record("a lone surrogate was read")
        } catch {
            guard case .syntax(let location) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(location.line == 1)
            #expect(location.column >= 28, "\(location)")
        }
    }

    /// In YAML a plain scalar's backslash is text: left as written.
    @Test func aYAMLDocumentIsNotRewritten() throws {
        let file = try read("a: \\ud83d\\udc4d\n", name: "api.yaml")
        #expect(file.value == ["a": #"\ud83d\udc4d"#])
    }
}
