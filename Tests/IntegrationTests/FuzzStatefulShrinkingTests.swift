import Foundation
import Testing

/// How `apitest fuzz` shrinks a finding of its stateful phase (Fixtures/stateful_notes.py: a notes collection whose
/// `PUT` of a body with a `title` is a 500 once the note exists, which still finds a deleted note, and which refuses a
/// title it had before with 409, as a re-run of the run's creation is). The failure
/// is re-run against the server with fewer steps and smaller requests, kept only when the same check fails the same
/// way at the same step, within the shrinking budget; the finding is written as the sequence that is left, which
/// `apitest run` fails the same way until the API is fixed (and passes once it is, `--fixed`). A finding that does
/// not fail again when re-run (`--flaky`) is written as found, with a note.
@Suite struct FuzzStatefulShrinkingTests {
    static let document = """
        openapi: 3.1.0
        info: {title: notes, version: "1"}
        components:
          schemas:
            New:
              type: object
              required: [title]
              properties:
                title: {type: string, minLength: 1, maxLength: 8}
                text: {type: string, maxLength: 8}
                tags: {type: array, maxItems: 3, items: {type: string, maxLength: 4}}
            Note:
              type: object
              required: [id, title]
              properties:
                id: {type: integer}
                title: {type: string}
                text: {type: string}
                tags: {type: array, items: {type: string}}
            Error:
              type: object
              properties: {detail: {}}
        paths:
          /notes:
            post:
              operationId: addNote
              requestBody:
                required: true
                content: {application/json: {schema: {$ref: '#/components/schemas/New'}}}
              responses:
                "201":
                  description: created
                  content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}
                "409": {description: a title used before, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                "422": {description: invalid, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
          /notes/{note_id}:
            parameters:
              - {name: note_id, in: path, required: true, schema: {type: integer}}
            get:
              operationId: getNote
              responses:
                "200": {description: the note, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
                "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
            put:
              operationId: updateNote
              requestBody:
                required: true
                content: {application/json: {schema: {$ref: '#/components/schemas/New'}}}
              responses:
                "200": {description: updated, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
                "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
                "422": {description: invalid, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
            delete:
              operationId: deleteNote
              responses:
                "204": {description: deleted}
                "404": {description: absent, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
        """

    /// A run of `apitest fuzz` and what it wrote.
    struct Fuzzed {
        var result: ProcessResult
        /// The findings' files, by name.
        var files: [String: String]
        /// The base URL of the server it ran against.
        var baseURL: String
        /// The request lines the server got.
        var requestLines: [String]
    }

    /// `apitest fuzz --phases stateful` of `document` with `seed` and `checks` against a new notes server started
    /// with `options`, in a new folder.
    func fuzz(
        seed: Int, checks: String = "not_a_server_error,use_after_free", options: [String] = [],
        document: String = Self.document
    ) async throws -> Fuzzed {
        let server = try NotesServer(options)
        defer { server.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("notes.yaml")
        try document.write(to: spec, atomically: true, encoding: .utf8)
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "fuzz", spec.path, "--base-url", server.baseURL, "--seed", String(seed), "--phases", "stateful",
                "--checks", checks, "--findings", "found", "--no-color",
            ], currentDirectory: folder, timeout: .seconds(600))
        var files: [String: String] = [:]
        let found = folder.appendingPathComponent("found")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: found.path)) ?? [] {
            files[name] = try String(contentsOf: found.appendingPathComponent(name), encoding: .utf8)
        }
        return Fuzzed(result: result, files: files, baseURL: server.baseURL, requestLines: server.requestLines)
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-shrink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The file of the finding whose name contains `part`.
    static func file(_ fuzzed: Fuzzed, _ part: String) -> String? {
        fuzzed.files.first { $0.key.contains(part) }?.value
    }

    /// How many requests (steps) the written test sends.
    static func steps(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "- request:" }.count
    }

    /// The lines of the written request with `method`, up to its `expect:`.
    static func request(_ method: String, in text: String) -> [String] {
        let lines = text.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "method: \(method)" })
        else { return [] }
        let rest = lines[start...]
        let end = rest.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "expect:" } ?? lines.endIndex
        return Array(lines[start..<end]).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The number of requests the run says it sent (`N requests sent`): the phases' own, without shrinking's.
    static func sent(_ output: String) -> Int? {
        guard let range = output.range(of: " requests sent") else { return nil }
        return Int(output[..<range.lowerBound].split(separator: " ").last ?? "")
    }

    // MARK: - Shrinking

    @Test func aStatefulFindingKeepsOnlyTheStepsAndTheMembersItNeeds() async throws {
        let fuzzed = try await fuzz(seed: 1)
        let output = fuzzed.result.stdout + fuzzed.result.stderr
        #expect(fuzzed.result.exitCode == 1, "\(output)")
        // The 500 of the update: the creation and the update, the read between them left out; of the update's body
        // only the title, of one character (the old code wrote the update alone, with the run's id).
        let update = try #require(Self.file(fuzzed, "not_a_server_error-updatenote"), "\(fuzzed.files.keys)\n\(output)")
        #expect(Self.steps(update) == 2, "\(update)")
        #expect(update.contains("# shrunk from 3 steps to 2: left out read after create (sequence 1)"), "\(update)")
        #expect(update.contains("body members left out"), "\(update)")
        let put = Self.request("PUT", in: update)
        #expect(put.contains("url: \"notes/{{ created_id }}\""), "\(update)")
        let body = put.drop { $0 != "json:" }.dropFirst()
        #expect(body.count == 1, "\(put)")
        #expect(body.first?.hasPrefix("title: ") == true, "\(put)")
        var title = body.first.map { String($0.dropFirst("title: ".count)) } ?? ""
        if title.count == 3, let quote = title.first, quote == "\"" || quote == "'", title.last == quote {
            title = String(title.dropFirst().dropLast())
        }
        #expect(title.count == 1, "\(put)")
        #expect(update.contains("capture:\n          created_id:\n            jsonpath: $.id"), "\(update)")
        // A reproduce line per step, in order.
        let reproduce = update.split(separator: "\n").filter { $0.hasPrefix("# reproduce: curl ") }
        #expect(reproduce.count == 2, "\(update)")
        #expect(reproduce.first?.contains("# step 1: create (sequence 1)") == true, "\(update)")
        #expect(reproduce.last?.contains("-X PUT") == true, "\(update)")

        // The use after delete: the creation, the deletion and the read, the read after create and the update left
        // out (they are not needed to read a deleted note).
        let read = try #require(Self.file(fuzzed, "use_after_free-getnote"), "\(fuzzed.files.keys)")
        #expect(Self.steps(read) == 3, "\(read)")
        #expect(read.contains("# shrunk from 5 steps to 3: left out "), "\(read)")
        #expect(!read.contains("method: PUT"), "\(read)")
        // The server never takes a title twice: each re-run created with another valid body of the same members.
        for text in [update, read] {
            #expect(text.contains(": another valid body of the same members, as the server refused the run"), "\(text)")
        }
    }

    @Test func theWrittenFindingsFailApitestRunUntilTheAPIIsFixed() async throws {
        let fuzzed = try await fuzz(seed: 1)
        #expect(fuzzed.files.count == 2, "\(fuzzed.result.stdout)")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for fixed in [false, true] {
            // A new server: the ids the run saw are not there, so the suite must make its own resource.
            let server = try NotesServer(fixed ? ["--fixed"] : [])
            defer { server.stop() }
            for (name, text) in fuzzed.files.sorted(by: { $0.key < $1.key }) {
                let file = folder.appendingPathComponent(name)
                try text.replacingOccurrences(of: "baseURL: \(fuzzed.baseURL)/", with: "baseURL: \(server.baseURL)/")
                    .write(to: file, atomically: true, encoding: .utf8)
                let run = try await runProcess(
                    try TestBinaries.url("apitest"), ["run", file.path, "--no-color"], currentDirectory: folder,
                    timeout: .seconds(600))
                let output = run.stdout + run.stderr
                if fixed {
                    #expect(run.exitCode == 0, "\(name) fails on the fixed API:\n\(text)\n\(output)")
                } else {
                    #expect(run.exitCode == 1, "\(name) passes:\n\(text)\n\(output)")
                    // The same way: at the failing step, with the failure found.
                    let expected = name.contains("use_after_free") ? "expected status 404 or 410, got 200" : "got 500"
                    #expect(output.contains(expected), "\(name):\n\(text)\n\(output)")
                }
            }
        }
    }

    @Test func theSameSeedWritesTheSameShrunkFindings() async throws {
        let first = try await fuzz(seed: 2)
        let second = try await fuzz(seed: 2)
        #expect(first.result.exitCode == 1, "\(first.result.stdout)")
        #expect(!first.files.isEmpty)
        func normalized(_ fuzzed: Fuzzed) -> [String: String] {
            fuzzed.files.mapValues { $0.replacingOccurrences(of: fuzzed.baseURL, with: "http://server") }
        }
        #expect(normalized(first) == normalized(second))
        #expect(first.requestLines.count == second.requestLines.count)
    }

    @Test func shrinkingKeepsToItsBudgetOfRequests() async throws {
        // Titles of 2,000 characters or more: halving the update's to one character would take some 46 requests (each
        // try sends the creation and the update), more than the budget of 40 allows.
        let document = Self.document.replacingOccurrences(
            of: "title: {type: string, minLength: 1, maxLength: 8}",
            with: "title: {type: string, minLength: 2000, maxLength: 4000}")
        let fuzzed = try await fuzz(seed: 1, checks: "not_a_server_error", document: document)
        let output = fuzzed.result.stdout + fuzzed.result.stderr
        #expect(fuzzed.result.exitCode == 1, "\(output)")
        #expect(fuzzed.files.count == 1, "\(output)")
        let sent = try #require(Self.sent(fuzzed.result.stdout), "\(output)")
        let shrinking = fuzzed.requestLines.count - sent
        #expect(shrinking <= 40, "\(shrinking) requests of shrinking")
        // It used the budget (a try is only started when all its requests fit, at most three: the creation, another
        // when the server refuses it, the update), and stopped short of one character.
        #expect(shrinking >= 37, "\(shrinking) requests of shrinking")
        let update = try #require(fuzzed.files.values.first)
        let title = Self.request("PUT", in: update).first { $0.hasPrefix("title: ") } ?? ""
        #expect(title.count > "title: ".count + 1, "\(update)")
    }

    @Test func theDemoPetstoresStatefulFaultsAreShrunkAndTheirSuitesFailUntilFixed() async throws {
        // The seeded petstore keeps a deleted pet's name: a re-run of the run's creation is a 409, so the re-runs
        // create with another valid body of the same members.
        let demo = try await DemoServer.start(extraArguments: ["--seeded-faults"])
        defer { demo.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "fuzz", FuzzCLITests.faultsDocument, "--base-url", demo.baseURL + "/petstore", "--seed", "1",
                "--max-examples", "30", "-H", FuzzCLITests.key, "--phases", "stateful", "--checks",
                "use_after_free,ensure_resource_availability", "--findings", "found", "--no-color",
            ], currentDirectory: folder, timeout: .seconds(600))
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let found = folder.appendingPathComponent("found")
        let names = try FileManager.default.contentsOfDirectory(atPath: found.path).sorted()
        #expect(names.count == 2, "\(names)\n\(result.stdout)")
        var texts: [String: String] = [:]
        for name in names {
            let text = try String(contentsOf: found.appendingPathComponent(name), encoding: .utf8)
            texts[name] = text
            #expect(!text.contains("did not reproduce"), "\(name):\n\(text)")
            #expect(!text.contains("petstore-key"), "\(name):\n\(text)")
            #expect(text.contains("capture:\n          created_id:"), "\(name):\n\(text)")
        }
        let afterDelete = try #require(texts.first { $0.key.contains("use_after_free") }?.value)
        #expect(Self.steps(afterDelete) == 3, "\(afterDelete)")
        #expect(afterDelete.contains("method: DELETE"), "\(afterDelete)")
        for seeded in [true, false] {
            let server = try await DemoServer.start(extraArguments: seeded ? ["--seeded-faults"] : [])
            defer { server.stop() }
            for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
                let file = folder.appendingPathComponent(name)
                try text.replacingOccurrences(of: demo.baseURL, with: server.baseURL)
                    .write(to: file, atomically: true, encoding: .utf8)
                let run = try await runProcess(
                    try TestBinaries.url("apitest"), ["run", file.path, "--no-color"],
                    environment: ["X_API_KEY": "petstore-key"], currentDirectory: folder, timeout: .seconds(600))
                #expect(
                    run.exitCode == (seeded ? 1 : 0),
                    "\(name) on the \(seeded ? "seeded" : "clean") demo:\n\(text)\n\(run.stdout)\(run.stderr)")
            }
        }
    }

    @Test func theBooksServicesStatefulFaultsAreShrunkAndTheirSuitesFailUntilFixed() async throws {
        // Fixtures/stateful_books.py: books stores a book only with an isbn, still finds a deleted one and deletes
        // without the key; papers, the same API without the faults, is the fixed one.
        let server = try FaultServer(script: "stateful_books.py")
        defer { server.stop() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("books.yaml")
        try FuzzStatefulBooksTests.document.write(to: spec, atomically: true, encoding: .utf8)
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "fuzz", spec.path, "--base-url", server.baseURL, "--seed", "1", "-H", "X-API-Key: books-key",
                "--phases", "stateful", "--checks", "use_after_free,ensure_resource_availability,ignored_auth",
                "--findings", "found", "--no-color",
            ], currentDirectory: folder, timeout: .seconds(600))
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let found = folder.appendingPathComponent("found")
        let names = try FileManager.default.contentsOfDirectory(atPath: found.path).sorted()
        #expect(names.count == 3, "\(names)\n\(result.stdout)")
        let fresh = try FaultServer(script: "stateful_books.py")
        defer { fresh.stop() }
        for name in names {
            let text = try String(contentsOf: found.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("did not reproduce"), "\(name):\n\(text)")
            #expect(!text.contains("books-key"), "\(name):\n\(text)")
            for fixed in [false, true] {
                // The same suite on a new server, and on its clean collection.
                var suite = text.replacingOccurrences(of: server.baseURL, with: fresh.baseURL)
                if fixed { suite = suite.replacingOccurrences(of: "url: books", with: "url: papers") }
                suite = suite.replacingOccurrences(
                    of: "url: \"books/", with: fixed ? "url: \"papers/" : "url: \"books/")
                let file = folder.appendingPathComponent((fixed ? "fixed-" : "") + name)
                try suite.write(to: file, atomically: true, encoding: .utf8)
                let run = try await runProcess(
                    try TestBinaries.url("apitest"), ["run", file.path, "--no-color"],
                    environment: ["X_API_KEY": "books-key"], currentDirectory: folder, timeout: .seconds(600))
                #expect(
                    run.exitCode == (fixed ? 0 : 1),
                    "\(name) on \(fixed ? "papers" : "books"):\n\(suite)\n\(run.stdout)\(run.stderr)")
            }
        }
    }

    @Test func aFindingThatDoesNotFailAgainIsWrittenAsFoundWithANote() async throws {
        let fuzzed = try await fuzz(seed: 1, checks: "not_a_server_error", options: ["--flaky"])
        let output = fuzzed.result.stdout + fuzzed.result.stderr
        #expect(fuzzed.result.exitCode == 1, "\(output)")
        let update = try #require(Self.file(fuzzed, "not_a_server_error-updatenote"), "\(output)")
        #expect(update.contains("# did not reproduce: the sequence, re-run ("), "\(update)")
        // The console summary says so too.
        #expect(fuzzed.result.stdout.contains(", did not reproduce when re-run ("), "\(output)")
        // As found: the creation, the read and the update with its whole body.
        #expect(Self.steps(update) == 3, "\(update)")
        #expect(!update.contains("shrunk from"), "\(update)")
        #expect(update.split(separator: "\n").filter { $0.hasPrefix("# reproduce: curl ") }.count == 3, "\(update)")
    }
}

/// Fixtures/stateful_notes.py on a port of its own, with `options` (`--fixed`, `--flaky`); its standard error kept
/// for the failure message.
final class NotesServer: @unchecked Sendable {
    let port: Int
    let logFile: URL
    private let process: Process

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(_ options: [String]) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).log")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", FaultServer.scriptURL("stateful_notes.py").path, "--port", "0", "--log", logFile.path]
            + options
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        var buffer = Data()
        let handle = pipe.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self)
        guard line.hasPrefix("stateful-notes listening on "), let last = line.split(separator: " ").last,
            let port = Int(last.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            stopProcess(process)
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw CocoaError(
                .fileReadCorruptFile,
                userInfo: [NSLocalizedDescriptionKey: "stateful_notes.py said: \(line)\nstderr: \(stderr)"])
        }
        self.port = port
    }

    /// The request lines the server has received so far.
    var requestLines: [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        stopProcess(process)
        try? FileManager.default.removeItem(at: logFile)
    }

    deinit { stop() }
}
