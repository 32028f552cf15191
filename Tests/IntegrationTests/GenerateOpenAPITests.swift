import Foundation
import Testing

/// `apitest generate openapi` end to end: petstore-expanded's suite runs green against the demo's petstore with
/// its contract checked, the demo's own document and the OpenAPI Initiative's examples generate suites that
/// validate (against the loader and the editor schema), existing files are kept unless `--force`, and a broken
/// document is reported at its place with nothing written.
@Suite struct GenerateOpenAPITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let petstore = repository.appendingPathComponent("examples/.openapi/petstore-expanded.yaml").path
    static let demoDocument = repository.appendingPathComponent("examples/.openapi/openapi.yaml").path
    static let oaiExamples = repository.appendingPathComponent("Tests/APITestOpenAPITests/Fixtures/oai-examples")

    /// A new empty folder, and the path of `suites` under it (not created).
    func outputFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("suites").path
    }

    /// The `.yaml` files of `folder`, sorted.
    func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder + "/" + $0 }
    }

    /// The environment variables the command said the suites need (`set A, B before ...`), each set to `x`.
    func credentials(in output: String) -> [String: String] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("the suites read credentials") }),
            let start = line.range(of: "set "), let end = line.range(of: " before")
        else { return [:] }
        let names = line[start.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return Dictionary(uniqueKeysWithValues: names.map { ($0, "x") })
    }

    /// Each file starts with the editor modeline, whose schema path leads from the file's folder to the schema.
    func expectModeline(_ files: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let first = String(text.prefix { $0 != "\n" })
            let prefix = "# yaml-language-server: $schema="
            #expect(first.hasPrefix(prefix), "\(file): \(first)", sourceLocation: sourceLocation)
            let schema = URL(
                fileURLWithPath: String(first.dropFirst(prefix.count)),
                relativeTo: URL(
                    fileURLWithPath: (file as NSString).deletingLastPathComponent, isDirectory: true)
            ).standardizedFileURL
            #expect(
                FileManager.default.fileExists(atPath: schema.path)
                    && schema.lastPathComponent == "apitest.schema.json",
                "\(file): \(schema.path)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Petstore against the demo

    @Test func petstoreSuiteRunsGreenAgainstTheDemoWithItsContract() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let output = try outputFolder()
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let generated = try await runAPITest(
            ["generate", "openapi", Self.petstore, "-o", output, "--base-url", demo.baseURL + "/petstore"])
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        #expect(
            generated.stdout == "wrote \(output)/default.yaml: 2 tests and 2 teardown steps\n"
                + "2 tests and 2 teardown steps in 1 file, 0 operations skipped\n")
        #expect(generated.stderr == "")
        try expectModeline(files(in: output))

        let validated = try await runAPITest(["validate", output])
        #expect(validated.exitCode == 0, "\(validated.stderr)")
        #expect(validated.stdout == "1 suite, 2 tests: valid\n")

        // The POST and the DELETE are teardown steps: the pets are read before they change, at any --jobs.
        let run = try await runAPITest(["run", output, "--jobs", "8"])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("3 tests: 3 passed"), "\(run.stdout)")
        #expect(run.stdout.contains("OpenAPI "))
        #expect(run.stdout.contains("4/4 operations"), "\(run.stdout)")
        #expect(
            !run.stdout.lowercased().contains("warning") && !run.stderr.lowercased().contains("warning"),
            "\(run.stdout)\(run.stderr)")
        let schemaCheck = try await SuiteSchemaTests.schemaVerdicts(files(in: output).map { URL(fileURLWithPath: $0) })
        #expect(
            Set(schemaCheck.verdicts.values) == ["valid"], "\(schemaCheck.output.stdout)\(schemaCheck.output.stderr)")
    }

    /// A generated suite gives the same verdict at any `--jobs`: its DELETE runs after every other test of the file
    /// (as a teardown step), so the GET of the pet it deletes never sees a 404. Each run has a fresh demo.
    @Test func generatedSuitesGiveTheSameVerdictAtAnyJobs() async throws {
        for jobs in [8, 8, 8, 8, 8, 8, 2, 1] {
            let demo = try await DemoServer.start()
            defer { demo.stop() }
            let output = try outputFolder()
            defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
            let generated = try await runAPITest(
                ["generate", "openapi", Self.petstore, "-o", output, "--base-url", demo.baseURL + "/petstore"])
            #expect(generated.exitCode == 0, "\(generated.stderr)")
            let text = try String(contentsOfFile: output + "/default.yaml", encoding: .utf8)
            #expect(
                text.hasSuffix(
                    "\nteardown:\n  - name: addPet\n    request:\n      method: POST\n      url: pets\n      json:\n        name: string\n    expect:\n      status: 200\n  - name: deletePet\n    request:\n      method: DELETE\n      url: pets/1\n    expect:\n      status: 204\n"
                ))
            let run = try await runAPITest(["run", output, "--jobs", String(jobs)])
            #expect(run.exitCode == 0, "--jobs \(jobs): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("4/4 operations"), "\(run.stdout)")
        }
    }

    // MARK: - Other documents

    @Test func theDemosOwnDocumentGeneratesSuitesThatValidate() async throws {
        let output = try outputFolder()
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let generated = try await runAPITest(["generate", "openapi", Self.demoDocument, "-o", output])
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("0 operations skipped"), "\(generated.stdout)")
        let written = files(in: output)
        #expect(written.count > 5)
        try expectModeline(written)
        let environment = credentials(in: generated.stdout)
        #expect(!environment.isEmpty, "the demo's auth routes need credentials: \(generated.stdout)")
        let validated = try await runAPITest(["validate", output], environment: environment)
        #expect(validated.exitCode == 0, "\(validated.stderr)")
        // Without the credentials, validate names the placeholders that need them.
        let unset = try await runAPITest(["validate", output])
        #expect(unset.exitCode == 2)
        for name in environment.keys { #expect(unset.stderr.contains("environment variable '\(name)' is not set")) }
        let schemaCheck = try await SuiteSchemaTests.schemaVerdicts(written.map { URL(fileURLWithPath: $0) })
        #expect(
            Set(schemaCheck.verdicts.values) == ["valid"], "\(schemaCheck.output.stdout)\(schemaCheck.output.stderr)")
    }

    @Test(arguments: [
        "v3.0/petstore", "v3.0/petstore-expanded", "v3.0/api-with-examples", "v3.0/callback-example",
        "v3.0/link-example", "v3.0/uspto", "v3.1/non-oauth-scopes", "v3.1/webhook-example",
    ])
    func theOAIExamplesGenerateSuitesThatValidate(_ name: String) async throws {
        for format in ["yaml", "json"] {
            let document = Self.oaiExamples.appendingPathComponent("\(name).\(format)").path
            let output = try outputFolder()
            defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
            for grouping in ["tag", "path"] {
                let generated = try await runAPITest(
                    ["generate", "openapi", document, "-o", output, "--group-by", grouping, "--force"])
                #expect(generated.exitCode == 0, "\(name).\(format): \(generated.stderr)")
                let written = files(in: output)
                if name == "v3.1/webhook-example" {
                    // Webhooks are requests the API sends: nothing to call.
                    #expect(generated.stdout == "no suite written: the document declares no operation under paths\n")
                    #expect(written.isEmpty)
                    continue
                }
                #expect(!written.isEmpty)
                try expectModeline(written)
                let validated = try await runAPITest(
                    ["validate", output], environment: credentials(in: generated.stdout))
                #expect(validated.exitCode == 0, "\(name).\(format) by \(grouping): \(validated.stderr)")
                for file in written { try FileManager.default.removeItem(atPath: file) }
            }
        }
    }

    // MARK: - Overwriting and errors

    @Test func existingFilesAreKeptUnlessForced() async throws {
        let output = try outputFolder()
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let mine = output + "/default.yaml"
        try "# mine\n".write(toFile: mine, atomically: true, encoding: .utf8)

        let refused = try await runAPITest(["generate", "openapi", Self.petstore, "-o", output])
        #expect(refused.exitCode == 2)
        #expect(refused.stderr == "error: \(mine) already exists; nothing was written (--force overwrites)\n")
        #expect(refused.stdout == "")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "# mine\n")

        // Another grouping writes another file: nothing to refuse.
        let byPath = try await runAPITest(["generate", "openapi", Self.petstore, "-o", output, "--group-by", "path"])
        #expect(byPath.exitCode == 0, "\(byPath.stderr)")
        #expect(files(in: output) == [mine, output + "/pets.yaml"])

        let forced = try await runAPITest(["generate", "openapi", Self.petstore, "-o", output, "--force"])
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8).contains("- name: findPets"))
    }

    @Test func aBrokenDocumentIsReportedAtItsPlaceAndNothingIsWritten() async throws {
        let output = try outputFolder()
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let folder = (output as NSString).deletingLastPathComponent
        let document = folder + "/broken.yaml"
        try """
        openapi: 3.0.3
        info: {title: Broken, version: "1"}
        paths:
          /pets/{id}:
            get:
              parameters: [{name: id, in: path, schema: {type: integer}}]
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Pet"}
        """.write(toFile: document, atomically: true, encoding: .utf8)
        let result = try await runAPITest(["generate", "openapi", document, "-o", output])
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("\(document):6:"), "\(result.stderr)")
        #expect(result.stderr.contains("\(document):12:"), "\(result.stderr)")
        #expect(result.stderr.contains("#/components/schemas/Pet"))
        #expect(result.stderr.hasSuffix("2 errors in \(document); nothing was generated.\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let notOpenAPI = folder + "/swagger.json"
        try #"{"swagger": "2.0", "info": {"title": "old", "version": "1"}, "paths": {}}"#.write(
            toFile: notOpenAPI, atomically: true, encoding: .utf8)
        let swagger = try await runAPITest(["generate", "openapi", notOpenAPI, "-o", output])
        #expect(swagger.exitCode == 2)
        #expect(swagger.stderr.contains("Swagger 2.0"))

        let missing = try await runAPITest(["generate", "openapi", folder + "/nothing.yaml", "-o", output])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("spec '\(folder)/nothing.yaml' does not exist"))
    }

    @Test func helpFitsEightyColumns() async throws {
        let result = try await runAPITest(["generate", "openapi", "--help"], environment: ["COLUMNS": "80"])
        #expect(result.exitCode == 0)
        for line in result.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        #expect(result.stdout.contains("--base-url <url>"))
    }
}
