import APITestSupport
import APITestYAML
import Foundation
import Testing

@testable import APITestSuite

/// The source line a diagnostic shows: a window around the column when the line is long (a minified JSON document is
/// one line of hundreds of kilobytes), and every control character of the file (ESC, CSI U+009B, a lone CR) written
/// as an escape, with the carets under the column in what is shown.
struct DiagnosticExcerptTests {
    /// Whether `text` holds ESC (0x1B) or CSI (U+009B), the starts of a terminal's control sequences.
    static func drivesATerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }
    }

    /// The excerpt's line and caret line of `rendered` (the lines after `N | ` and `  | `).
    static func excerpt(_ rendered: String) throws -> (line: String, carets: String) {
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix("1 | ") })
        return (String(lines[index].dropFirst(4)), String(lines[index + 1].dropFirst(4)))
    }

    @Test func aLongLineIsShownAsAWindowAroundTheColumn() throws {
        let line = String(repeating: "a", count: 239_050) + "X" + String(repeating: "b", count: 60_000)
        let diagnostic = Diagnostic.error("here", at: SourceLocation(file: "big.json", line: 1, column: 239_051))
        let rendered = DiagnosticRenderer().render(diagnostic, source: line)
        #expect(rendered.utf8.count < 400, "\(rendered.utf8.count) bytes")
        let (shown, carets) = try Self.excerpt(rendered)
        #expect(shown == "…" + String(repeating: "a", count: 60) + "X" + String(repeating: "b", count: 60) + "…")
        #expect(carets == String(repeating: " ", count: 61) + "^")
        // The caret is under the column: the character above it is the one the diagnostic names.
        #expect(Array(shown)[carets.count - 1] == "X")
    }

    @Test func aLongLineIsCutOnlyWhereItGoesOn() throws {
        let start = Diagnostic.error("x", at: SourceLocation(file: "t", line: 1, column: 3), length: 2)
        let (head, headCarets) = try Self.excerpt(
            DiagnosticRenderer().render(start, source: String(repeating: "c", count: 500)))
        #expect(head == String(repeating: "c", count: 64) + "…")
        #expect(headCarets == "  ^^")
        let end = Diagnostic.error("x", at: SourceLocation(file: "t", line: 1, column: 501), length: 1)
        let (tail, tailCarets) = try Self.excerpt(
            DiagnosticRenderer().render(end, source: String(repeating: "c", count: 500)))
        #expect(tail == "…" + String(repeating: "c", count: 60))
        #expect(tailCarets == String(repeating: " ", count: 61) + "^")
    }

    @Test func aShortLineIsShownWhole() throws {
        let line = String(repeating: "d", count: 150)
        let diagnostic = Diagnostic.error("x", at: SourceLocation(file: "t", line: 1, column: 140), length: 3)
        let (shown, carets) = try Self.excerpt(DiagnosticRenderer().render(diagnostic, source: line))
        #expect(shown == line)
        #expect(carets == String(repeating: " ", count: 139) + "^^^")
    }

    @Test func controlCharactersAreEscapedAndTheCaretFollows() throws {
        let line = "{\"t\":\"t\u{9B}31m\u{1B}[2J\",\"u\":1\r}"
        // Column 19 is the `u` after `{"t":"t\u{9B}31m\u{1B}[2J","`.
        let diagnostic = Diagnostic.error("x", at: SourceLocation(file: "t", line: 1, column: 19), length: 1)
        let rendered = DiagnosticRenderer().render(diagnostic, source: line)
        #expect(!Self.drivesATerminal(rendered), "\(rendered)")
        let (shown, carets) = try Self.excerpt(rendered)
        #expect(shown == #"{"t":"t\u{9B}31m\u{1B}[2J","u":1\r}"#)
        #expect(Array(shown)[carets.count - 1] == "u", "\(shown)\n\(carets)")
        // A diagnostic on the control character underlines its whole escape.
        let onEscape = Diagnostic.error("x", at: SourceLocation(file: "t", line: 1, column: 8), length: 1)
        let (_, escapeCarets) = try Self.excerpt(DiagnosticRenderer().render(onEscape, source: line))
        #expect(escapeCarets == String(repeating: " ", count: 7) + "^^^^^^")
    }

    /// The diagnostics of the OpenAPI document `text`, rendered as `apitest generate openapi` renders them.
    static func renderedDocumentError(_ text: String) throws -> String {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try writeFile(text, to: "openapi.json", in: folder)
        guard case .failure(let error) = OpenAPIDescriptionLoader.load(path: path) else {
            Issue.record("the document loaded")
            return ""
        }
        return error.render(colored: false)
    }

    /// The end to end case: a 299 KB one-line OpenAPI document with an error near column 239051.
    @Test func aMinifiedDocumentsErrorIsShort() throws {
        var text = #"{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"#
        var index = 0
        while text.utf8.count < 239_000 {
            if index > 0 { text += "," }
            text += #""/things\#(index)":{"get":{"responses":{"200":{"description":"ok"}}}}"#
            index += 1
        }
        text += #", x"# + String(repeating: " ", count: 60_000) + "}}"
        let rendered = try Self.renderedDocumentError(text)
        #expect(rendered.contains(":1:239"), "\(rendered)")
        #expect(rendered.utf8.count < 1_000, "\(rendered.utf8.count) bytes")
    }

    /// Raw control characters in a document's string (ESC, U+009B) are escapes in its excerpt.
    @Test func aDocumentsControlCharacterIsEscapedInItsExcerpt() throws {
        let rendered = try Self.renderedDocumentError(
            #"{"openapi":"3.1.0","info":{"title":"t\#u{9B}31m\#u{1B}[2J","version":"1"},"paths":{}}"#)
        #expect(!rendered.isEmpty)
        #expect(!Self.drivesATerminal(rendered), "\(rendered)")
        #expect(rendered.contains(#""title":"t\u{9B}31m\u{1B}[2J""#), "\(rendered)")
    }

    @Test func aSuitesControlCharacterIsEscapedInItsExcerpt() throws {
        let suite = "baseURL: http://127.0.0.1:1\ntests:\n  - name: \"a\u{9B}31m\"\n    request: {url: /}\n"
        do {
            _ = try loadSuite(suite)
            Issue.record("the suite loaded")
        } catch {
            let rendered = error.render(colored: false)
            #expect(!Self.drivesATerminal(rendered), "\(rendered)")
            #expect(rendered.contains(#"3 |   - name: "a\u{9B}31m""#), "\(rendered)")
        }
    }

    /// Whatever a message quotes from the file (an unknown key, a method, a status) is an escape in both forms.
    @Test func aMessagesQuotedValuesAreEscaped() throws {
        let suite = """
            baseURL: http://127.0.0.1:1
            tests:
              - name: a
                request: {url: /, method: "G\\e[2JT"}
                expect: {"st\\e[31m": 200}
            """
        do {
            _ = try loadSuite(suite)
            Issue.record("the suite loaded")
        } catch {
            let rendered = error.render(colored: false)
            #expect(!Self.drivesATerminal(rendered), "\(rendered)")
            #expect(!Self.drivesATerminal(error.oneLineSummary), "\(error.oneLineSummary)")
            #expect(rendered.contains(#"error: unknown key 'st\u{1B}[31m' in expect"#), "\(rendered)")
            #expect(error.oneLineSummary.contains(#"invalid HTTP method 'G\u{1B}[2JT'"#), "\(error.oneLineSummary)")
        }
        let located = Diagnostic.error(
            "bad \u{9B}", at: SourceLocation(file: "a\u{1B}.yaml", line: 1, column: 1), note: "n\u{1B}")
        #expect(located.description == #"a\u{1B}.yaml:1:1: error: bad \u{9B} (n\u{1B})"#)
        #expect(!Self.drivesATerminal(DiagnosticRenderer().render(located, source: "x")))
    }
}
