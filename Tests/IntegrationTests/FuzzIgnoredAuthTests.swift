import Foundation
import Testing

/// `apitest fuzz`'s `ignored_auth` on a resource that exists: Fixtures/ignored_auth_notes.py declares both DELETEs
/// behind an `X-API-Key` and checks it only for memos, and holds no item at start, so a DELETE without the key to an
/// id made up gets 404 from both. The stateful phase sends the DELETE of the item it just created without the key:
/// the notes' answers 204 (found, and the written finding fails `apitest run`), the memos' 401 (not found). A deleted
/// note can still be read, and a keyless deletion that got a 2xx stands for the sequence's deletion, so
/// `use_after_free` is still found when the keyless DELETE is the only one (one sequence, `--max-examples 1`).
@Suite struct FuzzIgnoredAuthTests {
    static let document = """
        openapi: 3.0.3
        info: {title: notes, version: "1"}
        components:
          securitySchemes:
            key: {type: apiKey, in: header, name: X-API-Key}
          schemas:
            New:
              type: object
              required: [text]
              properties: {text: {type: string, maxLength: 20}}
            Item:
              type: object
              required: [id, text]
              properties: {id: {type: integer}, text: {type: string}}
            Error:
              type: object
              properties: {error: {type: string}}
        paths:
        """
        + ["notes", "memos"].map { name in
            let singular = String(name.dropLast()).capitalized
            return """

                  /\(name):
                    post:
                      operationId: add\(singular)
                      requestBody:
                        required: true
                        content: {application/json: {schema: {$ref: '#/components/schemas/New'}}}
                      responses:
                        "201": {description: created, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                        "400": {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                  /\(name)/{id}:
                    parameters:
                      - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}
                    get:
                      operationId: get\(singular)
                      responses:
                        "200": {description: the item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                        "400": {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                        "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                    delete:
                      operationId: delete\(singular)
                      security: [{key: []}]
                      responses:
                        "204": {description: deleted}
                        "400": {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                        "401": {description: no key, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                        "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                """
        }.joined()

    /// `apitest fuzz` of the notes document against a new server, in a new folder (removed by `body`'s caller).
    func fuzz(_ arguments: [String], _ body: (ProcessResult, URL) async throws -> Void) async throws {
        let server = try FaultServer(script: "ignored_auth_notes.py")
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("notes.yaml")
        try Self.document.write(to: spec, atomically: true, encoding: .utf8)
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "fuzz", spec.path, "--base-url", server.baseURL, "--seed", "1", "-H", "X-API-Key: notes-key",
                "--findings", "found", "--no-color",
            ] + arguments, currentDirectory: folder, timeout: .seconds(120))
        try await body(result, folder)
    }

    @Test func aDeleteThatIgnoresItsKeyIsFoundOnACreatedResource() async throws {
        try await fuzz(["--max-examples", "10", "--checks", "ignored_auth"]) { result, folder in
            #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("ignored_auth on deleteNote"), "\(result.stdout)")
            #expect(!result.stdout.contains("ignored_auth on deleteMemo"), "\(result.stdout)")

            let found = folder.appendingPathComponent("found")
            let files = try FileManager.default.contentsOfDirectory(atPath: found.path).filter { $0.hasSuffix(".yaml") }
            #expect(files.count == 1, "\(files)")
            for file in files {
                let text = try String(contentsOf: found.appendingPathComponent(file), encoding: .utf8)
                #expect(!text.contains("notes-key"), "\(file):\n\(text)")
                let run = try await runProcess(
                    try TestBinaries.url("apitest"), ["run", found.appendingPathComponent(file).path],
                    environment: ["X_API_KEY": "notes-key"], currentDirectory: folder)
                #expect(run.exitCode == 1, "\(file) did not fail:\n\(text)\n\(run.stdout)\(run.stderr)")
                #expect(run.stdout.contains("204"), "\(run.stdout)")
            }
        }
    }

    @Test func aKeylessDeletionThatGetsA2xxIsTheSequencesDeletion() async throws {
        try await fuzz(["--max-examples", "1", "--checks", "ignored_auth,use_after_free"]) { result, _ in
            #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("ignored_auth on deleteNote"), "\(result.stdout)")
            #expect(result.stdout.contains("use_after_free on getNote"), "\(result.stdout)")
            #expect(!result.stdout.contains("on deleteMemo"), "\(result.stdout)")
            #expect(!result.stdout.contains("on getMemo"), "\(result.stdout)")
        }
    }
}
