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
        let notJSON = try await runAPITest(["merge", single.path + ".xml"])
        #expect(notJSON.stderr.contains("not an apitest JSON report"), "\(notJSON.stderr)")
    }
}
