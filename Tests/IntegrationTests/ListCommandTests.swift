import Foundation
import Testing

/// `apitest list` prints exactly the tests `apitest run` executes under the same selection flags.
@Suite struct ListCommandTests {
    /// A folder of three suites of uneven sizes (1, 5 and 3 tests) against `baseURL`, some tagged, one skipped.
    static func makeSuites(baseURL: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("nested"), withIntermediateDirectories: true)
        let files: [(String, String)] = [
            (
                "alpha.yaml",
                """
                name: Alpha
                baseURL: \(baseURL)
                tests:
                  - {name: health, tags: [smoke], request: {url: /health}}
                """
            ),
            (
                "nested/users.yaml",
                """
                name: Users
                baseURL: \(baseURL)
                tests:
                  - {name: list users, tags: [smoke, users], request: {url: /health}}
                  - {name: read a user, tags: [users], request: {url: /status/200}}
                  - {name: broken, tags: [users, wip], request: {url: /status/500}}
                  - {name: not deployed, tags: [smoke], skip: not yet, request: {url: /status/500}}
                  - name: two steps
                    steps:
                      - request: {url: /health}
                      - request: {url: /status/204}
                        expect: {status: 204}
                """
            ),
            (
                "zeta.yml",
                """
                name: Zeta
                baseURL: \(baseURL)
                tests:
                  - {name: one, request: {url: /health}}
                  - {name: two, tags: [smoke], request: {url: /health}}
                  - {name: three, request: {url: /status/418}}
                """
            ),
        ]
        for (path, text) in files {
            try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        return root
    }

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: environment)
    }

    /// `suite › test` of every test `list --format json` prints, in order.
    func listed(_ paths: [String], _ flags: [String]) async throws -> [String] {
        let result = try await apitest(["list"] + paths + flags + ["--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tests = try #require(document["tests"] as? [[String: Any]])
        #expect(document["selected"] as? Int == tests.count)
        return tests.map { "\($0["suite"] as? String ?? "?") › \($0["name"] as? String ?? "?")" }
    }

    /// `suite › test` of every test `run` reported in its JSON report, in report order.
    func ran(_ paths: [String], _ flags: [String]) async throws -> [String] {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("list-run-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let result = try await apitest(["run"] + paths + flags + ["--report-json", report.path])
        #expect([0, 1].contains(result.exitCode), "\(result.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let suites = try #require(document["suites"] as? [[String: Any]])
        return suites.flatMap { suite in
            ((suite["tests"] as? [[String: Any]]) ?? []).map {
                "\(suite["name"] as? String ?? "?") › \($0["name"] as? String ?? "?")"
            }
        }
    }

    @Test func listAgreesWithRunUnderTheSameFlags() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let root = try Self.makeSuites(baseURL: demo.baseURL)
        defer { try? FileManager.default.removeItem(at: root) }
        let paths = [root.path]
        let flagSets: [[String]] = [
            [], ["--filter", "^Users › "], ["--filter", "(?i)ONE|two"], ["--tag", "smoke"],
            ["--tag", "users", "--exclude-tag", "wip"], ["--exclude-tag", "smoke"],
            ["--shard", "1/3"], ["--shard", "2/3"], ["--shard", "3/3"], ["--tag", "smoke", "--shard", "2/2"],
        ]
        for flags in flagSets {
            let list = try await listed(paths, flags)
            let run = try await ran(paths, flags)
            #expect(list == run, "flags \(flags): list \(list) but run \(run)")
            #expect(!list.isEmpty, "flags \(flags) select nothing: a weak check")
        }
        // Filtered-out tests are absent, not skipped; `skip:` tests stay in (reported as skipped).
        #expect(
            try await listed(paths, ["--tag", "smoke"]) == [
                "Alpha › health", "Users › list users", "Users › not deployed", "Zeta › two",
            ])
    }

    @Test func shardsOverTheCommandLineAreDisjointCompleteAndIgnorePathOrder() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = ["alpha.yaml", "nested/users.yaml", "zeta.yml"].map { root.appendingPathComponent($0).path }
        let all = try await listed(files, [])
        #expect(all.count == 9)
        for count in [2, 3, 4] {
            var union: [String] = []
            var sizes: [Int] = []
            for index in 1...count {
                // Every other shard gets the paths in reverse order: the assignment must not change.
                let paths = index % 2 == 0 ? files.reversed() : files
                let shard = try await listed(paths, ["--shard", "\(index)/\(count)"])
                union += shard
                sizes.append(shard.count)
            }
            #expect(union.count == all.count && Set(union) == Set(all), "\(count) shards: \(union)")
            #expect(sizes.max()! - sizes.min()! <= 1, "\(count) shards: sizes \(sizes)")
        }
    }

    @Test func textOutputIsOneLinePerTest() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await apitest(["list", root.path, "--tag", "smoke"])
        #expect(result.exitCode == 0)
        let folder = root.path
        #expect(
            result.stdout == """
                \(folder)/alpha.yaml › Alpha › health [smoke]
                \(folder)/nested/users.yaml › Users › list users [smoke, users]
                \(folder)/nested/users.yaml › Users › not deployed [smoke] (skipped: not yet)
                \(folder)/zeta.yml › Zeta › two [smoke]

                """)
    }

    @Test func jsonOutputHasTheDocumentedMembers() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await apitest(["list", root.path, "--shard", "4/4", "--format", "json", "--tag", "users"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["total"] as? Int == 9)
        #expect(document["matched"] as? Int == 3)
        #expect(document["selected"] as? Int == 0)
        let shard = try #require(document["shard"] as? [String: Any])
        #expect(shard["index"] as? Int == 4 && shard["count"] as? Int == 4)
        let full = try await apitest(["list", root.path, "--format", "json", "--filter", "two steps"])
        let tests = try #require(
            (try JSONSerialization.jsonObject(with: Data(full.stdout.utf8)) as? [String: Any])?["tests"]
                as? [[String: Any]])
        let test = try #require(tests.first)
        #expect(test["file"] as? String == root.appendingPathComponent("nested/users.yaml").path)
        #expect(test["path"] as? String == "nested/users.yaml")
        #expect(test["suite"] as? String == "Users" && test["name"] as? String == "two steps")
        #expect(test["line"] as? Int == 8 && test["steps"] as? Int == 2)
        #expect(test["tags"] as? [String] == [] && test["skip"] == nil)
    }

    @Test func nothingMatchingIsExitFourForListAndRun() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9")
        defer { try? FileManager.default.removeItem(at: root) }
        for command in ["list", "run"] {
            let result = try await apitest([command, root.path, "--filter", "nomatch", "--tag", "smoke"])
            #expect(result.exitCode == 4, "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "apitest: no test matches --filter 'nomatch' --tag smoke (of 9 tests); nothing to run.\n"
            )
        }
    }

    @Test func anEmptyShardRunsNothingAndSucceeds() async throws {
        let root = try Self.makeSuites(baseURL: "http://127.0.0.1:9")
        defer { try? FileManager.default.removeItem(at: root) }
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("empty-shard-\(UUID()).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let result = try await apitest([
            "run", root.path, "--tag", "users", "--shard", "4/4", "--report-junit", junit.path,
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("apitest: shard 4/4 has no tests (3 tests selected in all); nothing to run."))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"0\""), "an empty shard still writes its JUnit file: \(xml)")
    }

    @Test func helpDescribesSelection() async throws {
        for command in ["run", "list"] {
            let help = try await apitest([command, "--help"])
            for text in ["--filter", "suite name › test name", "--tag", "--exclude-tag", "--shard", "1-based"] {
                #expect(help.stdout.contains(text), "\(command) --help lacks \(text)")
            }
        }
        let top = try await apitest(["--help"])
        #expect(top.stdout.contains("list") && top.stdout.contains("4  --filter"))
    }
}
