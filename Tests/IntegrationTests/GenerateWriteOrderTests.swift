import Foundation
import Testing

/// Suites generated from a document whose writes change what its reads return (`Fixtures/stateful_pets.py`: a
/// `PUT` or `PATCH` stores `{}`, a `POST` stores a pet without an `id`, and the `GET`s must return pets with one) give
/// the same verdict at any `--jobs`: every write runs in the file's `teardown`, after the reads, `DELETE` last; and a
/// failing `teardown` step fails the run where it can be seen.
@Suite struct GenerateWriteOrderTests {
    /// The document; `deleteID` is the `DELETE`'s example pet (1 exists, 7 does not).
    static func document(deleteID: Int = 1) -> String {
        """
        openapi: 3.0.3
        info: {title: Pets, version: "1"}
        servers: [{url: "http://127.0.0.1:1"}]
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                "200":
                  description: the pets
                  content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}
            post:
              operationId: addPet
              requestBody:
                required: true
                content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}
              responses:
                "201":
                  description: made
                  content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
          /pets/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}, example: 1}]
            get:
              operationId: getPet
              responses:
                "200":
                  description: the pet
                  content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
            put:
              operationId: replacePet
              requestBody: {required: true, content: {application/json: {schema: {type: object}}}}
              responses: {"204": {description: replaced}}
            patch:
              operationId: renamePet
              requestBody: {required: true, content: {application/json: {schema: {type: object}}}}
              responses: {"204": {description: renamed}}
            delete:
              operationId: deletePet
              parameters: [{name: id, in: path, required: true, schema: {type: integer}, example: \(deleteID)}]
              responses: {"204": {description: gone}}
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties: {id: {type: integer}, name: {type: string}}
        """
    }

    /// The document written to a new folder, and the folder the suites go to.
    func prepare(deleteID: Int = 1) throws -> (document: String, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-write-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let document = folder.appendingPathComponent("pets.yaml").path
        try Self.document(deleteID: deleteID).write(toFile: document, atomically: true, encoding: .utf8)
        return (document, folder.appendingPathComponent("suites").path)
    }

    /// Generated once per run against a fresh server: green at `--jobs 8` every time, and at `--jobs 1`. The old
    /// generator kept the POST, PUT and PATCH as tests, which ran during the GETs (the server's reads wait 0.3 s) and
    /// failed them at `--jobs 8`.
    @Test func writesRunAfterTheReadsAtAnyJobs() async throws {
        for jobs in [8, 8, 8, 8, 1] {
            let server = try FaultServer(script: "stateful_pets.py")
            defer { server.stop() }
            let (document, output) = try prepare()
            defer { try? FileManager.default.removeItem(atPath: (document as NSString).deletingLastPathComponent) }
            let generated = try await runAPITest(
                ["generate", "openapi", document, "-o", output, "--base-url", server.baseURL])
            #expect(generated.exitCode == 0, "\(generated.stderr)")
            #expect(generated.stdout.contains("wrote \(output)/default.yaml: 2 tests and 4 teardown steps\n"))
            #expect(generated.stdout.contains("2 tests and 4 teardown steps in 1 file, 0 operations skipped"))
            let validated = try await runAPITest(["validate", output])
            #expect(validated.exitCode == 0, "\(validated.stderr)")
            #expect(validated.stdout.contains("2 tests"), "\(validated.stdout)")
            let run = try await runAPITest(["run", output, "--jobs", String(jobs)])
            #expect(run.exitCode == 0, "--jobs \(jobs): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("6/6 operations"), "\(run.stdout)")
            // The writes reached the server after both reads, in document order, the DELETE last.
            let lines = server.receivedRequestLines.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
            #expect(
                Array(lines.suffix(4)) == ["POST /pets", "PUT /pets/1", "PATCH /pets/1", "DELETE /pets/1"],
                "\(lines)")
        }
    }

    /// A teardown step that fails (the DELETE's pet does not exist: 404, which the document does not declare) fails
    /// the run, named under the suite's teardown, and the run exits 1.
    @Test func aFailingTeardownStepFailsTheRun() async throws {
        let server = try FaultServer(script: "stateful_pets.py")
        defer { server.stop() }
        let (document, output) = try prepare(deleteID: 7)
        defer { try? FileManager.default.removeItem(atPath: (document as NSString).deletingLastPathComponent) }
        let generated = try await runAPITest(
            ["generate", "openapi", document, "-o", output, "--base-url", server.baseURL])
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        let run = try await runAPITest(["run", output, "--jobs", "8"])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✘ Pets › teardown"), "\(run.stdout)")
        #expect(run.stdout.contains("deletePet"), "\(run.stdout)")
    }
}
