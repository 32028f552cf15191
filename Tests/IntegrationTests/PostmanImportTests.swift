import Foundation
import Testing

/// `apitest import postman` end to end: real collections imported, validated and run against the demo API, with
/// verdicts that match their scripts' intent: a script that passes against the demo passes in apitest, one that
/// fails against it (as it would in Newman) fails too.
@Suite struct PostmanImportTests {
    /// `Tests/APITestImportTests/Fixtures`: Newman's collections (Apache-2.0, see `newman/NOTICE`) and apitest's own.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("APITestImportTests/Fixtures")

    /// A new folder holding copies of `files` (relative to ``fixtures``), each with `replacements` applied.
    func folder(_ files: [String], replacements: [String: String] = [:]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-postman-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("suites"), withIntermediateDirectories: true)
        for file in files {
            var text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
            for (old, new) in replacements { text = text.replacingOccurrences(of: old, with: new) }
            try text.write(
                to: folder.appendingPathComponent((file as NSString).lastPathComponent), atomically: true,
                encoding: .utf8)
        }
        return folder
    }

    /// Imports `arguments` (after `apitest import postman`) into `suites/suite.yaml`, validates and runs it with
    /// `--jobs 1` and `run` (more arguments), and returns each test's status by name and the import's stderr.
    func importAndRun(
        _ arguments: [String], in folder: URL, run: [String] = [], environment: [String: String] = [:]
    ) async throws -> (statuses: [String: String], importErrors: String, suite: String) {
        let apitest = try TestBinaries.url("apitest")
        var env = environment
        env["NO_COLOR"] = "1"
        let imported = try await runProcess(
            apitest, ["import", "postman"] + arguments + ["-o", "suites/suite.yaml"], environment: env,
            currentDirectory: folder)
        try #require(imported.exitCode == 0, "import failed: \(imported.stderr)")
        let suite = try String(contentsOf: folder.appendingPathComponent("suites/suite.yaml"), encoding: .utf8)
        let validate = try await runProcess(
            apitest, ["validate", "suites/suite.yaml"], environment: env, currentDirectory: folder)
        try #require(validate.exitCode == 0, "validate failed: \(validate.stdout)\(validate.stderr)\n\(suite)")
        let report = folder.appendingPathComponent("report.json")
        let result = try await runProcess(
            apitest, ["run", "suites/suite.yaml", "--jobs", "1", "--report-json", report.path] + run, environment: env,
            currentDirectory: folder)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let suites = try #require(document?["suites"] as? [[String: Any]], "\(result.stdout)\n\(result.stderr)")
        var statuses: [String: String] = [:]
        for test in suites.flatMap({ $0["tests"] as? [[String: Any]] ?? [] }) {
            statuses[test["name"] as? String ?? "?"] = test["status"] as? String
        }
        return (statuses, imported.stderr, suite)
    }

    @Test func theDemoCollectionRunsWithTheVerdictsOfItsScripts() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = try folder([
            "postman/apitest-demo.postman_collection.json", "postman/apitest-demo.postman_environment.json",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let (statuses, notes, suite) = try await importAndRun(
            ["apitest-demo.postman_collection.json", "-e", "apitest-demo.postman_environment.json"], in: folder,
            run: ["--var", "baseUrl=\(demo.baseURL)"],
            environment: ["API_TOKEN": "t0ken", "ANN_PASSWORD": "s3cret", "DIGEST_PASSWORD": "x"])
        #expect(statuses.count == 15, "\(statuses)")
        for (name, status) in statuses {
            #expect(status == (name.hasSuffix("(should fail)") ? "failed" : "passed"), "\(name): \(status)\n\(suite)")
        }
        // Untranslated lines are listed as `collection path › request: line N: <text>` and kept in the suite.
        let line = "apitest demo › Users › List users: line 15: console.log(jsonData.count);"
        #expect(notes.contains("note: \(line)"))
        #expect(suite.contains("# \(line)"))
        #expect(notes.contains("note: apitest demo › Auth › Hawk: auth 'hawk' is not translated"))
        #expect(suite.contains("auth:\n        digest:\n          user: ann\n"))
        // Secret environment values are not written into the suite.
        #expect(!suite.contains("t0ken\n") || !suite.contains("apiToken: t0ken"))
        #expect(suite.contains("apiToken: \"{{ env.API_TOKEN }}\""))
        #expect(notes.contains("API_TOKEN"))
    }

    @Test func newmansCollectionsRunWithTheVerdictsNewmanGivesAgainstTheDemo() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        // The collections call postman-echo.com; the demo's /echo answers the same requests (its `args` values are
        // lists, so scripts that read them as strings fail, in Newman as in apitest).
        let echo = ["https://postman-echo.com": "\(demo.baseURL)/echo"]

        let sample = try folder(["newman/sample-collection.json"], replacements: echo)
        defer { try? FileManager.default.removeItem(at: sample) }
        let (sampleStatuses, _, _) = try await importAndRun(["sample-collection.json"], in: sample)
        #expect(
            sampleStatuses == [
                // `args.source` is ["newman-sample-github-collection"] at the demo: `.equal(...)` fails.
                "A simple GET request": "failed",
                "A simple POST request": "passed",
                "A simple POST request with JSON body": "passed",
            ])

        let chaining = try folder(["newman/request-chaining-test.postman_collection.json"], replacements: echo)
        defer { try? FileManager.default.removeItem(at: chaining) }
        let (chainingStatuses, chainingNotes, _) = try await importAndRun(
            ["request-chaining-test.postman_collection.json"], in: chaining)
        #expect(
            chainingStatuses == [
                // Its status check holds; the lines reading environment variables are notes.
                "Preliminary request": "passed",
                // `args.val === "alpha"`: a list at the demo, and FOO is set by a script line apitest notes.
                "Secondary request": "failed",
            ])
        #expect(
            chainingNotes.contains(
                "note: newman-github-929 › Preliminary request: line 5: postman.setEnvironmentVariable(\"FOO\", \"alpha\");"
            ))

        let files = [
            "newman/globals-env-data-files.postman_collection.json",
            "newman/globals-env-data-files.postman_environment.json",
            "newman/globals-env-data-files.postman_globals.json",
        ]
        let scopes = try folder(files)
        defer { try? FileManager.default.removeItem(at: scopes) }
        let (scopeStatuses, _, scopeSuite) = try await importAndRun(
            [
                "globals-env-data-files.postman_collection.json", "-e",
                "globals-env-data-files.postman_environment.json", "-g", "globals-env-data-files.postman_globals.json",
            ], in: scopes, run: ["--var", "url=\(demo.baseURL)/echo"])
        #expect(scopeStatuses == ["GET": "failed", "GET copy": "passed"])
        // Environment beats globals: `env` and `data` are in both.
        #expect(scopeSuite.contains("  global: global1\n  env: env2\n  data: env2\n"))
    }

    @Test func aMalformedCollectionIsAnErrorAtItsPlaceAndNothingIsWritten() async throws {
        let folder = try folder([])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            "{\"info\": {\"name\": \"c\"}, \"item\": [{\"name\": \"r\", \"request\": {\"url\": \"u\", \"header\": 7}}]}"
                .utf8
        )
        .write(to: folder.appendingPathComponent("c.json"))
        try Data("{\"item\": [".utf8).write(to: folder.appendingPathComponent("broken.json"))
        let apitest = try TestBinaries.url("apitest")
        let structural = try await runProcess(
            apitest, ["import", "postman", "c.json", "-o", "c.yaml"], environment: ["NO_COLOR": "1"],
            currentDirectory: folder)
        #expect(structural.exitCode == 2)
        #expect(structural.stderr.contains("error: c.json: item[0].request.header: expected a list, found a number"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.yaml").path))
        let syntax = try await runProcess(
            apitest, ["import", "postman", "broken.json"], environment: ["NO_COLOR": "1"], currentDirectory: folder)
        #expect(syntax.exitCode == 2)
        #expect(
            syntax.stderr.contains("error: broken.json: line 1, column 11, at /item/0: not valid JSON"),
            "\(syntax.stderr)")
        let missing = try await runProcess(
            apitest, ["import", "postman", "c.json", "-e", "nope.json"], environment: ["NO_COLOR": "1"],
            currentDirectory: folder)
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("nope.json"))
    }
}
