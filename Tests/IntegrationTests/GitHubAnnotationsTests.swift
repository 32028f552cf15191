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
}
