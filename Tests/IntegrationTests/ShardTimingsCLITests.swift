import Foundation
import Testing

/// `--shard-timings` from the command line: a run's own JSON report balances the next run's shards; `list` shows the
/// plan with expected durations; the shards stay disjoint and complete.
@Suite(.serialized) struct ShardTimingsCLITests {
    @Test func aReportBalancesTheShardsThatListAndRunUse() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        var tests = ""
        // One slow test and seven fast ones: by count, shard 1/2 would take the slow one and three fast ones. The slow
        // one takes 4 s, longer than the seven fast ones together even when a loaded machine slows each to 500 ms
        // (the plan is made from the timings this run measures; a CI run with every other test beside it measured
        // the fast ones at over 200 ms each when the slow one took 1.5 s).
        tests += "  - name: slow\n    request: {url: delay/4000}\n"
        for number in 1...7 { tests += "  - name: fast \(number)\n    request: {url: health}\n" }
        let suite = try writeTemporarySuite("name: timed\nbaseURL: \(demo.baseURL)/\ntests:\n\(tests)")
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("previous.json")
        let first = try await runAPITest(["run", suite.path, "--report-json", report.path])
        #expect(first.exitCode == 0, "\(first.stdout)")

        var seen: [String] = []
        for shard in 1...2 {
            let listed = try await runAPITest([
                "list", suite.path, "--shard", "\(shard)/2", "--shard-timings", report.path,
            ])
            #expect(listed.exitCode == 0, "\(listed.stderr)")
            let lines = listed.stdout.split(separator: "\n").map(String.init)
            let names = lines.filter { $0.contains(" › timed › ") }.map {
                String($0.split(separator: "›")[2].split(separator: "(")[0]).trimmingCharacters(in: .whitespaces)
            }
            #expect(lines.contains { $0.contains("(expected ") }, "\(listed.stdout)")
            #expect(lines.last?.hasPrefix("expected: ") == true, "\(listed.stdout)")
            seen += names
            if names.contains("slow") {
                #expect(names == ["slow"], "the slow test's shard should hold it alone: \(names)")
            }
            let ran = try await runAPITest([
                "run", suite.path, "--shard", "\(shard)/2", "--shard-timings", report.path,
            ])
            #expect(ran.exitCode == 0)
            #expect(ran.stdout.contains("\(names.count) test"), "\(ran.stdout)")
        }
        #expect(seen.sorted() == (["slow"] + (1...7).map { "fast \($0)" }).sorted())

        let without = try await runAPITest(["list", suite.path, "--shard-timings", report.path])
        #expect(without.exitCode == 2)
        #expect(without.stderr.contains("--shard-timings needs --shard K/N"))
        let bad = try await runAPITest(["list", suite.path, "--shard", "1/2", "--shard-timings", suite.path])
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("--shard-timings '\(suite.path)': not JSON"), "\(bad.stderr)")
    }
}
