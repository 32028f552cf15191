import APITestOpenAPI
import APITestSupport
import APITestYAML
import Foundation
import Testing

@testable import APITestSuite

/// A schema document's errors quote its values (a member name in the pointer, a `type`, a `$ref`), which may hold
/// ESC or any other control character: `apitest validate` and `apitest generate openapi` show each as an escape
/// (`\u{1B}`), never the raw byte that would drive the terminal.
struct SchemaErrorEscapingTests {
    /// Whether `text` holds ESC (0x1B) or CSI (U+009B), the starts of a terminal's control sequences.
    static func drivesATerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }
    }

    /// The load error of a suite whose one test expects the schema file holding `schema` (JSON text).
    static func schemaFileError(_ schema: String) throws -> SuiteLoadError {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try writeFile(schema, to: "s.schema.json", in: folder)
        let suite = """
            baseURL: http://127.0.0.1:1
            tests:
              - name: a
                request: {url: /}
                expect: {schema: s.schema.json}
            """
        do {
            _ = try loadSuite(suite, file: folder + "/suite.yaml")
        } catch {
            return error
        }
        Issue.record("the suite loaded")
        throw CancellationError()
    }

    /// The one message of `error`, checked to be escaped in every form the CLI prints.
    static func message(of error: SuiteLoadError) throws -> String {
        let diagnostic = try #require(error.diagnostics.first)
        #expect(!drivesATerminal(error.render(colored: false)), "\(error.render(colored: false))")
        #expect(!drivesATerminal(error.oneLineSummary), "\(error.oneLineSummary)")
        return diagnostic.message
    }

    @Test func aMemberNameInThePointerIsEscaped() throws {
        let error = try Self.schemaFileError(#"{"type":"object","properties":{"a\u001b[31m/~":{"type":"strin"}}}"#)
        let message = try Self.message(of: error)
        #expect(message.hasSuffix(#"at /properties/a\u{1B}[31m~1~0/type"#), "\(message)")
    }

    @Test func anUnknownTypeIsEscaped() throws {
        let error = try Self.schemaFileError(#"{"type":"\u001b[31mX\u009b"}"#)
        let message = try Self.message(of: error)
        #expect(message.contains(#"unknown type "\u{1B}[31mX\u{9B}""#), "\(message)")
    }

    @Test func anUnresolvableReferenceIsEscaped() throws {
        let error = try Self.schemaFileError(##"{"$ref":"#/\u001b[32mnope"}"##)
        let message = try Self.message(of: error)
        #expect(message.contains(##"cannot resolve $ref "#/\u{1B}[32mnope""##), "\(message)")
    }

    @Test func anInlineSchemasErrorIsEscaped() throws {
        let suite = """
            baseURL: http://127.0.0.1:1
            tests:
              - name: a
                request: {url: /}
                expect: {schema: {type: "\\e[31mX"}}
            """
        do {
            _ = try loadSuite(suite)
            Issue.record("the suite loaded")
        } catch {
            let message = try Self.message(of: error)
            #expect(message.contains(#"unknown type "\u{1B}[31mX""#), "\(message)")
        }
    }

    /// `apitest generate openapi` and a suite's `openapi:` read a third-party document: its schema's errors too.
    @Test func anOpenAPIDocumentsSchemaErrorIsEscaped() throws {
        let document = """
            {"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{
            "description":"ok","content":{"application/json":{"schema":{"type":"\\u001b[31mX"}}}}}}}}}
            """
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try writeFile(document, to: "o8.json", in: folder)
        guard case .failure(let error) = OpenAPIDescriptionLoader.load(path: path) else {
            Issue.record("the document loaded")
            return
        }
        let diagnostic = try #require(error.diagnostics.first)
        #expect(diagnostic.message.contains(#"unknown type "\u{1B}[31mX""#), "\(diagnostic.message)")
        #expect(!Self.drivesATerminal(error.render(colored: false)), "\(error.render(colored: false))")
        #expect(!Self.drivesATerminal("\(error)"), "\(error)")
    }
}
