import APITestReporting
import APITestResults
import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation
import Synchronization

/// The run itself: what `apitest run` does with its options, however they were read (swift-argument-parser or
/// ``ArgumentScanner``).
extension RunCommand {
    /// Loads, selects and runs the suites, reports, and throws the exit status of a run that did not pass.
    func execute() async throws {
        // First, so that SIGINT and SIGTERM end apitest at every stage, loading and --wait-for included.
        let interrupts = InterruptHandler()
        defer { interrupts.stop() }
        let environment = ProcessInfo.processInfo.environment
        if let pause = environment["APITEST_TEST_REPORT_PAUSE"].flatMap(TimeInterval.init) {
            AtomicFileWriter.pauseBeforeRename.withLock { $0 = pause }
        }
        let stdout = StandardOutput.out
        let stderr = StandardOutput.error
        var inputs = OutputGuard()
        let loaded = try suites.loadSuites(
            environment: environment, errorOutput: stderr, recordingInputsIn: &inputs, selecting: true)
        // No report, no --curl file and no redirected standard output is a file the run reads.
        inputs.add(security)
        inputs.add(selection)
        try inputs.check(reports.outputs(environment: environment), errorOutput: stderr)
        // The model lives as long as the process: freeing it test by test would delay the exit after the last test.
        ProcessLifetime.keep(loaded)
        let selected = try selection.select(
            loaded, errorOutput: stderr, colored: suites.colored(stderr, environment: environment))
        ProcessLifetime.keep(selected.suites)
        var options = try RunOptions(jobs: jobs, requests: requests, security: security, transport: transport)
        if let maxResponseSize { options.maxResponseSize = maxResponseSize.size.bytes }
        if let decodeMemory { options.decodeMemoryBudget = decodeMemory.size.bytes }
        // The HAR report shows the headers as they went on the wire, and every attempt's exchange.
        options.recordsSentHeaders = verbose || reports.reportHar != nil
        options.recordsExchangeArchive = reports.reportHar != nil
        options.recordsRequestCommands = reports.curl != nil
        options.retries = retries
        options.snapshots.update = updateSnapshots
        options.snapshots.failsWhenMissing = SnapshotSettings.isCI(environment)
        // OTEL_EXPORTER_OTLP_ENDPOINT: spans over OTLP, and a traceparent on every request.
        let tracing = try Self.tracing(environment: environment, flakyFails: flaky != "pass", errorOutput: stderr)
        options.tracing = tracing?.trace
        var request = RunRequest(suites: selected.suites, options: options)
        request.warnsAboutSinglePin = !security.pins.isEmpty
        let preflight = RunService.preflight(request, loaded: loaded)
        guard try Self.report(preflight, to: stderr) else { throw ExitStatus.invalid.exitCode }
        // The policies the preflight built: the run reads no certificate file again.
        request.securityPolicies = preflight.policies
        if let waitFor { try await Self.waitForHosts(of: request, within: waitFor, errorOutput: stderr) }

        let console = ConsoleReporter(
            output: stdout, progress: stderr,
            colored: ANSIStyle.shouldColor(output: stdout, environment: environment, disabled: suites.noColor),
            verbosity: verbose ? .verbose : quiet ? .quiet : .normal)
        // The JSON report says which run and shard it is of, so that `apitest merge` can check the shards (the CTRF
        // report says it too). Without either, the selection's fingerprint and the suite files' digests are not
        // computed.
        let json =
            reports.reportJson == nil && reports.reportCtrf == nil
            ? JSONReportFormat()
            : JSONReportFormat(
                id: UUID().uuidString.lowercased(), shard: selected.shard.map { ($0.index, $0.count) },
                selection: selected.fingerprint, suiteFiles: selected.suiteFiles, suiteDigests: selected.suiteDigests)
        let fileReporters =
            try reports.makeReporters(json: json) + reports.annotationReporters(environment: environment)
        // The console first: its summary is out before the reports are written (which a second Ctrl-C may cut
        // short), and a report written through to standard output comes after it.
        let reporter = CompositeReporter([console] + fileReporters + (tracing?.reporters ?? []))

        AllocatorSettings.restoreDecommitDelay()
        let summary = await RunService.run(request, reporter: reporter) { cancel in interrupts.cancelRun(with: cancel) }
        interrupts.stop()
        stdout.flush()
        // The last spans, within the export timeout; an unreachable collector is one warning, not a failed run.
        if let tracing, let warning = await tracing.finish() { stderr.write(warning + "\n") }

        let writeErrors = fileReporters.compactMap { file in file.writeError.map { (file.format, $0) } }
        for (format, error) in writeErrors {
            stderr.write("error: cannot write the \(format.displayName) report '\(error.path)': \(error.reason)\n")
        }
        let snapshots = options.snapshots.written.value
        if updateSnapshots || snapshots > 0 {
            stderr.write("apitest: \(snapshots) snapshot\(snapshots == 1 ? "" : "s") written\n")
        }
        stderr.flush()

        if summary.interrupted { throw ExitStatus.interrupted.exitCode }
        if !writeErrors.isEmpty { throw ExitStatus.runtimeError.exitCode }
        if !summary.succeeded(flakyFails: flaky != "pass") { throw ExitStatus.testsFailed.exitCode }
    }

    /// Prints the preflight's findings; true when the run can go. Security problems are usage errors (the caller
    /// exits 2); XPath needing an absent libxml2 is a runtime problem, thrown here as exit 3.
    static func report(_ preflight: Preflight, to errorOutput: StandardOutput) throws -> Bool {
        var valid = true
        var missingLibrary: String?
        for problem in preflight.problems {
            switch problem {
            case .securityPolicy(let place, let message):
                errorOutput.write("error: \(place): security: \(message)\n")
                valid = false
            case .xpathUnavailable(let reason):
                missingLibrary = reason
            }
        }
        if valid { for warning in preflight.warnings { errorOutput.write("warning: --pin: \(warning)\n") } }
        errorOutput.flush()
        guard valid else { return false }
        if let reason = missingLibrary {
            errorOutput.write(
                "apitest: the selected tests use XPath, which needs libxml2: \(reason); nothing was run.\n")
            errorOutput.flush()
            throw ExitStatus.runtimeError.exitCode
        }
        return true
    }
}
