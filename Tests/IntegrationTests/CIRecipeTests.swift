import Foundation
import Testing

/// The CI recipes of `docs/ci-sharding.md` (GitHub Actions, GitLab CI, a Kubernetes Indexed Job), read out of the page
/// and run for real: each YAML parses and ties up as its CI system reads it (`Fixtures/ci_recipes.py`, PyYAML), and
/// its shard job's commands run once per shard and its merge job's once, with the real `apitest` against the demo
/// API, twice: the second time the shards balance themselves with the timings the first merge kept.
@Suite(.serialized) struct CIRecipeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What `Fixtures/ci_recipes.py` reads out of a recipe.
    struct Plan: Decodable {
        var shards: Int
        var shell: String
        var environment: [String: String]
        var shard: [String]
        var merge: [String]
        var folders: [String]
        var collected: [String]
        var uploads: [Upload]

        struct Upload: Decodable {
            var name: String
            var path: String
        }
    }

    static func plan(_ recipe: String) async throws -> Plan {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ci_recipes.py")
        let result = try await runProcess(
            try TestBinaries.tool("python3"),
            [script.path, repository.appendingPathComponent("docs/ci-sharding.md").path, recipe])
        try #require(result.exitCode == 0, "\(recipe): \(result.stderr)")
        return try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
    }

    /// Two suites of five tests each, whose `baseURL` comes from `API_URL`, as the recipes expect.
    static func writeSuites(in folder: URL) throws {
        let suites = folder.appendingPathComponent("suites")
        try FileManager.default.createDirectory(at: suites, withIntermediateDirectories: true)
        for name in ["orders", "users"] {
            var yaml = "name: \(name)\nbaseURL: \"{{ env.API_URL }}\"\ntests:\n"
            for number in 1...5 {
                yaml += "  - name: \(name) \(number)\n    request: {url: /health}\n    expect: {status: 200}\n"
            }
            try yaml.write(to: suites.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
    }

    /// Runs `script` as the CI system would, in `folder`: `bash -e` (GitHub Actions' `run:`) or `sh -c` (a GitLab
    /// script line, a Kubernetes container's `sh -c`), tracing each command it runs (`-x`) to standard error.
    static func execute(
        _ script: String, plan: Plan, shard: Int?, folder: URL, environment: [String: String]
    ) async throws -> ProcessResult {
        var text = script
        var variables = environment
        if let shard {
            text = text.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)")
            variables["CI_NODE_INDEX"] = "\(shard)"
            variables["CI_NODE_TOTAL"] = "\(plan.shards)"
            variables["JOB_COMPLETION_INDEX"] = "\(shard - 1)"
        }
        #expect(!text.contains("${{"), "a GitHub expression the test does not know: \(text)")
        let shell = plan.shell == "bash" ? "/bin/bash" : "/bin/sh"
        let options = plan.shell == "bash" ? ["-e", "-o", "pipefail", "-x", "-c"] : ["-e", "-x", "-c"]
        return try await runProcess(
            URL(fileURLWithPath: shell), options + [text], environment: variables, currentDirectory: folder,
            timeout: .seconds(120))
    }

    @Test(arguments: ["github-actions", "gitlab-ci", "kubernetes"])
    func theRecipeRunsItsShardsAndMergesThem(_ recipe: String) async throws {
        let plan = try await Self.plan(recipe)
        #expect(plan.shards == 4)
        #expect(plan.environment["API_URL"] != nil, "the suites take the API's address from API_URL")
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-recipe-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.writeSuites(in: folder)
        // `apitest` on PATH, as the recipes call it.
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("apitest"), withDestinationURL: try TestBinaries.url("apitest"))
        var environment = plan.environment
        environment["API_URL"] = demo.baseURL
        environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        environment["GITHUB_ACTIONS"] = "false"

        for round in 1...2 {
            // Each run starts from empty report folders (the platform's mounts exist; the rest the recipe makes).
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("reports"))
            for mount in plan.folders {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(mount), withIntermediateDirectories: true)
            }
            var shardRuns = 0
            for shard in 1...plan.shards {
                for script in plan.shard {
                    let result = try await Self.execute(
                        script, plan: plan, shard: shard, folder: folder, environment: environment)
                    #expect(result.exitCode == 0, "\(recipe) shard \(shard): \(result.stdout)\(result.stderr)")
                    // The second run's shards balance by the timings the first merge kept.
                    guard script.contains("apitest run") else { continue }
                    let balanced = result.stderr.contains("--shard-timings timings/all.json")
                    #expect(balanced == (round == 2), "\(recipe) round \(round) shard \(shard): \(result.stderr)")
                    shardRuns += 1
                }
                for upload in plan.uploads where !upload.path.contains("*") {
                    let path = upload.path.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)")
                    #expect(
                        FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path),
                        "\(recipe): the upload \(path) was not written")
                }
            }
            #expect(shardRuns == plan.shards, "\(recipe): one apitest run per shard")
            for glob in plan.collected {
                let matched = try await runProcess(
                    URL(fileURLWithPath: "/bin/sh"), ["-c", "ls -1 \(glob)"], currentDirectory: folder)
                #expect(
                    matched.stdout.split(separator: "\n").count == plan.shards,
                    "\(recipe): \(glob) should match one file per shard: \(matched.stdout)\(matched.stderr)")
            }
            var merged = ""
            for script in plan.merge {
                let result = try await Self.execute(
                    script, plan: plan, shard: nil, folder: folder, environment: environment)
                #expect(result.exitCode == 0, "\(recipe) merge: \(result.stdout)\(result.stderr)")
                merged += result.stdout
            }
            #expect(
                merged.contains("merged \(plan.shards) reports: 10 tests, 10 passed, 0 failed"),
                "\(recipe) round \(round): \(merged)")
            let timings = folder.appendingPathComponent("timings/all.json")
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: timings)) as? [String: Any]
            #expect(
                (report?["merged"] as? [Any])?.count == plan.shards, "\(recipe): the merged report lists the shards")
        }
    }
}
