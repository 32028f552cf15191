package import APITestResults
package import Foundation

/// The OpenAPI coverage file of `--report-openapi-coverage`: per OpenAPI document, every declared operation with its
/// calls and each declared response with its hits, the requests that matched no operation, and the totals. Its JSON
/// Schema (draft 2020-12) is `schemas/openapi-coverage.schema.json`. Counts only add up, so the files of a run's
/// shards merge into the file of the whole run (``OpenAPICoverage/merge(_:)``).
package struct OpenAPICoverageReportFormat: ReportFormat {
    package var displayName: String { "OpenAPI coverage" }
    /// Coverage needs nothing of any step: it is counted during the run.
    package var resultDetail: ResultDetail { .failures }

    package init() {}

    /// The file as written: the coverage and its totals.
    package struct Document: Codable, Sendable, Hashable {
        package var version: Int
        package var tool = "apitest"
        package var documents: [OpenAPICoverage.Document]
        package var totals: OpenAPICoverage.Totals

        package init(_ coverage: OpenAPICoverage) {
            version = coverage.formatVersion
            documents = coverage.documents
            totals = coverage.totals
        }
    }

    package func render(_ record: RunRecord) -> String {
        Self.render(record.summary.coverage ?? OpenAPICoverage())
    }

    /// The file for `coverage`.
    package static func render(_ coverage: OpenAPICoverage) -> String {
        CoverageFileText.render(Document(coverage))
    }

    /// Reads a coverage file back (to merge the files of several shards); `nil` when it is not one.
    package static func parse(_ data: Data) -> OpenAPICoverage? {
        guard let document = try? JSONDecoder().decode(Document.self, from: data) else { return nil }
        return OpenAPICoverage(documents: document.documents)
    }
}
