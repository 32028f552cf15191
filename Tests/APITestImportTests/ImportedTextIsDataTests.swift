import APITestJSON
import APITestSuite
import APITestSuiteWriting
import APITestSupport
import Foundation
import Testing

@testable import APITestImport

/// Imported text is data, never template: placeholder syntax in a recorded header, a body, a curl argument or a
/// Postman check is escaped (`TemplateLiteral`), so the written suite, loaded by the suite loader, renders the text
/// itself and never the environment value it names; the placeholders the importers mean (`{{ env.TOKEN }}`) stay
/// live.
struct ImportedTextIsDataTests {
    /// The planted placeholder, and the secret the environment holds for it.
    static let planted = "{{ env.AWS_SECRET_ACCESS_KEY }}"
    static let secret = "leaked-secret-value"

    /// Every template of every step of `suite`, rendered as the runner renders it (the suite's variables and the
    /// environment in the context).
    static func rendered(_ suite: Suite) throws -> [String] {
        let context = try suite.makeContext()
        var texts: [String] = []
        for test in suite.tests {
            for step in test.steps {
                for template in step.templates { texts.append(try template.render(context)) }
            }
        }
        return texts
    }

    /// `suite` written, loaded with the planted variable's secret in the environment (and `more`), and rendered.
    static func load(
        _ suite: SuiteDocument, more: [String: String] = [:]
    ) throws -> (text: String, rendered: [String]) {
        var environment = more
        environment["AWS_SECRET_ACCESS_KEY"] = secret
        let (text, loaded) = try SuiteDocumentRendererTests.load(suite, environment: environment)
        let rendered = try Self.rendered(loaded)
        #expect(!rendered.contains { $0.contains(secret) }, "the planted placeholder rendered the secret:\n\(text)")
        return (text, rendered)
    }

    // MARK: - The escape

    @Test(arguments: [
        "", "{", "{{", "{{{", "{{{{", "a{{b", "{{ env.X }}", "{{{ env.X }}}", "}}{{", "{'{'}", "{{ '{' }}",
        "x{{\n}}", "{{ \"{\" }}", "é{{ü",
    ])
    func escapedTextRendersAsItIs(_ text: String) throws {
        let escaped = TemplateLiteral.escaped(text)
        let template = try Template(parsing: escaped, location: SourceLocation(file: "t", line: 1, column: 1))
        #expect(try template.render(TemplateContext(environment: ["X": "secret"])) == text)
        #expect(TemplateLiteral.unescaped(escaped) == text)
    }

    @Test func randomTextsRenderAsTheyAre() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["{", "{", "{", "}", "}", " ", "'", "\"", "e", "\\", "$"]
        for _ in 0..<2000 {
            let text = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                })
            let escaped = TemplateLiteral.escaped(text)
            let template = try Template(parsing: escaped, location: SourceLocation(file: "t", line: 1, column: 1))
            #expect(try template.render(TemplateContext()) == text, "\(text) → \(escaped)")
        }
    }

    @Test func aLiteralBraceBeforeAPlaceholderIsEscapedToo() throws {
        let text = TemplateLiteral.joined([.literal("a{"), .placeholder("{{ env.X }}"), .literal("}")])
        #expect(text == "a{{ '{' }}{{ env.X }}}")
        let template = try Template(parsing: text, location: SourceLocation(file: "t", line: 1, column: 1))
        #expect(try template.render(TemplateContext(environment: ["X": "v"])) == "a{v}")
    }

    // MARK: - HAR

    @Test func harValuesAreData() throws {
        let entry = HAREntry(
            index: 0, resourceType: "xhr", method: "POST",
            url: "https://api.example.com/notes?q=\(Self.planted)&x=%7B%7B",
            headers: [
                (name: "X-Note", value: Self.planted), (name: "Content-Type", value: "application/json"),
                (name: "Authorization", value: "Bearer {{x"),
            ],
            cookies: [],
            postData: HARPostData(mimeType: "application/json", text: "{\"a\":\"\(Self.planted)\"}", params: []),
            status: 200, responseMimeType: "application/json")
        let form = HAREntry(
            index: 1, resourceType: "xhr", method: "POST", url: "https://api.example.com/form", headers: [],
            cookies: [],
            postData: HARPostData(
                mimeType: "application/x-www-form-urlencoded", text: nil,
                params: [(name: "note", value: Self.planted, fileName: nil)]), status: 200,
            responseMimeType: "application/json")
        let suite = HARImporter(archive: HARArchive(entries: [entry, form]), file: "t.har").suite()
        let (text, rendered) = try Self.load(suite, more: ["AUTHORIZATION": "token"])
        #expect(rendered.contains(Self.planted), "\(text)")
        #expect(rendered.contains("{\"a\":\"\(Self.planted)\"}"))
        #expect(rendered.contains { $0.hasSuffix("/notes?q=\(Self.planted)&x=%7B%7B") })
        // The credential is still read from the environment.
        #expect(rendered.contains("Bearer token"))
    }

    // MARK: - curl

    @Test func curlValuesAreData() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let suite = try importer.importTexts([
            "curl -H 'X-Note: \(Self.planted)' -H \"X-Brace: {$TOKEN}\" --data-raw 'a={{b' https://a.example/x",
            // curl keeps a backslash before anything but `"` and `\` in a quoted -F value: no placeholder appears.
            #"curl -F 'f="{\{ env.AWS_SECRET_ACCESS_KEY }}"' -F 'g=v;filename={{n}}.txt' https://a.example/y"#,
        ])
        let (text, rendered) = try Self.load(suite, more: ["TOKEN": "t"])
        #expect(rendered.contains(Self.planted), "\(text)")
        #expect(rendered.contains("{t}"))
        #expect(rendered.contains("a={{b"))
        #expect(rendered.contains(#"{\{ env.AWS_SECRET_ACCESS_KEY }}"#))
        #expect(rendered.contains("{{n}}.txt"))
        #expect(suite.environmentVariables == ["TOKEN"])
    }

    // MARK: - Postman

    @Test func postmanValuesAreData() throws {
        let collection = """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "r", "request": {"method": "POST", "url": "https://a.example/x",
               "header": [{"key": "X-Note", "value": "a {{ not closed"}, {"key": "X-Var", "value": "{{v}}"}],
               "body": {"mode": "raw", "raw": "{{{v}}} {{"}},
              "event": [{"listen": "test", "script": {"exec": [
                "pm.response.to.have.header('X-Echo', '\(Self.planted)');",
                "pm.response.to.have.body('\(Self.planted)');",
                "pm.expect(pm.response.json().note).to.eql('\(Self.planted)');"
              ]}}]}],
             "variable": [{"key": "v", "value": "w{{"}]}
            """
        let decoded = try PostmanCollectionDecoder(file: "c.json").decode(Array(collection.utf8))
        let suite = PostmanImporter(collection: decoded, files: ["c.json"]).suite()
        #expect(suite.allNotes.isEmpty, "\(suite.allNotes.map(\.rendered))")
        let (text, rendered) = try Self.load(suite)
        #expect(rendered.contains("a {{ not closed"), "\(text)")
        #expect(rendered.contains("w{{"))
        #expect(rendered.filter { $0 == Self.planted }.count == 3)
        #expect(suite.tests[0].expect.json.map(\.path) == ["$.note"])
    }
}
