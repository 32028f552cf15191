import APITestResults
import Foundation

/// The JSON report: every suite, test, step, request and response (with timings in milliseconds) and failed
/// assertion, plus the planned tests that never started (`notRun`). Its JSON Schema (draft 2020-12) is
/// `schemas/report.schema.json`; the document's `version` is 1 and grows only when a change could break readers.
package struct JSONReportFormat: ReportFormat {
    package var displayName: String { "JSON" }

    /// The run's place in a sharded set (`run` in the document); nil leaves it out.
    var run: JSONReportDocument.Run?
    /// Of a merged report: the reports it was made of.
    var mergedRuns: [JSONReportDocument.MergedRun]?

    /// The format of a run that says nothing of its identity.
    package init() {}

    /// The format of run `id`, shard `shard` (index, count) of a selection whose fingerprint is `selection` and
    /// whose suites are `suiteFiles`, in run order, with the SHA-256 of each file's text in `suiteDigests`.
    package init(
        id: String, shard: (index: Int, count: Int)?, selection: String, suiteFiles: [String],
        suiteDigests: [String] = []
    ) {
        run = JSONReportDocument.Run(
            id: id, shard: shard.map { JSONReportDocument.Shard(index: $0.index, count: $0.count) },
            selection: selection, suiteFiles: suiteFiles,
            suiteDigests: suiteDigests.count == suiteFiles.count && !suiteDigests.isEmpty ? suiteDigests : nil)
    }

    /// The format with `run` as its identity.
    init(run: JSONReportDocument.Run) {
        self.run = run
    }

    package func render(_ record: RunRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var document = JSONReportDocument(record, run: run)
            document.merged = mergedRuns
            let data = try encoder.encode(document)
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            // Only non-finite numbers can fail to encode, and durations are always finite.
            return "{\"version\": 1, \"error\": \"the report could not be encoded\"}\n"
        }
    }
}
