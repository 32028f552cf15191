import Foundation
import Testing

/// `apitest merge`: a suite set run whole and as 5 shards; the merged reports of the shards say what the single
/// run's say (timings, run ids, dates and hosts aside), in every format; reports that do not belong together are
/// refused.
@Suite(.serialized) struct MergeTests {
    static func suites(in folder: URL, demo: DemoServer) throws {
        let suites = folder.appendingPathComponent("suites")
        try FileManager.default.createDirectory(at: suites, withIntermediateDirectories: true)
        for (file, name) in [("a-users.yaml", "users"), ("b-items.yaml", "items")] {
            var tests = ""
            for number in 1...6 {
                let failing = number == 4 && name == "items"
                tests += """
                      - name: \(name) check \(number)
                        request: {url: health}
                        expect: {status: \(failing ? 201 : 200)}

                    """
            }
            try """
            name: \(name)
            baseURL: \(demo.baseURL)/
            setup:
              - request: {url: health}
            teardown:
              - request: {url: health}
            tests:
            \(tests)
            """.write(to: suites.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
    }

    static func reportArguments(_ prefix: URL) -> [String] {
        [
            "--report-junit", prefix.path + ".xml", "--report-tap", prefix.path + ".tap", "--tap-version", "14",
            "--report-json", prefix.path + ".json", "--report-html", prefix.path + ".html",
        ]
    }

    /// The parts of each format that do not depend on timing, ids, dates or hosts.
    static func projection(_ prefix: URL) throws -> [String: String] {
        func read(_ suffix: String) throws -> String {
            try String(contentsOfFile: prefix.path + suffix, encoding: .utf8)
        }
        func matches(_ pattern: String, in text: String) -> String {
            let regex = try! NSRegularExpression(pattern: pattern)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range, in: text)!])
            }.joined(separator: "\n")
        }
        let junit = try read(".xml")
        let tap = try read(".tap")
        let html = try read(".html")
        let json = try JSONSerialization.jsonObject(with: Data(try read(".json").utf8)) as? [String: Any] ?? [:]
        var jsonLines: [String] = ["\((json["summary"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key })"]
        for suite in json["suites"] as? [[String: Any]] ?? [] {
            let counts = (suite["summary"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map {
                "\($0.key)=\($0.value)"
            }
            jsonLines.append("suite \(suite["name"] ?? "") \(suite["file"] ?? "") \(counts)")
            for test in suite["tests"] as? [[String: Any]] ?? [] {
                let steps = test["steps"] as? [[String: Any]] ?? []
                let failures = steps.flatMap {
                    ($0["failures"] as? [[String: Any]] ?? []).map { "\($0["message"] ?? "")" }
                }
                jsonLines.append("  \(test["name"] ?? "") \(test["status"] ?? "") steps=\(steps.count) \(failures)")
            }
        }
        return [
            "junit": matches(
                #"<testsuite name="[^"]*"|tests="\d+"|failures="\d+"|errors="\d+"|skipped="\d+"|<testcase name="[^"]*"|<failure message="[^"]*"|<error |<skipped"#,
                in: junit),
            "tap": tap.split(separator: "\n").filter {
                let line = $0.trimmingCharacters(in: .whitespaces)
                return line.hasPrefix("ok ") || line.hasPrefix("not ok") || line.hasPrefix("1..")
                    || line.hasPrefix("# ") || line.hasPrefix("message:")
            }.map { String($0.split(separator: "#", maxSplits: 1).first ?? "") }.joined(separator: "\n"),
            "json": jsonLines.joined(separator: "\n"),
            "html": matches(
                #"data-status="[a-zA-Z]+"|<span class="(suite|name|badge)">[^<]*|\d+ tests in \d+ suites?"#, in: html),
        ]
    }

    @Test func fiveMergedShardsSayWhatOneRunSays() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.suites(in: folder, demo: demo)
        let suites = folder.appendingPathComponent("suites").path
        let single = folder.appendingPathComponent("single")
        let whole = try await runAPITest(["run", suites] + Self.reportArguments(single))
        #expect(whole.exitCode == 1, "\(whole.stdout)")

        var shardReports: [String] = []
        for shard in 1...5 {
            let report = folder.appendingPathComponent("shard-\(shard).json").path
            shardReports.append(report)
            let part = try await runAPITest(["run", suites, "--shard", "\(shard)/5", "--report-json", report])
            #expect(part.exitCode == 0 || part.exitCode == 1, "\(part.stderr)")
        }
        let merged = folder.appendingPathComponent("merged")
        let merge = try await runAPITest(["merge"] + shardReports.reversed() + Self.reportArguments(merged))
        #expect(merge.exitCode == 1, "\(merge.stdout)\(merge.stderr)") // a test failed
        #expect(merge.stdout.contains("merged 5 reports: 16 tests, 15 passed, 1 failed"), "\(merge.stdout)")
        let expected = try Self.projection(single)
        let actual = try Self.projection(merged)
        for format in ["junit", "tap", "json", "html"] {
            #expect(
                actual[format] == expected[format],
                "\(format):\n\(actual[format] ?? "")\n---\n\(expected[format] ?? "")")
            #expect((expected[format] ?? "").count > 100, "the \(format) projection is too thin to compare")
        }
        let document =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: merged.path + ".json"))) as? [String: Any]
        #expect((document?["merged"] as? [[String: Any]])?.count == 5)

        // The shards' reports and the merged one are valid for the published schema.
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schemas/report.schema.json")
        let validate = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            for path in sys.argv[2:]:
                jsonschema.validate(json.load(open(path)), schema, cls=jsonschema.Draft202012Validator)
            print("valid")
            """
        let checked = try await runProcess(
            try TestBinaries.tool("python3"),
            ["-c", validate, schema.path, merged.path + ".json", shardReports[0], single.path + ".json"])
        #expect(checked.stdout == "valid\n", "\(checked.stderr)")

        // What does not belong together is refused.
        let missing = try await runAPITest(
            ["merge"] + shardReports.dropLast() + ["--report-json", merged.path + "2.json"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("shard 5/5 missing"), "\(missing.stderr)")
        let allowed = try await runAPITest(
            ["merge", "--allow-missing"] + shardReports.dropLast() + ["--report-json", merged.path + "2.json"])
        #expect(allowed.exitCode == 0 || allowed.exitCode == 1, "\(allowed.stderr)")
        let twice = try await runAPITest(["merge", shardReports[0], shardReports[0]])
        #expect(twice.stderr.contains("are both shard 1/5"), "\(twice.stderr)")
        let other = folder.appendingPathComponent("other.json").path
        _ = try await runAPITest(["run", suites, "--filter", "users", "--shard", "1/5", "--report-json", other])
        let mixed = try await runAPITest(["merge", shardReports[1], other])
        #expect(mixed.stderr.contains("are reports of different suite sets or selections"), "\(mixed.stderr)")
        // Each shard's report holds the SHA-256 of every suite file's text; a shard that ran an edited suite file is
        // refused even though the selection (paths and test names) is the same.
        let shardDocument =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shardReports[0])))
            as? [String: Any]
        let run = shardDocument?["run"] as? [String: Any]
        let sha = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/sha256sum"), [suites + "/a-users.yaml", suites + "/b-items.yaml"])
        #expect(
            run?["suiteDigests"] as? [String] == sha.stdout.split(separator: "\n").map { String($0.prefix(64)) },
            "\(run ?? [:])")
        let itemsFile = URL(fileURLWithPath: suites + "/b-items.yaml")
        try (try String(contentsOf: itemsFile, encoding: .utf8) + "# edited\n").write(
            to: itemsFile, atomically: true, encoding: .utf8)
        let edited = folder.appendingPathComponent("edited.json").path
        _ = try await runAPITest(["run", suites, "--shard", "5/5", "--report-json", edited])
        let versions = try await runAPITest(["merge"] + shardReports.dropLast() + [edited])
        #expect(versions.exitCode == 2)
        #expect(
            versions.stderr.contains("ran different versions of the suite file 'b-items.yaml'"), "\(versions.stderr)")
        let notJSON = try await runAPITest(["merge", single.path + ".xml"])
        #expect(
            notJSON.stderr.contains("neither an apitest JSON report (--report-json) nor an OpenAPI coverage file"),
            "\(notJSON.stderr)")
    }

    /// The coverage files of three shards of the examples against the demo's OpenAPI document, merged (given in
    /// any order among the JSON reports), count what the single run's file counts; the merged HTML report shows the
    /// coverage table with the single run's totals.
    @Test func mergedCoverageFilesCountWhatOneRunCounts() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let spec = repository.appendingPathComponent("examples/.openapi/openapi.yaml").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ name: String, _ extra: [String]) async throws -> ProcessResult {
            try await runProcess(
                try TestBinaries.url("apitest"),
                [
                    "run", "examples", "--var", "port=\(demo.port)", "--openapi", spec, "--no-color",
                    "--report-openapi-coverage", folder.appendingPathComponent("\(name)-coverage.json").path,
                    "--report-json", folder.appendingPathComponent("\(name).json").path,
                    "--report-html", folder.appendingPathComponent("\(name).html").path,
                ] + extra, currentDirectory: repository, timeout: .seconds(120))
        }
        let whole = try await run("single", [])
        #expect(whole.exitCode == 0, "\(whole.stdout)\(whole.stderr)")
        var files: [String] = []
        for shard in 1...3 {
            let part = try await run("shard-\(shard)", ["--shard", "\(shard)/3"])
            #expect(part.exitCode == 0, "\(part.stdout)\(part.stderr)")
            files += [
                folder.appendingPathComponent("shard-\(shard)-coverage.json").path,
                folder.appendingPathComponent("shard-\(shard).json").path,
            ]
        }
        let mergedCoverage = folder.appendingPathComponent("merged-coverage.json").path
        let mergedHTML = folder.appendingPathComponent("merged.html").path
        let merge = try await runAPITest(
            ["merge"] + files.reversed() + ["--report-openapi-coverage", mergedCoverage, "--report-html", mergedHTML])
        #expect(merge.exitCode == 0, "\(merge.stdout)\(merge.stderr)")
        #expect(merge.stdout.contains("merged 3 reports: "), "\(merge.stdout)")
        #expect(merge.stdout.contains("merged 3 coverage files: "), "\(merge.stdout)")

        // Unmatched requests are listed in the order they were first seen, which concurrency decides: compared as sets.
        func normalized(_ path: String) throws -> NSDictionary {
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            var documents = object["documents"] as? [[String: Any]] ?? []
            for index in documents.indices {
                let unmatched = documents[index]["unmatched"] as? [[String: Any]] ?? []
                documents[index]["unmatched"] = unmatched.map {
                    "\($0["method"] ?? "") \($0["path"] ?? "") \($0["hits"] ?? "")"
                }
                .sorted()
            }
            object["documents"] = documents
            return object as NSDictionary
        }
        let single = try normalized(folder.appendingPathComponent("single-coverage.json").path)
        let merged = try normalized(mergedCoverage)
        #expect(merged == single, "merged:\n\(merged)\n---\nsingle:\n\(single)")
        let totals = try #require(single["totals"] as? [String: Int])
        #expect((totals["operationsHit"] ?? 0) >= 10, "\(totals)")
        // Each shard covered less than the whole run: the sum is not any one shard's file.
        let firstShard = try normalized(files[0])
        #expect((firstShard["totals"] as? [String: Int])?["operationsHit"] ?? 0 < totals["operationsHit"] ?? 0)

        let html = try String(contentsOfFile: mergedHTML, encoding: .utf8)
        let singleHTML = try String(
            contentsOf: folder.appendingPathComponent("single.html"), encoding: .utf8)
        #expect(html.contains("<h2>OpenAPI coverage: examples/.openapi/openapi.yaml</h2>"))
        let tableRows = #/<td>[A-Za-z]+</td>/#
        #expect(
            html.matches(of: tableRows).map { String($0.output) }
                == singleHTML.matches(of: tableRows).map {
                    String($0.output)
                })

        // Coverage of another version of the document is refused; coverage alone merges into coverage alone.
        var other = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[0]))) as? [String: Any])
        var documents = other["documents"] as? [[String: Any]] ?? []
        var operations = documents[0]["operations"] as? [Any] ?? []
        operations.removeLast()
        documents[0]["operations"] = operations
        other["documents"] = documents
        let otherPath = folder.appendingPathComponent("other-coverage.json").path
        try JSONSerialization.data(withJSONObject: other).write(to: URL(fileURLWithPath: otherPath))
        let refused = try await runAPITest(
            ["merge", files[2], otherPath, "--report-openapi-coverage", folder.appendingPathComponent("x.json").path])
        #expect(refused.exitCode == 2)
        #expect(
            refused.stderr.contains(
                "cover different versions of the OpenAPI document 'examples/.openapi/openapi.yaml'"),
            "\(refused.stderr)")
        let coverageOnly = try await runAPITest(
            ["merge", files[0], files[2], "--report-openapi-coverage", folder.appendingPathComponent("y.json").path])
        #expect(coverageOnly.exitCode == 0, "\(coverageOnly.stderr)")
        let noReports = try await runAPITest(
            ["merge", files[0], "--report-junit", folder.appendingPathComponent("z.xml").path])
        #expect(noReports.exitCode == 2)
        #expect(noReports.stderr.contains("no JSON report (--report-json) among the files"), "\(noReports.stderr)")
    }
}
