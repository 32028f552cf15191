import APITestResults
import APITestSupport
import Foundation

/// `apitest merge` of the JSON reports of a load run's shards (`apitest load --shard K/N`): one load result as a
/// single generator would have measured it. Counts and bytes add up; histograms merge bucket by bucket, which is
/// exact, so every percentile of the merged run is the one a single histogram fed all the samples gives; the rate
/// of each stage (or the virtual users) is the sum of the shards'; the run lasted as long as its longest shard; the
/// thresholds are measured again on the merged figures. The per-second timeline adds the completions; its latency
/// figures are the highest of the shards' for that second (a second's own histogram is not kept).
enum LoadReportMerger {
    /// Merges `documents` (name, report), refusing shards of different load runs, two reports of one shard, and
    /// missing shards unless `allowMissing`.
    static func merge(
        _ documents: [(name: String, document: LoadReportFormats.Document)], allowMissing: Bool
    ) throws(ReportMerger.MergeError) -> LoadResult {
        guard let first = documents.first else { throw ReportMerger.MergeError(kind: .nothingToMerge) }
        var byShard: [Int: String] = [:]
        let count = first.document.load.model.shard?.count ?? 1
        for (name, document) in documents {
            let model = document.load.model
            guard model.shard?.count ?? 1 == count else {
                throw ReportMerger.MergeError(kind: .differentShardCounts(first.name, name))
            }
            guard model.kind == first.document.load.model.kind,
                model.stages?.map(\.seconds) == first.document.load.model.stages?.map(\.seconds),
                document.load.tests.map(\.displayName) == first.document.load.tests.map(\.displayName),
                document.load.thresholds.map(\.threshold.text) == first.document.load.thresholds.map(\.threshold.text)
            else {
                throw ReportMerger.MergeError(kind: .differentSelections(first.name, name))
            }
            let index = model.shard?.index ?? 1
            if let earlier = byShard[index] {
                throw ReportMerger.MergeError(kind: .overlapping(shard: "\(index)/\(count)", earlier, name))
            }
            byShard[index] = name
        }
        let missing = (1...count).filter { byShard[$0] == nil }.map { "\($0)/\(count)" }
        if !missing.isEmpty && !allowMissing { throw ReportMerger.MergeError(kind: .missing(missing)) }

        let loads = documents.map(\.document.load)
        var model = first.document.load.model
        model.shard = nil
        if let stages = model.stages {
            model.stages = stages.indices.map { index in
                LoadResult.Model.Stage(
                    seconds: stages[index].seconds,
                    target: loads.reduce(0) { $0 + ($1.model.stages?[index].target ?? 0) })
            }
            model.startRate = loads.reduce(0) { $0 + ($1.model.startRate ?? 0) }
        }
        if model.virtualUsers != nil { model.virtualUsers = loads.reduce(0) { $0 + ($1.model.virtualUsers ?? 0) } }
        var merged = LoadResult(
            model: model, startedAt: loads.map(\.startedAt).min() ?? first.document.load.startedAt,
            lateAfterMs: first.document.load.lateAfterMs)
        merged.seconds = loads.map(\.seconds).max() ?? 0
        merged.interrupted = loads.contains(where: \.interrupted)
        merged.abortedBy = loads.lazy.compactMap(\.abortedBy).first
        merged.tests = first.document.load.tests.map { test in
            LoadResult.TestStats(suite: test.suite, file: test.file, name: test.name, weight: test.weight)
        }
        var timeline: [Int: LoadResult.Second] = [:]
        for load in loads {
            merged.counts += load.counts
            merged.latency.merge(load.latency)
            merged.bytesSent += load.bytesSent
            merged.bytesReceived += load.bytesReceived
            merged.hooks += load.hooks
            for (index, test) in load.tests.enumerated() { merged.tests[index].merge(test) }
            for second in load.timeline {
                var line =
                    timeline[second.second]
                    ?? LoadResult.Second(second: second.second, completed: 0, notPassed: 0, p50: 0, p99: 0, max: 0)
                line.completed += second.completed
                line.notPassed += second.notPassed
                line.p50 = Swift.max(line.p50, second.p50)
                line.p99 = Swift.max(line.p99, second.p99)
                line.max = Swift.max(line.max, second.max)
                timeline[second.second] = line
            }
        }
        merged.timeline = timeline.keys.sorted().compactMap { timeline[$0] }
        // A relative threshold's bound is a change from a baseline run (`p99<+10%`): measured on the merged figures
        // alone it would be read as an absolute one (p99 under 10 µs). `apitest merge --baseline` judges them.
        merged.thresholds = merged.evaluate(
            first.document.load.thresholds.map(\.threshold).filter { $0.relative == nil })
        return merged
    }
}
