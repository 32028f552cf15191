import APITestLoad
import APITestReporting
import APITestResults
import APITestRunner
import APITestSupport
import ArgumentParser
import Foundation

// MARK: - Running

extension LoadCommand {
    /// Where the requested reports go, checked as `run` checks its reports.
    func reportDestinations() throws -> [(kind: LoadReportFiles.Kind, destination: ReportDestination)] {
        try LoadReportFiles.destinations(json: reportJson, junit: reportJunit, html: reportHtml)
    }

    /// Loads and selects the suites, hands the load to `LoadService`, shows it live, reports, and throws the exit
    /// status of a load that did not pass.
    func run() async throws {
        let interrupts = InterruptHandler()
        defer { interrupts.stop() }
        let environment = ProcessInfo.processInfo.environment
        let stdout = StandardOutput.out
        let stderr = StandardOutput.error
        var inputs = OutputGuard()
        let loaded = try suites.loadSuites(
            environment: environment, errorOutput: stderr, recordingInputsIn: &inputs, selecting: true)
        // No report and no redirected standard output is a file the load reads.
        inputs.add(security)
        inputs.add(selection)
        if let baseline { inputs.add(baseline, as: .flag("--baseline")) }
        let outputs = [("--report-json", reportJson), ("--report-junit", reportJunit), ("--report-html", reportHtml)]
        try inputs.check(outputs.compactMap { flag, path in path.map { (flag, $0) } }, errorOutput: stderr)
        // --shard splits the load, not the tests: every generator picks from the whole selection.
        let selected = try selection.select(
            loaded, errorOutput: stderr, colored: suites.colored(stderr, environment: environment), sharded: false,
            sends: SelectionOptions.sendsInLoad)
        var request = LoadRequest(
            suites: selected.suites, loaded: loaded, shape: shape,
            run: try RunOptions(jobs: 1, requests: requests, security: security, transport: transport))
        request.shard = try selection.selection().shard
        request.warnsAboutSinglePin = !security.pins.isEmpty
        var load: LoadPreparation.Ready
        switch try Self.prepare(request) {
        case .ready(let ready):
            load = ready
        case .nothingToPick:
            stderr.write(
                "apitest: no selected test can be picked (each is skipped or has load: {weight: 0}); nothing to run.\n")
            stderr.flush()
            throw ExitStatus.noTestsSelected.exitCode
        case .shardWithoutUser(let shard, let users):
            stderr.write("apitest: shard \(shard) has no virtual user of \(users).\n")
            stderr.flush()
            return
        }
        let baselineRun = try readBaseline(for: load)
        // Relative thresholds are judged against the baseline at the end, not by the run.
        let thresholds = load.options.thresholds
        load.options.thresholds = thresholds.filter { $0.relative == nil }
        guard try RunCommand.report(load.preflight, to: stderr) else { throw ExitStatus.invalid.exitCode }
        let reports = try reportDestinations()

        let live = !quiet && isatty(STDERR_FILENO) == 1
        var result = await LoadService.run(
            load,
            progress: { progress in
                guard live else { return }
                let line = LoadReportText.liveLine(
                    elapsed: progress.elapsed, planned: progress.planned, second: progress.second,
                    counts: progress.counts)
                stderr.write("\r\u{1B}[2K" + line)
                stderr.flush()
            }
        ) { cancel in interrupts.cancelRun(with: cancel) }
        interrupts.stop()
        if live {
            stderr.write("\r\u{1B}[2K")
            stderr.flush()
        }
        let comparison = baselineRun.map { baselineRun in
            Self.compare(&result, with: baselineRun, file: baseline ?? "", thresholds: thresholds)
        }
        stdout.write(LoadReportText.summary(result))
        if let comparison { stdout.write(LoadReportText.comparison(comparison)) }
        stdout.flush()

        let written = LoadReportFiles.write(result, to: reports, errorOutput: stderr, baseline: comparison)
        if result.interrupted { throw ExitStatus.interrupted.exitCode }
        if !written { throw ExitStatus.runtimeError.exitCode }
        if !result.thresholdsHold { throw ExitStatus.testsFailed.exitCode }
    }

    /// `LoadService.prepare(_:)`, its problem as a usage error (`validate()` has already checked the shape).
    private static func prepare(_ request: LoadRequest) throws -> LoadPreparation {
        do {
            return try LoadService.prepare(request)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
