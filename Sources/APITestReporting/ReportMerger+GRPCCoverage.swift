import APITestResults

// MARK: - Merging gRPC coverage

extension ReportMerger {
    /// Sums the gRPC coverage of `coverages` (coverage files, or the JSON reports' `grpcCoverage`), refusing two
    /// that describe one schema source with different methods: the shards of one run load the same descriptors.
    /// `nil` when there is none.
    static func mergeGRPCCoverage(
        _ coverages: [(name: String, coverage: GRPCCoverage)]
    ) throws(MergeError) -> GRPCCoverage? {
        guard let first = coverages.first else { return nil }
        var total = first.coverage
        // Which file first described each source, to name both sides of a conflict.
        var firstNamed: [String: String] = [:]
        for source in first.coverage.sources { firstNamed["\(source.kind.rawValue) \(source.name)"] = first.name }
        for (name, coverage) in coverages.dropFirst() {
            do throws(GRPCCoverage.MergeConflict) {
                try total.merge(coverage)
            } catch {
                let earlier = firstNamed["\(error.kind.rawValue) \(error.source)"] ?? first.name
                throw MergeError(
                    kind: .differentGRPCSources(source: error.source, method: error.method, earlier, name))
            }
            for source in coverage.sources where firstNamed["\(source.kind.rawValue) \(source.name)"] == nil {
                firstNamed["\(source.kind.rawValue) \(source.name)"] = name
            }
        }
        return total
    }
}
