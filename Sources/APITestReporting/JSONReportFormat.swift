import APITestResults
import Foundation

/// The JSON report: every suite, test, step, request and response (with timings in milliseconds) and failed
/// assertion, plus the planned tests that never started (`notRun`). Its JSON Schema (draft 2020-12) is
/// `schemas/report.schema.json`; the document's `version` is 1 and grows only when a change could break readers.
package struct JSONReportFormat: ReportFormat {
    package var displayName: String { "JSON" }

    package init() {}

    package func render(_ record: RunRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(JSONReportDocument(record))
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            // Only non-finite numbers can fail to encode, and durations are always finite.
            return "{\"version\": 1, \"error\": \"the report could not be encoded\"}\n"
        }
    }
}
