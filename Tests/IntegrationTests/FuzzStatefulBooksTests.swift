import Foundation
import Testing

/// `apitest fuzz`'s stateful phase on a service shaped like bench/fuzz's FastAPI books service
/// (Fixtures/stateful_books.py, its document FastAPI's form: an optional `isbn` that is `anyOf` a string or `null`).
/// Its books collection stores a book only when it has an isbn, still finds a deleted book, and deletes without its
/// key; its papers collection does none of that. Finding all three faults needs a creation that the service stores
/// (every member, the isbn a string) and one it does not (the required members only), and the keyless DELETE sent
/// on the stored one: the old phase (two random creations, the keyless probe in the last only) missed
/// `use_after_free` and `ignored_auth` here, as on the books service.
@Suite struct FuzzStatefulBooksTests {
    static let document = """
        openapi: 3.1.0
        info: {title: books, version: "1"}
        components:
          securitySchemes:
            APIKeyHeader: {type: apiKey, in: header, name: X-API-Key}
          schemas:
            New:
              type: object
              required: [title, year]
              properties:
                title: {type: string, minLength: 1, maxLength: 100}
                year: {type: integer, minimum: 0, maximum: 2100}
                isbn:
                  anyOf:
                    - {type: string, minLength: 10, maxLength: 17}
                    - {type: "null"}
            Item:
              type: object
              required: [id, title, year]
              properties:
                id: {type: integer}
                title: {type: string}
                year: {type: integer}
                isbn: {anyOf: [{type: string}, {type: "null"}]}
            Error:
              type: object
              properties: {detail: {}}
        paths:
        """
        + ["books", "papers"].map { name in
            let singular = String(name.dropLast()).capitalized
            return """

                  /\(name):
                    post:
                      operationId: add\(singular)
                      requestBody:
                        required: true
                        content: {application/json: {schema: {$ref: '#/components/schemas/New'}}}
                      responses:
                        "201":
                          description: created
                          headers: {Location: {schema: {type: string}}}
                          content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}
                        "422": {description: invalid, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                  /\(name)/{item_id}:
                    parameters:
                      - {name: item_id, in: path, required: true, schema: {type: integer}}
                    get:
                      operationId: get\(singular)
                      responses:
                        "200": {description: the item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                        "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                        "422": {description: invalid, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                    delete:
                      operationId: delete\(singular)
                      security: [{APIKeyHeader: []}]
                      responses:
                        "204": {description: deleted}
                        "401": {description: no key, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                        "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                        "422": {description: invalid, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                """
        }.joined()

    /// `apitest fuzz --phases stateful` of the document with `seed` against a new server, in a new folder.
    func fuzz(seed: Int) async throws -> ProcessResult {
        let server = try FaultServer(script: "stateful_books.py")
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("books.yaml")
        try Self.document.write(to: spec, atomically: true, encoding: .utf8)
        return try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "fuzz", spec.path, "--base-url", server.baseURL, "--seed", String(seed), "-H", "X-API-Key: books-key",
                "--phases", "stateful", "--checks", "use_after_free,ensure_resource_availability,ignored_auth",
                "--findings", "found", "--no-color",
            ], currentDirectory: folder, timeout: .seconds(120))
    }

    @Test(arguments: [1, 2, 3])
    func aStoredAndAnUnstoredCreationFindEveryStatefulFault(seed: Int) async throws {
        let result = try await fuzz(seed: seed)
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("ensure_resource_availability on getBook"), "\(result.stdout)")
        #expect(result.stdout.contains("use_after_free on getBook"), "\(result.stdout)")
        #expect(result.stdout.contains("ignored_auth on deleteBook"), "\(result.stdout)")
        // The clean collection: nothing.
        #expect(!result.stdout.contains("Paper ("), "\(result.stdout)")
        #expect(!result.stdout.contains(" on getPaper"), "\(result.stdout)")
        #expect(!result.stdout.contains(" on deletePaper"), "\(result.stdout)")
    }
}
