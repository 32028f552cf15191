import APITestOpenAPI
import APITestSupport
import APITestYAML
import Foundation
import Testing

@testable import APITestSuite

/// The problems of an OpenAPI document name the JSON Pointer of their place beside its position: in a minified JSON
/// document every position is on line 1 (`openapi.json:1:3611`), and `/paths/~1users/get/responses/abc` says
/// where that is. The pointer is escaped for JSON Pointer (`~0`, `~1`) and for the terminal (a control character in
/// a member name is an escape, never the raw character).
struct OpenAPIPointerDiagnosticTests {
    /// A new folder holding `files` (name → text).
    static func folder(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-pointer-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// A minified OpenAPI 3.1 document: forty operations, then `/users` whose `responses` hold `extra` and a path
    /// `/a~b/{id}` whose response schema holds `schemaProperty` with `schemaValue`.
    static func minified(
        extra: String = "", schemaProperty: String = #""id""#, schemaValue: String = #"{"type":"string"}"#
    )
        -> String
    {
        var paths: [String] = []
        for index in 0..<40 {
            paths.append(
                #""/things\#(index)":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":"#
                    + #"{"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}}}}}}"#)
        }
        paths.append(#""/users":{"get":{"responses":{"200":{"description":"ok"}\#(extra)}}}"#)
        paths.append(
            #""/a~b/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],"#
                + #""responses":{"200":{"description":"x","content":{"application/json":{"schema":{"type":"object","#
                + #""properties":{\#(schemaProperty):\#(schemaValue)}}}}}}}}"#)
        return #"{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"# + paths.joined(separator: ",")
            + "}}"
    }

    /// The diagnostics of loading `text` as `name`, as `apitest generate openapi` and a suite's `openapi:` read it.
    static func diagnostics(_ text: String, name: String = "openapi.json") throws -> [Diagnostic] {
        let folder = try folder([name: text])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        switch OpenAPIDescriptionLoader.load(path: folder + "/" + name) {
        case .success: return []
        case .failure(let error): return error.diagnostics
        }
    }

    @Test func aProblemDeepInAMinifiedDocumentNamesItsPointer() throws {
        let diagnostics = try Self.diagnostics(Self.minified(extra: #","abc":{"description":"bad"}"#))
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(diagnostic.location.line == 1)
        #expect(diagnostic.location.column > 3_000)
        #expect(
            diagnostic.message.hasSuffix(
                "/openapi.json', at /paths/~1users/get/responses/abc: response key \"abc\" is not a status code "
                    + "(200), a range (2XX) or default"), "\(diagnostic.message)")
        // The one-line form puts it right after the position.
        #expect(diagnostic.description.contains("openapi.json:1:\(diagnostic.location.column): error: openapi '"))
    }

    @Test func keysWithSlashTildeAndControlsAreEscaped() throws {
        let diagnostics = try Self.diagnostics(
            Self.minified(schemaProperty: #""we\u001bird/k~ey""#, schemaValue: #"{"minLength":"3"}"#))
        let message = try #require(diagnostics.first?.message)
        #expect(
            message.contains(
                #"/openapi.json', at /paths/~1a~0b~1{id}/get/responses/200/content/application~1json/schema/"#
                    + #"properties/we\u{1B}ird~1k~0ey/minLength: schema does not compile"#),
            "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func aSyntaxErrorInAMinifiedJSONDocumentNamesItsPointer() throws {
        // `"abc" {` lacks its colon: libyaml's error, at its position, with the member it is in.
        let text = Self.minified(extra: #","abc" {"description":"bad"}"#)
        let diagnostic = try #require(try Self.diagnostics(text).first)
        #expect(diagnostic.location.line == 1)
        #expect(diagnostic.message.contains("/openapi.json', at /paths/~1users/get/responses/abc: "))
        #expect(diagnostic.message.contains("is not valid YAML or JSON"))
    }

    @Test func aYAMLDocumentsProblemNamesItsPointerToo() throws {
        let text = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /users/{id}:
                get:
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: string}}
                    - {name: q, in: body, schema: {type: string}}
                  responses:
                    "200": {description: ok}
            """
        let diagnostic = try #require(try Self.diagnostics(text, name: "api.yaml").first)
        #expect(diagnostic.location.line == 8)
        #expect(diagnostic.message.contains("/api.yaml', at /paths/~1users~1{id}/get/parameters/1/in: "))
        // A YAML syntax error has no pointer (the block structure is not JSON's), and says so by leaving it out.
        let broken = try #require(try Self.diagnostics("openapi: 3.1.0\npaths: [a\n", name: "broken.yaml").first)
        #expect(broken.message.contains("/broken.yaml': "))
        #expect(!broken.message.contains(", at /"))
    }

    @Test func aSuitesOpenAPIErrorShowsThePointer() throws {
        let folder = try Self.folder([
            "openapi.json": Self.minified(extra: #","abc":{"description":"bad"}"#),
            "suite.yaml": """
            name: s
            baseURL: http://127.0.0.1:1
            openapi: openapi.json
            tests:
              - name: a
                request: {method: GET, url: /users}
            """,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            _ = try SuiteLoader().load(path: folder + "/suite.yaml")
            Issue.record("the suite loaded")
        } catch {
            #expect(
                error.render(colored: false).contains("openapi 'openapi.json', at /paths/~1users/get/responses/abc: "))
        }
    }
}
