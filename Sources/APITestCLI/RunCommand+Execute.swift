import APITestHTTP
import APITestReporting
import APITestRunner
import APITestSuite
import ArgumentParser
import Foundation

/// The run itself: what `apitest run` does with its options, however they were read (swift-argument-parser or
/// ``RunArgumentScanner``).
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
        let loader = try suites.setLoader(environment: environment, errorOutput: stderr)
        guard let loaded = loader.load(paths: suites.paths) else { throw ExitStatus.invalid.exitCode }
        let selected = try selection.select(loaded, errorOutput: stderr)
        var options = RunOptions(jobs: jobs)
        if let maxResponseSize { options.maxResponseSize = maxResponseSize.size.bytes }
        options.recordsSentHeaders = verbose
        options.security = try security.overrides()
        guard security.checkPolicies(of: loaded, errorOutput: stderr) else { throw ExitStatus.invalid.exitCode }
        // libxml2 is loaded on first use; a system without it must not turn every XPath check into a failure.
        if selected.suites.contains(where: \.usesXPath), let reason = XPathDocument.libraryUnavailability() {
            stderr.write("apitest: the selected tests use XPath, which needs libxml2: \(reason); nothing was run.\n")
            stderr.flush()
            throw ExitStatus.runtimeError.exitCode
        }
        if let waitFor { try await Self.waitForHosts(of: selected.suites, within: waitFor, errorOutput: stderr) }

        var configuration = SessionConfiguration(maxConnections: jobs)
        if let timeout { configuration.timeout = timeout.duration }
        if let connectTimeout { configuration.connectTimeout = connectTimeout.duration }
        let session = SessionManager(configuration: configuration)
        let console = ConsoleReporter(
            output: stdout, progress: stderr,
            colored: ANSIStyle.shouldColor(output: stdout, environment: environment, disabled: suites.noColor),
            verbosity: verbose ? .verbose : quiet ? .quiet : .normal)
        let fileReporters = try reports.makeReporters()
        // The console first: its summary is out before the reports are written (which a second Ctrl-C may cut
        // short), and a report written through to standard output comes after it.
        let reporter = CompositeReporter([console] + fileReporters)

        let runner = Runner(transport: session, options: options)
        let runTask = Task { await runner.run(selected.suites, reporter: reporter) }
        interrupts.cancelRun { runTask.cancel() }
        let summary = await runTask.value
        interrupts.stop()
        session.shutdown()
        stdout.flush()

        let writeErrors = fileReporters.compactMap { file in file.writeError.map { (file.format, $0) } }
        for (format, error) in writeErrors {
            stderr.write("error: cannot write the \(format.displayName) report '\(error.path)': \(error.reason)\n")
        }
        stderr.flush()

        if summary.interrupted { throw ExitStatus.interrupted.exitCode }
        if !writeErrors.isEmpty { throw ExitStatus.runtimeError.exitCode }
        if !summary.succeeded { throw ExitStatus.testsFailed.exitCode }
    }
}
