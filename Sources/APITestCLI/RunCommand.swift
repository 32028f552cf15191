import APITestHTTP
import APITestReporting
import APITestResults
import APITestRunner
import APITestSuite
import ArgumentParser
import Foundation

/// `apitest run`: load suites, run their tests concurrently, report.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the tests of suite files and folders.",
        discussion: """
            Folders are searched recursively for *.yaml and *.yml files. Every suite is loaded and checked before \
            anything runs; one invalid file stops the run with exit code 2.

            Examples:
              apitest run examples/
              apitest run api.yaml --var port=8080 --jobs 20
              apitest run suites/ --report-junit out/junit.xml --report-html out/report.html
              apitest run suites/ --tag smoke --exclude-tag slow --filter '^Users API › '
              apitest run suites/ --shard 2/4 --wait-for 30s --report-junit out/junit-2.xml

            Selection (--filter, --tag, --exclude-tag, --shard) is the same as `apitest list`'s, which prints the \
            tests a run would execute. Once a host cannot be connected to (refused, not found, connect timeout), \
            the remaining tests that target it error at once with that cause.

            Reports (JUnit XML, TAP, JSON, HTML) are written atomically when the run ends, also after Ctrl-C; a \
            report that cannot be written is an error (exit code 3) once the others are written.
            """
    )

    @OptionGroup var suites: SuiteOptions

    @Option(name: [.short, .long], help: "Tests in flight at once (the steps of a test always run in order).")
    var jobs: Int = 10

    @Option(help: ArgumentHelp("Default time allowed per request (e.g. 500ms, 10s).", valueName: "duration"))
    var timeout: DurationArgument?

    @Option(help: ArgumentHelp("Time allowed to connect (e.g. 2s).", valueName: "duration"))
    var connectTimeout: DurationArgument?

    @Flag(name: [.short, .long], help: "Show every request and response with headers and bodies (secrets masked).")
    var verbose = false

    @Flag(name: [.short, .long], help: "Show only failures and the summary.")
    var quiet = false

    @OptionGroup(title: "Reports") var reports: ReportOptions

    @OptionGroup(title: "Selection") var selection: SelectionOptions

    @Option(
        help: ArgumentHelp(
            "Before running, wait up to DURATION (e.g. 30s) until every host the selected tests use accepts TCP "
                + "connections; otherwise stop with exit code 3 and run nothing.", valueName: "duration"))
    var waitFor: DurationArgument?

    @OptionGroup(title: "TLS (each flag replaces the suites' security: setting of the same name)")
    var security: SecurityFlags

    mutating func validate() throws {
        guard jobs >= 1 && jobs <= 1000 else { throw ValidationError("--jobs must be between 1 and 1000") }
        guard !(verbose && quiet) else { throw ValidationError("--verbose and --quiet cannot be used together") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let stdout = StandardOutput.out
        let stderr = StandardOutput.error
        let loader = try suites.setLoader(environment: environment, errorOutput: stderr)
        guard let loaded = loader.load(paths: suites.paths) else { throw ExitStatus.invalid.exitCode }
        let selected = try selection.select(loaded, errorOutput: stderr)
        if let waitFor { try await Self.waitForHosts(of: selected.suites, within: waitFor, errorOutput: stderr) }

        var options = RunOptions(jobs: jobs)
        options.security = try security.overrides()
        guard security.checkPolicies(of: loaded, errorOutput: stderr) else { throw ExitStatus.invalid.exitCode }
        var configuration = SessionConfiguration(maxConnections: jobs)
        if let timeout { configuration.timeout = timeout.duration }
        if let connectTimeout { configuration.connectTimeout = connectTimeout.duration }
        let session = SessionManager(configuration: configuration)
        let console = ConsoleReporter(
            output: stdout, progress: stderr,
            colored: ANSIStyle.shouldColor(output: stdout, environment: environment, disabled: suites.noColor),
            verbosity: verbose ? .verbose : quiet ? .quiet : .normal)
        let fileReporters = reports.makeReporters()
        let reporter = CompositeReporter(fileReporters + [console])

        let runner = Runner(session: session, options: options)
        let runTask = Task { await runner.run(selected.suites, reporter: reporter) }
        let interrupts = InterruptHandler { runTask.cancel() }
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
