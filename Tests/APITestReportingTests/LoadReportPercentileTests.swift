import APITestReporting
import APITestResults
import Foundation
import Testing

/// The load JSON report writes, beside every histogram's buckets, its percentiles in milliseconds
/// (`.load.tests[0].latency.percentiles.p99`), computed from the histogram; `apitest merge` computes them again
/// from the merged histograms.
@Suite struct LoadReportPercentileTests {
    /// A run of two tests, the first with two steps, each histogram with other samples.
    static func result(shard: Int, seed: UInt64) -> LoadResult {
        var result = LoadResult(
            model: .init(
                kind: .open, startRate: 50, stages: [.init(seconds: 10, target: 50)],
                shard: .init(index: shard, count: 2),
                plannedSeconds: 10),
            startedAt: Date(timeIntervalSince1970: 1_746_100_800), lateAfterMs: 10)
        var first = LoadResult.TestStats(suite: "shop", file: "shop.yaml", name: "checkout", weight: 3)
        first.steps = [
            LoadResult.StepStats(index: 1, location: "shop.yaml:4:7"),
            LoadResult.StepStats(index: 2, location: "shop.yaml:9:7"),
        ]
        var second = LoadResult.TestStats(suite: "shop", file: "shop.yaml", name: "browse", weight: 1)
        var state = seed
        func next(_ range: ClosedRange<UInt64>) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + (state >> 33) % (range.upperBound - range.lowerBound + 1)
        }
        for index in 0..<2_000 {
            // Mostly 0.2-3 ms, a tail of 1 % up to 2 s.
            let micros = index % 100 == 0 ? next(100_000...2_000_000) : next(200...3_000)
            result.latency.record(microseconds: micros)
            if index % 4 == 0 {
                second.latency.record(microseconds: micros)
            } else {
                first.latency.record(microseconds: micros)
                first.steps[index % 2].latency.record(microseconds: micros / 2 + 1)
            }
        }
        result.counts.started = 2_000
        result.counts.completed = 2_000
        result.counts.passed = 2_000
        result.seconds = 10
        result.tests = [first, second]
        return result
    }

    /// The histograms of `result` (the run's, each test's, each step's) and their places in the JSON report.
    static func histograms(of result: LoadResult) -> [(place: String, histogram: LatencyHistogram)] {
        var list = [("load.latency", result.latency)]
        for (index, test) in result.tests.enumerated() {
            list.append(("load.tests[\(index)].latency", test.latency))
            for (position, step) in test.steps.enumerated() {
                list.append(("load.tests[\(index)].steps[\(position)].latency", step.latency))
            }
        }
        return list
    }

    /// The histogram objects of a JSON report, in the order of ``histograms(of:)``.
    static func histogramObjects(_ json: String) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let load = try #require(document["load"] as? [String: Any])
        var list = [try #require(load["latency"] as? [String: Any])]
        for test in try #require(load["tests"] as? [[String: Any]]) {
            list.append(try #require(test["latency"] as? [String: Any]))
            for step in test["steps"] as? [[String: Any]] ?? [] {
                list.append(try #require(step["latency"] as? [String: Any]))
            }
        }
        return list
    }

    /// Checks that each histogram object of `json` holds the percentiles of the histogram it encodes.
    static func expectPercentiles(in json: String, of result: LoadResult) throws {
        let expected = histograms(of: result)
        let objects = try histogramObjects(json)
        #expect(objects.count == expected.count)
        #expect(expected.count == 5)
        for (object, (place, histogram)) in zip(objects, expected) {
            #expect(object["percentileUnit"] as? String == "ms", "\(place)")
            #expect((object["count"] as? NSNumber)?.uint64Value == histogram.count, "\(place)")
            let percentiles = try #require(object["percentiles"] as? [String: NSNumber], "\(place)")
            #expect(
                Set(percentiles.keys) == ["p50", "p75", "p90", "p95", "p99", "p99.9", "min", "max", "mean"],
                "\(place)")
            for (key, percentile) in [
                ("p50", 50.0), ("p75", 75), ("p90", 90), ("p95", 95), ("p99", 99), ("p99.9", 99.9),
            ] {
                // The histogram's own percentile function, in microseconds, written in milliseconds.
                #expect(
                    percentiles[key]?.doubleValue == Double(histogram.percentile(percentile)) / 1_000,
                    "\(place).percentiles.\(key)")
            }
            #expect(percentiles["max"]?.doubleValue == Double(histogram.max) / 1_000, "\(place)")
            #expect(percentiles["min"]?.doubleValue == Double(histogram.min) / 1_000, "\(place)")
            #expect(percentiles["mean"]?.doubleValue == histogram.mean.rounded() / 1_000, "\(place)")
            // Not a constant: the tail shows.
            #expect(
                (percentiles["p99.9"]?.doubleValue ?? 0) > (percentiles["p50"]?.doubleValue ?? 0), "\(place)")
        }
    }

    @Test func everyHistogramOfTheReportHasItsPercentiles() throws {
        let result = Self.result(shard: 1, seed: 7)
        let json = LoadReportFormats.json(result, hostname: "ci-1")
        try Self.expectPercentiles(in: json, of: result)
        // `jq '.load.tests[0].latency.percentiles.p99'` in milliseconds: 0.2-3 ms samples, 1 % tail above 100 ms.
        let objects = try Self.histogramObjects(json)
        let p99 = try #require((objects[1]["percentiles"] as? [String: NSNumber])?["p99"]?.doubleValue)
        #expect(p99 == Double(result.tests[0].latency.percentile(99)) / 1_000)
        // Read back, the report is the histograms: the figures are written again from them, the same.
        let read = try #require(LoadReportFormats.read(Array(json.utf8)))
        #expect(LoadReportFormats.json(read.load, hostname: "ci-1") == json)
    }

    @Test func anEmptyHistogramHasZeroes() throws {
        let json = String(decoding: try JSONEncoder().encode(LatencyHistogram()), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["count"] as? NSNumber)?.intValue == 0)
        let percentiles = try #require(object["percentiles"] as? [String: NSNumber])
        #expect(percentiles.count == 9)
        #expect(percentiles.values.allSatisfy { $0.doubleValue == 0 })
    }

    @Test func mergeComputesThePercentilesOfTheMergedHistograms() throws {
        let shards = [Self.result(shard: 1, seed: 7), Self.result(shard: 2, seed: 99)]
        let inputs = shards.enumerated().map { index, shard in
            ReportMerger.Input(
                name: "load-\(index + 1).json", data: Data(LoadReportFormats.json(shard, hostname: "ci").utf8))
        }
        let merged = try #require(try ReportMerger.merge(inputs, allowMissing: false).load)
        // The merged histograms are the shards' added; their percentiles are not any shard's.
        var whole = shards[0].latency
        whole.merge(shards[1].latency)
        #expect(merged.latency.count == 4_000)
        #expect(merged.latency.percentile(99.9) == whole.percentile(99.9))
        let json = LoadReportFormats.json(merged, hostname: "ci")
        try Self.expectPercentiles(in: json, of: merged)
        let mergedP50 = try #require(
            (try Self.histogramObjects(json)[0]["percentiles"] as? [String: NSNumber])?["p50"]?.doubleValue)
        #expect(mergedP50 == Double(whole.percentile(50)) / 1_000)
    }
}
