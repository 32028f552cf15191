import Foundation
import Testing

/// `apitest fuzz` end to end against the demo: each check finds its seeded fault (`--seeded-faults`, the petstore of
/// examples/.openapi/petstore-faults.yaml), the clean demo passes, `--seed` makes the same requests, a written finding
/// fails `apitest run` the same way, and bad input is a clear error (exit 2).
@Suite struct FuzzCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let faultsDocument = repository.appendingPathComponent("examples/.openapi/petstore-faults.yaml").path
    static let demoDocument = repository.appendingPathComponent("examples/.openapi/openapi.yaml").path
    static let key = "X-API-Key: petstore-key"

    /// A new empty folder, removed by the caller.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `apitest fuzz` with `arguments`, in `folder`.
    func fuzz(_ arguments: [String], in folder: URL) async throws -> ProcessResult {
        try await runProcess(
            try TestBinaries.url("apitest"), ["fuzz"] + arguments, currentDirectory: folder, timeout: .seconds(120))
    }

    /// The names of the checks the summary says failed.
    static func failedChecks(_ output: String) -> Set<String> {
        Set(
            output.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.count >= 2, words[1] == "FAILED:" else { return nil }
                return String(words[0])
            })
    }

    // MARK: - Seeded faults

    @Test func everyCheckFindsItsSeededFaultAndTheFindingsFailApitestRun() async throws {
        let demo = try await DemoServer.start(extraArguments: ["--seeded-faults"])
        defer { demo.stop() }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await fuzz(
            [
                Self.faultsDocument, "--base-url", demo.baseURL + "/petstore", "--seed", "1", "--max-examples", "30",
                "-H", Self.key, "--findings", "found", "--report-junit", "fuzz.xml", "--report-json", "fuzz.json",
            ], in: folder)
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let all: Set<String> = [
            "not_a_server_error", "status_code_conformance", "content_type_conformance",
            "response_schema_conformance", "response_headers_conformance", "negative_data_rejection",
            "positive_data_acceptance", "use_after_free", "ensure_resource_availability", "unsupported_method",
            "ignored_auth",
        ]
        #expect(Self.failedChecks(result.stdout) == all, "\(result.stdout)")
        // Each fault where it is seeded.
        for expected in [
            "not_a_server_error on findPets", "status_code_conformance on addPet",
            "content_type_conformance on find pet by id", "response_schema_conformance on findPets",
            "response_headers_conformance on findPets", "negative_data_rejection on addPet",
            "positive_data_acceptance on addPet", "use_after_free on find pet by id",
            "ensure_resource_availability on find pet by id", "unsupported_method on findPets",
            "ignored_auth on getStats",
        ] {
            #expect(result.stdout.contains(expected), "\(expected) missing:\n\(result.stdout)")
        }
        #expect(!result.stdout.contains("petstore-key"), "the key is shown:\n\(result.stdout)")

        // JUnit: one test case per operation and check.
        let junit = try String(contentsOf: folder.appendingPathComponent("fuzz.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 5 * all.count)
        let json = try String(contentsOf: folder.appendingPathComponent("fuzz.json"), encoding: .utf8)
        #expect(json.contains("findPets › not_a_server_error"))
        #expect(!json.contains("petstore-key"))

        // Every written finding fails `apitest run` until the API is fixed.
        let found = folder.appendingPathComponent("found")
        let files = try FileManager.default.contentsOfDirectory(atPath: found.path).filter { $0.hasSuffix(".yaml") }
            .sorted()
        #expect(files.count >= all.count)
        for file in files {
            let text = try String(contentsOf: found.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("\n# reproduce: curl "), "\(file):\n\(text)")
            #expect(!text.contains("petstore-key"), "\(file):\n\(text)")
            let run = try await runProcess(
                try TestBinaries.url("apitest"), ["run", found.appendingPathComponent(file).path],
                environment: ["X_API_KEY": "petstore-key"], currentDirectory: folder)
            #expect(run.exitCode == 1, "\(file) did not fail:\n\(text)\n\(run.stdout)\(run.stderr)")
        }
    }

    @Test func theCleanDemoPasses() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for seed in ["1", "2"] {
            let result = try await fuzz(
                [
                    Self.faultsDocument, "--base-url", demo.baseURL + "/petstore", "--seed", seed, "--max-examples",
                    "30", "-H", Self.key,
                ], in: folder)
            #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("5/5 operations covered"))
            #expect(result.stdout.contains(", 0 findings in "))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fuzz-findings").path))
        }
    }

    @Test func theContractFaultRoutesAreFound() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await fuzz(
            [
                // --timeout: /delay/{ms} is asked for its longest delay.
                Self.demoDocument, "--base-url", demo.baseURL, "--seed", "4", "--max-examples", "5", "--phases",
                "examples,coverage", "--timeout", "1s", "--checks",
                "status_code_conformance,content_type_conformance,response_schema_conformance,"
                    + "response_headers_conformance,not_a_server_error",
            ], in: folder)
        #expect(result.exitCode == 1)
        for expected in [
            "response_schema_conformance on faultGetPet", "status_code_conformance on faultTeapot",
            "content_type_conformance on faultWrongType", "response_headers_conformance on faultMissingHeader",
            "response_headers_conformance on faultBadHeader", "not_a_server_error on faultCrash",
        ] {
            #expect(result.stdout.contains(expected), "\(expected) missing:\n\(result.stdout)")
        }
        #expect(!result.stdout.contains("on getHealth"))
    }

    // MARK: - Seeds

    @Test func theSameSeedSendsTheSameRequests() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func listing(_ seed: String) async throws -> String {
            let result = try await fuzz(
                [Self.faultsDocument, "--base-url", "http://127.0.0.1:9/petstore", "--seed", seed, "--dry-run"],
                in: folder)
            #expect(result.exitCode == 0, "\(result.stderr)")
            return result.stdout
        }
        let first = try await listing("7")
        #expect(first.split(separator: "\n").count > 100)
        #expect(try await listing("7") == first)
        #expect(try await listing("8") != first)
        #expect(first.contains("coverage POST /pets"))
        #expect(first.contains("fuzzing GET /pets"))
    }

    // MARK: - Bad input

    @Test func aDocumentThatIsNotStrictlyValidLoadsWithWarningsUnlessStrictSpec() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lenient = folder.appendingPathComponent("lenient.yaml")
        try """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              parameters:
                - {name: n, in: query, schema: {type: integer, minimum: 0, exclusiveMinimum: true}}
              responses: {"200": {description: ok}}
        """.write(to: lenient, atomically: true, encoding: .utf8)
        let loaded = try await fuzz([lenient.path, "--base-url", "http://127.0.0.1:9", "--dry-run"], in: folder)
        #expect(loaded.exitCode == 0, "\(loaded.stderr)")
        #expect(loaded.stderr.contains("lenient.yaml:7:"), "\(loaded.stderr)")
        #expect(loaded.stdout.contains("coverage GET /a?n="))
        let strict = try await fuzz(
            [lenient.path, "--base-url", "http://127.0.0.1:9", "--dry-run", "--strict-spec"], in: folder)
        #expect(strict.exitCode == 2, "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stderr.contains("nothing was sent"))
    }

    @Test func badInputIsAClearError() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknownCheck = try await fuzz(
            [Self.faultsDocument, "--checks", "not_a_server_eror", "--base-url", "http://127.0.0.1:9"], in: folder)
        #expect(unknownCheck.exitCode == 2)
        #expect(unknownCheck.stderr.contains("did you mean 'not_a_server_error'?"), "\(unknownCheck.stderr)")
        let unknownPhase = try await fuzz([Self.faultsDocument, "--phases", "fuzing"], in: folder)
        #expect(unknownPhase.exitCode == 2)
        #expect(unknownPhase.stderr.contains("did you mean 'fuzzing'?"), "\(unknownPhase.stderr)")

        let relative = folder.appendingPathComponent("relative.yaml")
        try """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        servers: [{url: /v1}]
        paths:
          /a: {get: {responses: {"200": {description: ok}}}}
        """.write(to: relative, atomically: true, encoding: .utf8)
        let noBase = try await fuzz([relative.path], in: folder)
        #expect(noBase.exitCode == 2)
        #expect(noBase.stderr.contains("--base-url"), "\(noBase.stderr)")

        // Nothing listens on port 9: no response at all is an error, not a pass.
        let unreachable = try await fuzz(
            [Self.faultsDocument, "--base-url", "http://127.0.0.1:9/petstore", "--max-examples", "1"], in: folder)
        #expect(unreachable.exitCode == 3, "\(unreachable.stdout)\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("got a response"), "\(unreachable.stderr)")

        let broken = folder.appendingPathComponent("broken.yaml")
        try """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /a: {get: {responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/nowhere"}}}}}}}
        """.write(to: broken, atomically: true, encoding: .utf8)
        let notLoaded = try await fuzz([broken.path, "--base-url", "http://127.0.0.1:9"], in: folder)
        #expect(notLoaded.exitCode == 2)
        #expect(notLoaded.stderr.contains("broken.yaml:4:"), "\(notLoaded.stderr)")
        #expect(notLoaded.stderr.contains("nothing was sent"))
    }
}
