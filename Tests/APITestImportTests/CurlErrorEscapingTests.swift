import APITestSupport
import Foundation
import Testing

@testable import APITestImport

/// An error of `import curl` quotes words of the command line, which may hold ESC or any other control character:
/// the message shows each as an escape (`\u{1B}`), never the raw byte that would drive the terminal.
struct CurlErrorEscapingTests {
    /// Whether `text` holds ESC (0x1B) or CSI (U+009B), the starts of a terminal's control sequences.
    static func drivesATerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }
    }

    /// The failure of importing `text`, which must fail.
    static func failure(_ text: String) throws -> CurlImporter.Failure {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        do {
            _ = try importer.importTexts([text])
        } catch {
            return error
        }
        Issue.record("\(text) was imported")
        throw CancellationError()
    }

    @Test func anUnknownLongOptionIsShownEscaped() throws {
        let failure = try Self.failure("curl --ev\u{1B}[2Jil http://x/a")
        #expect(!Self.drivesATerminal(failure.description), "\(failure)")
        #expect(failure.description == #"argument 1: unknown curl option --ev\u{1B}[2Jil"#)
    }

    @Test func anUnknownShortOptionIsShownEscaped() throws {
        let failure = try Self.failure("curl -\u{9B} http://x/a")
        #expect(!Self.drivesATerminal(failure.description), "\(failure)")
        #expect(failure.description == #"argument 1: unknown curl option -\u{9B}"#)
    }

    @Test func theParsersMessageIsEscapedWhereItIsMade() {
        #expect(throws: CurlCommandParser.Failure(position: 1, message: #"unknown curl option --a\u{1B}[31m"#)) {
            try CurlCommandParser.parse([ShellWord("--a\u{1B}[31m")])
        }
    }

    /// Every failure is shown escaped, whatever part of the import quotes the word (here: a word that is no command).
    @Test func anyFailureIsShownEscaped() throws {
        let failure = try Self.failure("\u{1B}[2J x")
        #expect(!Self.drivesATerminal(failure.description), "\(failure)")
        #expect(failure.description.contains(#"'\u{1B}[2J' is not a curl command"#), "\(failure)")
    }
}
