// MARK: - ShardBalancer

/// Assigns tests to shards so that their expected durations are balanced (`--shard K/N --shard-timings FILE`):
/// longest first, each to the shard that would end soonest, where a shard pays a suite's `setup` and `teardown`
/// once, with the first of its tests it takes. Ties go to the lower shard and to the canonical order, so every CI
/// job computes the same plan from the same files.
package enum ShardBalancer {
    /// One test to place: its canonical position, its suite and how long it is expected to take.
    package struct Item: Sendable, Hashable {
        package var position: Int
        package var suite: String
        package var seconds: Double

        /// A test at `position` of the canonical order.
        package init(position: Int, suite: String, seconds: Double) {
            self.position = position
            self.suite = suite
            self.seconds = seconds
        }
    }

    /// The shard (0-based) of each item, by position, for `count` shards; `suiteCost` is what a suite's set-up and
    /// tear-down add to a shard that runs any of its tests.
    package static func assign(_ items: [Item], count: Int, suiteCost: (String) -> Double) -> [Int: Int] {
        var loads = [Double](repeating: 0, count: max(count, 1))
        var suites = [Set<String>](repeating: [], count: max(count, 1))
        var shardOf: [Int: Int] = [:]
        let ordered = items.sorted {
            $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.position < $1.position
        }
        for item in ordered {
            var best = 0
            var bestLoad = Double.infinity
            for shard in loads.indices {
                let load =
                    loads[shard] + item.seconds + (suites[shard].contains(item.suite) ? 0 : suiteCost(item.suite))
                if load < bestLoad {
                    best = shard
                    bestLoad = load
                }
            }
            loads[best] = bestLoad
            suites[best].insert(item.suite)
            shardOf[item.position] = best
        }
        return shardOf
    }

    /// The expected length of each shard (0-based) under `assignment`, set-ups included.
    package static func loads(
        _ items: [Item], assignment: [Int: Int], count: Int, suiteCost: (String) -> Double
    ) -> [Double] {
        var loads = [Double](repeating: 0, count: count)
        var suites = [Set<String>](repeating: [], count: count)
        for item in items {
            guard let shard = assignment[item.position] else { continue }
            loads[shard] += item.seconds
            if suites[shard].insert(item.suite).inserted { loads[shard] += suiteCost(item.suite) }
        }
        return loads
    }
}
