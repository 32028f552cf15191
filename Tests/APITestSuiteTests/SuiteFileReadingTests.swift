import Foundation
import Testing

@testable import APITestSuite

/// A suite file's text is read straight into a string (`SuiteLoader.textReadInPlace(at:)`) when it can be; the text
/// must then be exactly what reading the file into `Data` and decoding it as UTF-8 gives, and every file that reading
/// could treat otherwise (not UTF-8, a byte order mark, U+FFFD) must be left to it.
@Suite struct SuiteFileReadingTests {
    /// The file's text as the loader read it before: `Data`, then `String(data:encoding:)`.
    private static func readThroughData(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    }

    private static func write(_ bytes: [UInt8], named name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        "name: a\ntests:\n  - name: t\n    request: {url: \"x\"}\n",
        "x",
        "short: 15 bytes",
        "sixteen bytes!!!",
        "ünïcödé ✓ 🙂 名前: 値\n",
        "tab\tand\r\nCRLF\rlone CR\u{85}NEL\u{2028}LS\n",
        "nul \u{0} inside\n",
        String(repeating: "- name: item\n  request: {url: \"items/1.json\"}\n", count: 20_000),
        String(repeating: "é", count: 100_001) + "\n",
    ])
    func textWithoutEFBytesIsReadInPlaceAsTheDataReadingReadsIt(_ text: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.write(Array(text.utf8), named: "suite.yaml", in: directory)
        let inPlace = SuiteLoader.textReadInPlace(at: path)
        #expect(inPlace != nil)
        #expect(inPlace == Self.readThroughData(path))
        #expect(inPlace.map { Array($0.utf8) } == Array(text.utf8))
    }

    @Test(
        arguments: [
            // Not UTF-8: a lone continuation byte, a truncated sequence, an overlong form, a surrogate, 0xFF.
            [0x61, 0x80, 0x0A], [0x61, 0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF],
            Array(String(repeating: "a", count: 70_000).utf8) + [0xC3],
            // A byte order mark, U+FFFD, and fullwidth forms (0xEF lead bytes) left to the other reading.
            [0xEF, 0xBB, 0xBF] + Array("name: bom\n".utf8), Array("name: \u{FFFD}\n".utf8), Array("name: ＡＰＩ\n".utf8),
            // Empty.
            [],
        ] as [[UInt8]])
    func otherFilesAreLeftToTheDataReading(_ bytes: [UInt8]) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.write(bytes, named: "suite.yaml", in: directory)
        #expect(SuiteLoader.textReadInPlace(at: path) == nil)
    }

    @Test func missingFilesAndFoldersAreLeftToTheDataReading() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(SuiteLoader.textReadInPlace(at: directory + "/missing.yaml") == nil)
        #expect(SuiteLoader.textReadInPlace(at: directory) == nil)
    }

    @Test func theLoaderReportsWhatItReportedForEveryReading() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let suite = "name: s\ntests:\n  - name: t\n    request: {url: \"http://127.0.0.1:9/x\"}\n"
        let plain = try Self.write(Array(suite.utf8), named: "plain.yaml", in: directory)
        let bom = try Self.write([0xEF, 0xBB, 0xBF] + Array(suite.utf8), named: "bom.yaml", in: directory)
        let broken = try Self.write(Array(suite.utf8) + [0x23, 0xFF, 0x0A], named: "broken.yaml", in: directory)
        let loader = SuiteLoader(environment: [:])
        #expect(try loader.load(path: plain).tests.map(\.name) == ["t"])
        #expect(try loader.load(path: bom).tests.map(\.name) == ["t"])
        #expect(throws: SuiteLoadError.self) { try loader.load(path: broken) }
        do {
            _ = try loader.load(path: broken)
        } catch {
            #expect(error.diagnostics.map(\.message) == ["the suite file is not valid UTF-8"])
            #expect(error.diagnostics.map(\.location.line) == [5])
        }
    }
}
