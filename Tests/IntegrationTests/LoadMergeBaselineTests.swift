import Foundation
import Testing

/// `apitest merge` of load shards whose thresholds are relative to a baseline run (`p99<+10s`): the merge judged them
/// on the merged figures alone, as if absolute (`p99<+10s` became "p99 under 10 s", `p99<+10%` "under 10 µs"). A
/// relative threshold now needs `merge --baseline`, which compares the merged run with that run as `load
/// --baseline` does; without it the merge is a usage error saying so.
@Suite struct LoadMergeBaselineTests {
    @Test func relativeThresholdsOfMergedShardsAreJudgedAgainstTheBaseline() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-mergebase-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        try """
        name: merged
        baseURL: \(demo.baseURL)
        tests:
          - name: health
            request: {url: /health}
        """.write(toFile: path("suite.yaml"), atomically: true, encoding: .utf8)

        let base = try await runAPITest([
            "load", path("suite.yaml"), "--rate", "40/s", "--duration", "1s", "--report-json", path("base.json"),
        ])
        #expect(base.exitCode == 0, "\(base.stdout)\(base.stderr)")
        // A bound so wide that no machine's noise passes it: the verdict is about how it is judged, not timing.
        let shards = ["1/2", "2/2"].map { shard in
            [
                "load", path("suite.yaml"), "--rate", "40/s", "--duration", "1s", "--shard", shard, "--baseline",
                path("base.json"), "--threshold", "p99<+10s", "--threshold", "rate>1/s",
                "--report-json", path("shard-\(shard.prefix(1)).json"),
            ]
        }
        for arguments in shards {
            let shard = try await runAPITest(arguments)
            #expect(shard.exitCode == 0, "\(shard.stdout)\(shard.stderr)")
        }

        let unjudged = try await runAPITest(["merge", path("shard-1.json"), path("shard-2.json")])
        #expect(unjudged.exitCode == 2, "\(unjudged.stdout)\(unjudged.stderr)")
        #expect(
            unjudged.stderr.contains("'p99<+10s' is relative to a baseline run: give --baseline FILE"),
            "\(unjudged.stderr)")

        let judged = try await runAPITest([
            "merge", path("shard-1.json"), path("shard-2.json"), "--baseline", path("base.json"), "--report-json",
            path("merged.json"),
        ])
        #expect(judged.exitCode == 0, "\(judged.stdout)\(judged.stderr)")
        #expect(judged.stdout.contains("compared with baseline "), "\(judged.stdout)")
        #expect(judged.stdout.contains("relative thresholds"), "\(judged.stdout)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path("merged.json")))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let thresholds = try #require((document["load"] as? [String: Any])?["thresholds"] as? [[String: Any]])
        // Both, in the order given, each held.
        #expect(
            thresholds.compactMap { ($0["threshold"] as? [String: Any])?["text"] as? String } == [
                "p99<+10s", "rate>1/s",
            ])
        #expect(thresholds.allSatisfy { $0["holds"] as? Bool == true }, "\(thresholds)")

        // A baseline is for load reports only.
        let runReport = try await runAPITest([
            "merge", path("base.json"), "--baseline", path("merged.json"), "--report-json", path("base.json"),
        ])
        #expect(runReport.exitCode == 2, "\(runReport.stdout)\(runReport.stderr)")
    }
}
