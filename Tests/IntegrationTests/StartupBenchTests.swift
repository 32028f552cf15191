import Foundation
import Testing

/// `bench/startup` (issue 36: the figure that keeps two argument parsers) runs what it says: every command in every
/// round, the second binary's commands with --compare, and no figures for a binary that fails. A few rounds of the
/// debug binary keep it to seconds; the figures themselves are not judged.
@Suite struct StartupBenchTests {
    /// The repository's root, from this file's path (`<root>/Tests/IntegrationTests/StartupBenchTests.swift`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `bench/startup` with `arguments`.
    func bench(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(
            Self.repository.appendingPathComponent("bench/startup"), arguments, timeout: .seconds(120))
    }

    @Test func everyCommandIsMeasuredInTheSameRounds() async throws {
        let apitest = try TestBinaries.url("apitest").path
        let result = try await bench([
            "--apitest", apitest, "--compare", apitest, "--rounds", "3", "--warmup", "1", "--json",
        ])
        #expect(result.exitCode == 0, "\(result.stderr.suffix(2000))")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let json = try #require(object as? [String: Any], "stdout: \(result.stdout.prefix(500))")
        #expect(json["rounds"] as? Int == 3)
        let commands = try #require(json["commands"] as? [String: [String: Any]])
        #expect(Set(commands.keys) == ["curl", "run", "--version", "other run", "other --version"])
        for (name, figures) in commands {
            let median = try #require(figures["median"] as? Double, "\(name)")
            #expect(median > 0, "\(name)")
            #expect((figures["p25"] as? Double ?? .infinity) <= median, "\(name)")
        }
        #expect(commands["run"]?["medianDifferenceFromRun"] as? Double == 0)
        // The report on stderr names both binaries.
        #expect(result.stderr.contains("apitest: \(apitest)"))
        #expect(result.stderr.contains("other:   \(apitest)"))
    }

    @Test func aBinaryThatFailsGetsNoFigures() async throws {
        let result = try await bench(["--apitest", "/bin/false", "--rounds", "1"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("startup: 'run' exited with 1"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
