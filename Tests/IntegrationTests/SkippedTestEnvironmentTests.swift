import Foundation
import Testing

/// A test that sends nothing needs no environment variable, as an unselected one: a `skip:` test that reads an unset
/// `{{ env.NAME }}` no longer makes a plain `apitest run` (or `list`) exit 2, nor does a `load: {weight: 0}` test,
/// never picked, make `apitest load` exit 2 when a `--filter` selects it. A selected test that does send still gets
/// the located error. The old code counted every selected test (exit 2 in each case).
@Suite struct SkippedTestEnvironmentTests {
    /// Names no environment sets.
    static let skipVariable = "APITEST_TEST_UNSET_SKIP_\(UUID().uuidString.prefix(8))"
    static let weightVariable = "APITEST_TEST_UNSET_W0_\(UUID().uuidString.prefix(8))"

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: environment)
    }

    @Test func aSkippedTestNeedsNoVariableInARun() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: Skips
            baseURL: \(demo.baseURL)
            tests:
              - name: later
                skip: not yet
                request: {url: "/health?q={{ env.\(Self.skipVariable) }}"}
              - name: now
                request: {url: /health}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let run = try await apitest(["run", suite.path])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 passed"), "\(run.stdout)")
        #expect(!run.stderr.contains("is not set"), "\(run.stderr)")
        let list = try await apitest(["list", suite.path, "--filter", "later"])
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Skips › later"), "\(list.stdout)")
        // `validate` still checks every test.
        let validate = try await apitest(["validate", suite.path])
        #expect(validate.exitCode == 2, "\(validate.stdout)\(validate.stderr)")
        #expect(
            validate.stderr.contains("environment variable '\(Self.skipVariable)' is not set"), "\(validate.stderr)")
    }

    @Test func aWeightZeroTestNeedsNoVariableInALoad() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: Weights
            baseURL: \(demo.baseURL)
            tests:
              - name: never picked
                load: {weight: 0}
                request: {url: "/health?q={{ env.\(Self.weightVariable) }}"}
              - name: picked
                request: {url: /health}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let load = try await apitest([
            "load", suite.path, "--filter", "Weights", "--rate", "20/s", "--duration", "1s", "--quiet",
        ])
        #expect(load.exitCode == 0, "\(load.stdout)\(load.stderr)")
        #expect(!load.stderr.contains("is not set"), "\(load.stderr)")
        // In a run the weight-0 test runs, so it needs its variable: the located error, exit 2.
        let run = try await apitest(["run", suite.path, "--filter", "never picked"])
        #expect(run.exitCode == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("\(Self.weightVariable)' is not set"), "\(run.stderr)")
    }
}
