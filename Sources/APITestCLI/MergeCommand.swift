import APITestReporting
import APITestResults
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest merge`: the reports of a whole run from the JSON reports of its shards.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of a sharded run (--shard K/N) into the reports of the whole run.",
        discussion: """
            Reads the JSON reports each shard wrote (--report-json) and writes any of the report formats as a \
            single run would have written them: the same suites and tests in the same order, setup and teardown \
            once per suite, the counts recounted; the merged JSON report lists the reports it was made of. \
            Reports of different suite sets or selections, or two reports of one shard, are refused; a shard \
            without a report is an error unless --allow-missing.

            The shards' CTRF reports (--report-ctrf) merge the same way as their JSON reports, and any format can \
            be written from either.

            OpenAPI coverage files the shards wrote (--report-openapi-coverage) may be given too, in any order: \
            their counts are summed into --report-openapi-coverage, and the merged HTML report shows them. Each \
            file is recognised by its contents.

            gRPC coverage files (--report-grpc-coverage) are summed the same way into --report-grpc-coverage \
            (without them, the gRPC coverage the JSON reports carry is summed); two that declare one schema \
            source's methods differently are refused.

            A merged report that is one of the files being merged is a usage error: nothing is written.

            Load reports (apitest load --shard K/N --report-json) merge into one load run; its absolute \
            thresholds are measured again on the merged figures, and relative ones (p99<+10%) need --baseline, \
            the earlier run they are judged against.

            Exit codes: 0 merged and every test passed, 1 merged and some test failed or errored (or was flaky, \
            unless --flaky pass), 2 reports that \
            cannot be merged or a usage error, 3 a report file could not be written.
            """)

    @Argument(
        help: ArgumentHelp(
            "The shards' JSON reports and OpenAPI and gRPC coverage files.", valueName: "file.json"),
        completion: .file(extensions: ["json"]))
    var reports: [String] = []

    @Flag(help: "Merge even when some shards have no report (each is named on stderr).")
    var allowMissing = false

    @Option(
        help: ArgumentHelp(
            "Whether a flaky test (failed, then passed when run again) makes the exit code 1: fail (the default, "
                + "as in run) or pass.", valueName: "fail|pass"))
    var flaky: String = "fail"

    @Option(
        help: ArgumentHelp(
            "For load reports: the earlier load JSON report the merged run is compared with, side by side, and "
                + "its relative thresholds (p99<+10%) judged against, as 'apitest load --baseline' does.",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var baseline: String?

    @OptionGroup var output: ReportOptions

    mutating func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("give the JSON reports of the shards to merge") }
        guard ["fail", "pass"].contains(flaky) else {
            throw ValidationError("--flaky must be fail or pass, got '\(flaky)'")
        }
        if output.reportHar != nil {
            // The shards' reports do not hold what an archive shows (the headers sent, the timings, binary bodies).
            throw ValidationError(
                "merge does not write --report-har: HAR files are not merged; each shard's run writes its own")
        }
        if output.curl != nil {
            throw ValidationError(
                "merge writes --report-junit, --report-tap, --report-json, --report-html, --report-ctrf, "
                    + "--report-openapi-coverage and --report-grpc-coverage only")
        }
    }

    func run() throws {
        let stderr = StandardOutput.error
        // No merged report (nor a redirected standard output) is one of the reports being merged.
        var files = OutputGuard()
        for path in reports { files.add(path, as: .argument("the report being merged")) }
        if let baseline { files.add(baseline, as: .flag("--baseline")) }
        try files.check(
            output.requested.map { ($0.flag, $0.path) }, errorOutput: stderr, consequence: "nothing was merged")
        var inputs: [ReportMerger.Input] = []
        for path in reports {
            guard let data = FileManager.default.contents(atPath: path) else {
                stderr.write("error: cannot read '\(path)'\n")
                stderr.flush()
                throw ExitStatus.invalid.exitCode
            }
            inputs.append(ReportMerger.Input(name: path, data: data))
        }
        let merged: ReportMerger.Merged
        do {
            merged = try ReportMerger.merge(inputs, allowMissing: allowMissing)
        } catch {
            stderr.write("error: \(error.message)\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        if let load = merged.load {
            try writeLoad(load, thresholds: merged.loadThresholds)
            return
        }
        if baseline != nil {
            stderr.write("error: --baseline compares load reports; these are reports of 'apitest run'\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        let record = merged.record
        let wantsRunReports = [
            output.reportJunit, output.reportTap, output.reportJson, output.reportHtml, output.reportCtrf,
        ].contains {
            $0 != nil
        }
        if wantsRunReports && record == nil {
            stderr.write("error: no JSON report (--report-json) among the files: only coverage files to merge\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        if output.reportOpenAPICoverage != nil && merged.coverage == nil {
            stderr.write("error: --report-openapi-coverage: no OpenAPI coverage file among the files to merge\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        if output.reportGRPCCoverage != nil && merged.grpcCoverage == nil {
            stderr.write(
                "error: --report-grpc-coverage: no gRPC coverage among the files to merge (no gRPC coverage file, "
                    + "no JSON report carrying one)\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        var failed = false
        for (destination, format) in try output.destinations(json: merged.jsonFormat) {
            let text: String
            if format is OpenAPICoverageReportFormat, let coverage = merged.coverage {
                text = OpenAPICoverageReportFormat.render(coverage)
            } else if format is GRPCCoverageReportFormat, let coverage = merged.grpcCoverage {
                text = GRPCCoverageReportFormat.render(coverage)
            } else if let record {
                text = format.render(record)
            } else {
                continue
            }
            do {
                try destination.write(Array(text.utf8))
            } catch {
                stderr.write("error: cannot write the \(format.displayName) report '\(error.path)': \(error.reason)\n")
                failed = true
            }
        }
        let out = StandardOutput.out
        if let summary = record?.summary {
            let count = reports.count - merged.coverageFiles - merged.grpcCoverageFiles
            out.write(
                "merged \(count) report\(count == 1 ? "" : "s"): \(summary.total) tests, "
                    + "\(summary.passed) passed, \(summary.failed) failed, \(summary.errored) errored, "
                    + "\(summary.skipped) skipped" + (summary.flaky > 0 ? ", \(summary.flaky) flaky" : "") + "\n")
        }
        if let coverage = merged.coverage {
            let totals = coverage.totals
            out.write(
                "merged \(merged.coverageFiles) coverage file\(merged.coverageFiles == 1 ? "" : "s"): "
                    + "\(totals.operationsHit) of \(totals.operations) operations and \(totals.responsesHit) of "
                    + "\(totals.responses) responses covered\n")
        }
        if merged.grpcCoverageFiles > 0, let coverage = merged.grpcCoverage {
            let totals = coverage.totals
            let files = merged.grpcCoverageFiles
            out.write(
                "merged \(files) gRPC coverage file\(files == 1 ? "" : "s"): \(totals.methodsCalled) of "
                    + "\(totals.methods) methods called\n")
        }
        out.flush()
        stderr.flush()
        if failed { throw ExitStatus.runtimeError.exitCode }
        if let summary = record?.summary,
            summary.failed + summary.errored + summary.cancelled > 0 || (flaky == "fail" && summary.flaky > 0)
        {
            throw ExitStatus.testsFailed.exitCode
        }
    }

    /// Writes the merged load run: its summary on standard output, `--report-json`, `--report-junit` and
    /// `--report-html`; with `--baseline`, compared with that run and its relative `thresholds` judged (a relative
    /// threshold without `--baseline` is a usage error, as in `apitest load`).
    private func writeLoad(_ merged: LoadResult, thresholds: [LoadThreshold]) throws {
        let stderr = StandardOutput.error
        var load = merged
        var comparison: LoadBaselineComparison?
        let relative = thresholds.filter { $0.relative != nil }
        if let baseline {
            do {
                let earlier = try LoadCommand.readBaseline(baseline, tests: load.tests.map { ($0.suite, $0.name) })
                comparison = LoadCommand.compare(&load, with: earlier, file: baseline, thresholds: thresholds)
            } catch {
                stderr.write("error: \(error.description)\n")
                stderr.flush()
                throw ExitStatus.invalid.exitCode
            }
        } else if !relative.isEmpty {
            stderr.write("error: \(LoadBaselineProblem.relativeWithoutBaseline(relative.map(\.text)).description)\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        if output.reportTap != nil || output.reportOpenAPICoverage != nil || output.reportCtrf != nil
            || output.reportGRPCCoverage != nil
        {
            stderr.write("error: load reports merge into --report-json, --report-junit and --report-html only\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        let files = try LoadReportFiles.destinations(
            json: output.reportJson, junit: output.reportJunit, html: output.reportHtml)
        let count = reports.count
        StandardOutput.out.write("merged \(count) load report\(count == 1 ? "" : "s")\n" + LoadReportText.summary(load))
        if let comparison { StandardOutput.out.write(LoadReportText.comparison(comparison)) }
        StandardOutput.out.flush()
        guard LoadReportFiles.write(load, to: files, errorOutput: stderr, baseline: comparison) else {
            throw ExitStatus.runtimeError.exitCode
        }
        if !load.thresholdsHold { throw ExitStatus.testsFailed.exitCode }
    }
}
