import Foundation
import Testing

/// A run inside GitHub Actions (`GITHUB_ACTIONS=true`): `::error` lines with paths relative to `GITHUB_WORKSPACE`
/// after the console output, and the Markdown summary appended to `GITHUB_STEP_SUMMARY`; `--annotations none` turns
/// both off, and outside Actions there are none unless asked for.
@Suite(.serialized) struct GitHubAnnotationsTests {
    @Test func failuresAreAnnotatedAndSummarized() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-gh-\(UUID().uuidString)")
        let suites = workspace.appendingPathComponent("suites")
        try FileManager.default.createDirectory(at: suites, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let suite = suites.appendingPathComponent("users.yaml")
        try """
        name: users
        baseURL: \(demo.baseURL)/
        tests:
          - name: health
            request: {url: health}
          - name: wrong status
            request: {url: health}
            expect: {status: 201}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let summary = workspace.appendingPathComponent("summary.md")
        try "# earlier step output\n".write(to: summary, atomically: true, encoding: .utf8)
        let environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.path, "GITHUB_STEP_SUMMARY": summary.path,
        ]
        let result = try await runAPITest(["run", suite.path], environment: environment)
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.last
                == "::error file=suites/users.yaml,line=8,col=22,title=users › wrong status::expected status 201, got 200",
            "\(result.stdout)")
        // After the console's summary line.
        let summaryLine = try #require(lines.firstIndex { $0.hasPrefix("2 tests: 1 passed, 1 failed") })
        #expect(summaryLine < lines.count - 1)
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(markdown.hasPrefix("# earlier step output\n## ❌ apitest: 2 tests\n"), "\(markdown)")
        #expect(markdown.contains("- **users › wrong status** `suites/users.yaml:8:22`: expected status 201, got 200"))

        let off = try await runAPITest(["run", suite.path, "--annotations", "none"], environment: environment)
        #expect(!off.stdout.contains("::error"))
        let outside = try await runAPITest(["run", suite.path])
        #expect(!outside.stdout.contains("::error"))
        let asked = try await runAPITest(["run", suite.path, "--annotations", "github"])
        #expect(asked.stdout.contains("::error file="), "\(asked.stdout)")
        let wrong = try await runAPITest(["run", suite.path, "--annotations", "gitlab"])
        #expect(wrong.exitCode == 2)
        #expect(wrong.stderr.contains("--annotations must be github or none, got 'gitlab'"))
    }

    /// GitHub's limits through the CLI: with 60 failing tests and a failing teardown, one step writes 10 `::error`
    /// lines (the teardown's among them, though it ran last), then one `::warning` counting what was left out; the
    /// step summary is appended after what earlier steps wrote (kept byte for byte) and cut so that the file stays
    /// within 1 MiB, ending with the line that says how much was left out.
    @Test func sixtyFailuresStayWithinGitHubsLimits() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-gh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let suite = workspace.appendingPathComponent("many.yaml")
        var yaml = "name: many\nbaseURL: \(demo.baseURL)/\ntests:\n"
        for index in 1...60 {
            yaml += "  - name: test \(index)\n    request: {url: health}\n"
            yaml += "    expect: {status: 201, headers: {X-Missing: present}}\n"
        }
        yaml += "teardown:\n  - request: {url: health}\n    expect: {status: 204}\n"
        try yaml.write(to: suite, atomically: true, encoding: .utf8)
        // An earlier step's summary: 1 MiB less 2 KiB, which apitest's summary of 121 failures does not fit in.
        let summary = workspace.appendingPathComponent("summary.md")
        let earlier = String(repeating: String(repeating: "e", count: 63) + "\n", count: 16_352)
        try earlier.write(to: summary, atomically: true, encoding: .utf8)
        let environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace.path, "GITHUB_STEP_SUMMARY": summary.path,
        ]
        let result = try await runAPITest(["run", suite.path, "--jobs", "4"], environment: environment)
        #expect(result.exitCode == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 10, "\(errors)")
        #expect(errors.contains { $0.contains("title=many › teardown::expected status 204, got 200") }, "\(errors)")
        let warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first?.contains(
                "more failures not annotated (GitHub shows at most 10 error and 10 warning annotations of a step)")
                == true, "\(warnings)")

        let written = try Data(contentsOf: summary)
        #expect(written.count <= 1 << 20, "\(written.count) bytes")
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix(earlier + "## ❌ apitest: 61 tests\n"), "\(text.suffix(2000))")
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            last.hasPrefix("> **")
                && last.contains(" lines of this summary left out**: GitHub drops a step summary over 1 MiB."),
            "\(text.suffix(2000))")
    }
}
