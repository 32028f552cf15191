package import APITestResults
package import APITestSupport
package import Foundation

// MARK: - ReportMerger

/// `apitest merge`: one run record from the JSON reports of the shards of one run (`--shard K/N`), as a single
/// run would have written it: the same suites and tests in the same order, `setup` and `teardown` once per suite,
/// the counts recounted. Reports of different suite sets or selections, two reports of one shard, and a shard
/// with no report are refused (a missing shard only unless allowed). OpenAPI coverage files
/// (`--report-openapi-coverage`) given beside them are summed into the coverage of the whole run.
package enum ReportMerger {
    /// A report to merge: where it was read from, and its contents.
    package struct Input: Sendable {
        package var name: String
        package var data: Data

        /// The report `name` holding `data`.
        package init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    /// Why reports cannot be merged.
    package struct MergeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package enum Kind: Sendable, Hashable {
            /// No report was given.
            case nothingToMerge
            /// A file is not an apitest JSON report.
            case notAReport(String)
            /// A report does not say which run and selection it is of (written by an apitest before merge).
            case unidentified(String)
            /// Two reports come from different suite sets or selections.
            case differentSelections(String, String)
            /// Two reports ran different versions (texts) of one suite file.
            case differentSuiteVersions(suite: String, String, String)
            /// Two reports split the run into different numbers of shards (or one is not sharded).
            case differentShardCounts(String, String)
            /// Two reports are of the same shard.
            case overlapping(shard: String, String, String)
            /// Shards without a report.
            case missing([String])
            /// Load reports and run reports given together.
            case loadAndRunReports(String, String)
            /// Load reports and OpenAPI coverage files given together (a load writes no coverage, so the coverage
            /// belongs to another merge).
            case loadReportsAndCoverage(String, String)
            /// Two coverage files describe different versions of one OpenAPI document (its `openapi` version or its
            /// operations differ).
            case differentDocuments(document: String, String, String)
            /// Load reports and gRPC coverage files given together (a load writes no gRPC coverage either).
            case loadReportsAndGRPCCoverage(String, String)
            /// Two gRPC coverage files (or JSON reports) describe one schema source with different methods.
            case differentGRPCSources(source: String, method: String, String, String)
        }

        /// What is wrong.
        package var kind: Kind

        /// A sentence for people.
        package var message: String {
            switch kind {
            case .nothingToMerge: "no report to merge"
            case .notAReport(let file):
                "\(file): neither an apitest JSON report (--report-json) nor an OpenAPI coverage file "
                    + "(--report-openapi-coverage) nor a gRPC coverage file (--report-grpc-coverage) nor a CTRF "
                    + "report apitest wrote (--report-ctrf)"
            case .unidentified(let file):
                "\(file): the report does not say which run it is of (written by an apitest without merge); "
                    + "write the shards' reports again"
            case .differentSelections(let first, let second):
                "\(first) and \(second) are reports of different suite sets or selections"
            case .differentSuiteVersions(let suite, let first, let second):
                "\(first) and \(second) ran different versions of the suite file '\(suite)'"
            case .differentShardCounts(let first, let second):
                "\(first) and \(second) split the run into different numbers of shards"
            case .overlapping(let shard, let first, let second): "\(first) and \(second) are both shard \(shard)"
            case .missing(let shards):
                "\(shards.map { "shard \($0) missing" }.joined(separator: ", ")) (--allow-missing merges without)"
            case .loadAndRunReports(let load, let run):
                "\(load) is a load report and \(run) a run report: merge the reports of one kind of run"
            case .loadReportsAndCoverage(let load, let coverage):
                "\(load) is a load report and \(coverage) an OpenAPI coverage file, which a load does not write: "
                    + "merge the coverage files of runs on their own"
            case .differentDocuments(let document, let first, let second):
                "\(first) and \(second) cover different versions of the OpenAPI document '\(document)'"
            case .loadReportsAndGRPCCoverage(let load, let coverage):
                "\(load) is a load report and \(coverage) a gRPC coverage file, which a load does not write: "
                    + "merge the coverage files of runs on their own"
            case .differentGRPCSources(let source, let method, let first, let second):
                "\(first) and \(second) cover different declarations of the gRPC schema source '\(source)' "
                    + "(they differ in '\(method)')"
            }
        }

        package var description: String { message }
    }

    /// What a merge makes: the record every format renders, and the JSON report that keeps each shard's facts.
    package struct Merged: Sendable {
        /// The merged run; `nil` when only coverage files were merged.
        package var record: RunRecord?
        /// The JSON report's format for the merged run (it lists the reports merged).
        package var jsonFormat: JSONReportFormat
        /// The summed OpenAPI coverage; `nil` when no coverage file was given. The record's summary carries it too
        /// (the HTML report shows it).
        package var coverage: OpenAPICoverage?
        /// How many of the files were coverage files.
        package var coverageFiles = 0
        /// The summed gRPC coverage: of the gRPC coverage files when any was given, else of the JSON reports'
        /// `grpcCoverage`; `nil` when there is none. The record's summary carries it too.
        package var grpcCoverage: GRPCCoverage?
        /// How many of the files were gRPC coverage files.
        package var grpcCoverageFiles = 0
        /// The merged load run, when the files were load reports (`apitest load --report-json`). Its thresholds
        /// hold the verdicts of the absolute ones only (see ``loadThresholds``).
        package var load: LoadResult?
        /// Every threshold of the merged load run, in the order given, relative ones (`p99<+10%`) included: those
        /// are judged against a baseline run (`apitest merge --baseline`), never on the merged figures alone.
        package var loadThresholds: [LoadThreshold] = []
    }

    /// Merges `inputs`, JSON reports and OpenAPI coverage files in any order (each file is recognised by its
    /// contents); `allowMissing` merges even when shards have no report.
    package static func merge(_ inputs: [Input], allowMissing: Bool) throws(MergeError) -> Merged {
        guard !inputs.isEmpty else { throw MergeError(kind: .nothingToMerge) }
        var documents: [(name: String, document: JSONReportDocument, run: JSONReportDocument.Run)] = []
        var coverages: [(name: String, coverage: OpenAPICoverage)] = []
        var loads: [(name: String, document: LoadReportFormats.Document)] = []
        var grpcCoverages: [(name: String, coverage: GRPCCoverage)] = []
        for input in inputs {
            switch InputDocument.read(input.data) {
            case .coverage(let coverage):
                coverages.append((input.name, coverage))
            case .grpcCoverage(let coverage):
                grpcCoverages.append((input.name, coverage))
            case .load(let load):
                loads.append((input.name, load))
            case .run(let document):
                guard let run = document.run else { throw MergeError(kind: .unidentified(input.name)) }
                documents.append((input.name, document, run))
            case nil:
                throw MergeError(kind: .notAReport(input.name))
            }
        }
        if let load = loads.first {
            if let run = documents.first { throw MergeError(kind: .loadAndRunReports(load.name, run.name)) }
            // Refused rather than left out: a coverage file given here would otherwise be dropped unsaid.
            if let file = coverages.first { throw MergeError(kind: .loadReportsAndCoverage(load.name, file.name)) }
            if let file = grpcCoverages.first {
                throw MergeError(kind: .loadReportsAndGRPCCoverage(load.name, file.name))
            }
            var merged = Merged(record: nil, jsonFormat: JSONReportFormat(), coverage: nil)
            merged.load = try LoadReportMerger.merge(loads, allowMissing: allowMissing)
            merged.loadThresholds = loads.first?.document.load.thresholds.map(\.threshold) ?? []
            return merged
        }
        let coverage = try coverages.isEmpty ? nil : mergeCoverage(coverages)
        // The coverage files when given; else what the JSON reports carry.
        let grpcCoverage = try mergeGRPCCoverage(
            grpcCoverages.isEmpty
                ? documents.compactMap { entry in entry.document.grpcCoverage.map { (entry.name, $0.coverage) } }
                : grpcCoverages)
        guard !documents.isEmpty else {
            return Merged(
                record: nil, jsonFormat: JSONReportFormat(), coverage: coverage, coverageFiles: coverages.count,
                grpcCoverage: grpcCoverage, grpcCoverageFiles: grpcCoverages.count)
        }
        var merged = try mergeReports(documents, allowMissing: allowMissing)
        merged.coverage = coverage
        merged.coverageFiles = coverages.count
        merged.record?.summary.coverage = coverage
        merged.grpcCoverage = grpcCoverage
        merged.grpcCoverageFiles = grpcCoverages.count
        merged.record?.summary.grpcCoverage = grpcCoverage
        return merged
    }

    /// Sums the coverage files, refusing two that describe one document differently: the shards of one run load
    /// the same documents, so their declared operations and responses are the same.
    static func mergeCoverage(
        _ coverages: [(name: String, coverage: OpenAPICoverage)]
    ) throws(MergeError) -> OpenAPICoverage {
        var shapes: [String: (name: String, shape: [String])] = [:]
        for (name, coverage) in coverages {
            for document in coverage.documents {
                let shape =
                    [document.openapi]
                    + document.operations.map { operation in
                        "\(operation.method) \(operation.path) "
                            + operation.responses.map(\.status).joined(separator: ",")
                    }
                if let earlier = shapes[document.file] {
                    guard earlier.shape == shape else {
                        throw MergeError(kind: .differentDocuments(document: document.file, earlier.name, name))
                    }
                } else {
                    shapes[document.file] = (name, shape)
                }
            }
        }
        var total = OpenAPICoverage()
        for (_, coverage) in coverages { total.merge(coverage) }
        return total
    }

    /// Merges the shards' JSON reports.
    static func mergeReports(
        _ documents: [(name: String, document: JSONReportDocument, run: JSONReportDocument.Run)],
        allowMissing: Bool
    ) throws(MergeError) -> Merged {
        var documents = documents
        let first = documents[0]
        var byShard: [Int: String] = [:]
        for entry in documents {
            guard entry.run.selection == first.run.selection else {
                throw MergeError(kind: .differentSelections(first.name, entry.name))
            }
            if let digests = entry.run.suiteDigests, let firstDigests = first.run.suiteDigests,
                let index = digests.indices.first(where: {
                    $0 < firstDigests.count && $0 < first.run.suiteFiles.count && digests[$0] != firstDigests[$0]
                })
            {
                throw MergeError(
                    kind: .differentSuiteVersions(suite: first.run.suiteFiles[index], first.name, entry.name))
            }
            guard entry.run.shard?.count == first.run.shard?.count else {
                throw MergeError(kind: .differentShardCounts(first.name, entry.name))
            }
            let index = entry.run.shard?.index ?? 1
            if let earlier = byShard[index] {
                let count = entry.run.shard?.count ?? 1
                throw MergeError(kind: .overlapping(shard: "\(index)/\(count)", earlier, entry.name))
            }
            byShard[index] = entry.name
        }
        let count = first.run.shard?.count ?? 1
        let missing = (1...count).filter { byShard[$0] == nil }.map { "\($0)/\(count)" }
        if !missing.isEmpty && !allowMissing { throw MergeError(kind: .missing(missing)) }
        documents.sort { ($0.run.shard?.index ?? 1) < ($1.run.shard?.index ?? 1) }

        // Suites in the whole selection's order; each suite's tests in file order, setup first and teardown last,
        // each once (the worst of the shards' when they differ).
        var suites: [String: (name: String, file: String, results: [TestResult], notRun: [String])] = [:]
        var order: [String] = []
        for (_, document, _) in documents {
            for suite in document.suites {
                if suites[suite.file] == nil {
                    suites[suite.file] = (suite.name, suite.file, [], [])
                    order.append(suite.file)
                }
                suites[suite.file]?.results += suite.results
                suites[suite.file]?.notRun += suite.notRun
            }
        }
        let rank = Dictionary(first.run.suiteFiles.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        func suiteRank(_ file: String) -> Int {
            rank[file] ?? rank.first { file.hasSuffix("/" + $0.key) || file == $0.key }?.value ?? Int.max
        }
        order = order.enumerated().sorted {
            let (a, b) = (suiteRank($0.element), suiteRank($1.element))
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
        var merged: [RunRecord.Suite] = []
        for file in order {
            guard let suite = suites[file] else { continue }
            var hooks: [String: TestResult] = [:]
            var tests: [TestResult] = []
            for result in suite.results {
                if result.name == "setup" || result.name == "teardown" {
                    if let kept = hooks[result.name], severity(kept.status) >= severity(result.status) { continue }
                    hooks[result.name] = result
                } else {
                    tests.append(result)
                }
            }
            tests.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            let results = (hooks["setup"].map { [$0] } ?? []) + tests + (hooks["teardown"].map { [$0] } ?? [])
            merged.append(RunRecord.Suite(name: suite.name, file: suite.file, results: results, notRun: suite.notRun))
        }
        var summary = RunSummary(passed: 0, failed: 0, errored: 0, skipped: 0, cancelled: 0, duration: .zero)
        for result in merged.flatMap(\.results) { summary.record(result) }
        // The shards ran side by side: the merged run took as long as the longest.
        summary.duration = .milliseconds(documents.map(\.document.durationMs).max() ?? 0)
        summary.interrupted = documents.contains { $0.document.interrupted }
        let record = RunRecord(
            suites: merged, summary: summary, startedAt: documents.map(\.document.startDate).min() ?? Date(),
            hostname: first.document.hostname)
        var format = JSONReportFormat(
            run: JSONReportDocument.Run(
                id: UUID().uuidString.lowercased(), shard: nil, selection: first.run.selection,
                suiteFiles: first.run.suiteFiles, suiteDigests: first.run.suiteDigests))
        format.mergedRuns = documents.map { entry in
            JSONReportDocument.MergedRun(
                id: entry.run.id, shard: entry.run.shard, hostname: entry.document.hostname,
                startedAt: entry.document.startedAt, durationMs: entry.document.durationMs,
                summary: entry.document.summary)
        }
        return Merged(record: record, jsonFormat: format, coverage: nil)
    }

    /// How bad a status is, to keep the worst of two `setup` or `teardown` results.
    private static func severity(_ status: TestStatus) -> Int {
        switch status {
        case .passed: 0
        case .skipped: 1
        case .failed: 2
        case .errored: 3
        case .cancelled: 4
        }
    }
}
