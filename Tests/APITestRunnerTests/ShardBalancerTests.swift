import APITestTestSupport
import Foundation
import Testing

@testable import APITestRunner

/// `--shard-timings`: shards balanced by expected duration, against count-based shards, on a generated set of
/// 5,000 tests whose durations are skewed (most fast, a few slow) and whose suites have set-up costs.
@Suite struct ShardBalancerTests {
    /// 5,000 tests in 40 suites: 90 % take 20–200 ms, 9 % 0.5–3 s, 1 % 10–40 s (seeded, the same every run).
    static func items() -> (items: [ShardBalancer.Item], suiteCost: [String: Double]) {
        var generator = SplitMix64(seed: 0x5AD)
        var items: [ShardBalancer.Item] = []
        for position in 0..<5000 {
            let draw = Double.random(in: 0..<1, using: &generator)
            let seconds =
                draw < 0.90
                ? Double.random(in: 0.02...0.2, using: &generator)
                : draw < 0.99
                    ? Double.random(in: 0.5...3, using: &generator) : Double.random(in: 10...40, using: &generator)
            // Suites are contiguous in the canonical order, as files are.
            items.append(ShardBalancer.Item(position: position, suite: "suite-\(position / 125)", seconds: seconds))
        }
        var costs: [String: Double] = [:]
        for suite in 0..<40 { costs["suite-\(suite)"] = Double(suite % 5) * 0.4 }
        return (items, costs)
    }

    @Test(arguments: [4, 8, 16])
    func theLongestShardIsWithinFivePercentOfTheMean(shards: Int) {
        let (items, costs) = Self.items()
        let cost = { (suite: String) in costs[suite] ?? 0 }
        let assignment = ShardBalancer.assign(items, count: shards, suiteCost: cost)
        #expect(assignment.count == items.count) // every test in exactly one shard
        let balanced = ShardBalancer.loads(items, assignment: assignment, count: shards, suiteCost: cost)
        let mean = balanced.reduce(0, +) / Double(shards)
        let longest = balanced.max() ?? 0
        // Count-based: N contiguous blocks of equal counts, as --shard does without timings.
        var byCount: [Int: Int] = [:]
        for shard in 0..<shards {
            let spec = try! ShardSpec(index: shard + 1, count: shards)
            for position in spec.range(ofTotal: items.count) { byCount[position] = shard }
        }
        let counted = ShardBalancer.loads(items, assignment: byCount, count: shards, suiteCost: cost)
        let countedMean = counted.reduce(0, +) / Double(shards)
        let countedLongest = counted.max() ?? 0
        print(
            "shards \(shards): balanced longest/mean \(longest / mean), count-based longest/mean "
                + "\(countedLongest / countedMean)")
        #expect(longest <= mean * 1.05, "longest \(longest) s, mean \(mean) s")
        #expect(countedLongest / countedMean > longest / mean, "count-based sharding must do worse here")
        // The same inputs give the same plan.
        #expect(ShardBalancer.assign(items, count: shards, suiteCost: cost) == assignment)
    }

    @Test func timingsAreReadFromAJSONReportAndUnknownTestsCountAsTheMedian() throws {
        let report = #"""
            {"version": 1, "suites": [
              {"name": "users", "file": "users.yaml", "tests": [
                {"name": "setup", "status": "passed", "durationMs": 400},
                {"name": "list", "status": "passed", "durationMs": 100},
                {"name": "create", "status": "failed", "durationMs": 300},
                {"name": "later", "status": "skipped", "durationMs": 0},
                {"name": "teardown", "status": "passed", "durationMs": 100}]}]}
            """#
        let timings = try ShardTimings(jsonReport: Array(report.utf8))
        #expect(timings.durations == ["users › list": 0.1, "users › create": 0.3])
        #expect(timings.suiteCosts == ["users": 0.5])
        #expect(timings.median == 0.2)
        #expect(throws: ShardTimings.ReadError.self) { try ShardTimings(jsonReport: Array("{}".utf8)) }
        #expect(throws: ShardTimings.ReadError.self) { try ShardTimings(jsonReport: Array("not json".utf8)) }
    }
}
