package import APITestResults
package import Foundation

/// The gRPC coverage file of `--report-grpc-coverage`: per schema source (a suite's `.proto` files, or a server read
/// through reflection), every method its descriptors declare with its streaming shape, its calls and the status
/// codes they ended with, and the totals. Its JSON Schema (draft 2020-12) is `schemas/grpc-coverage.schema.json`.
/// Counts only add up, so the files of a run's shards merge into the file of the whole run
/// (``GRPCCoverage/merge(_:)``); a file is told from the OpenAPI coverage file by its `sources`.
package struct GRPCCoverageReportFormat: ReportFormat {
    package var displayName: String { "gRPC coverage" }
    /// Coverage needs nothing of any step: it is counted during the run.
    package var resultDetail: ResultDetail { .failures }

    /// The format.
    package init() {}

    /// The file as written: the coverage and its totals.
    package struct Document: Codable, Sendable, Hashable {
        /// The layout's version.
        package var version: Int
        /// `apitest`.
        package var tool = "apitest"
        /// The sources.
        package var sources: [GRPCCoverage.Source]
        /// Their totals.
        package var totals: GRPCCoverage.Totals

        /// The file of `coverage`.
        package init(_ coverage: GRPCCoverage) {
            version = GRPCCoverage.formatVersion
            sources = coverage.sources
            totals = coverage.totals
        }
    }

    /// What the JSON report carries as its `grpcCoverage`: the sources and their totals.
    struct Summary: Codable, Sendable, Hashable {
        var sources: [GRPCCoverage.Source]
        var totals: GRPCCoverage.Totals

        init(_ coverage: GRPCCoverage) {
            sources = coverage.sources
            totals = coverage.totals
        }

        /// The coverage it describes.
        var coverage: GRPCCoverage { GRPCCoverage(sources: sources) }
    }

    package func render(_ record: RunRecord) -> String {
        Self.render(record.summary.grpcCoverage ?? GRPCCoverage())
    }

    /// The file for `coverage`.
    package static func render(_ coverage: GRPCCoverage) -> String {
        CoverageFileText.render(Document(coverage))
    }

    /// Reads a coverage file back (to merge the files of several shards); `nil` when it is not one.
    package static func parse(_ data: Data) -> GRPCCoverage? {
        guard let document = try? JSONDecoder().decode(Document.self, from: data) else { return nil }
        return GRPCCoverage(sources: document.sources)
    }
}
