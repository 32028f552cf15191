import APITestSuite
import ArgumentParser

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
              apitest run suites/ --report-junit out/junit.xml \\
                  --report-html out/report.html
              apitest run suites/ --tag smoke --exclude-tag slow --filter '^Users API › '
              apitest run suites/ --shard 2/4 --wait-for 30s --report-junit out/junit-2.xml

            Selection (--filter, --tag, --exclude-tag, --shard) is the same as `apitest list`'s, which prints the \
            tests a run would execute. Once a host cannot be connected to (refused, not found, connect timeout), \
            the remaining tests that target it error at once with that cause.

            Reports (JUnit XML, TAP, JSON, HTML) are written atomically when the run ends, also after Ctrl-C; a \
            device, a FIFO or /dev/stdout is written through, never replaced. A report path that cannot be written \
            is a usage error (exit code 2) before anything runs, and so is a report (or --curl, or standard output \
            redirected to a file) that is a file the run reads: a suite, a file it includes or names, a \
            --variables-file. A second Ctrl-C quits at once, leaving no temporary file.

            With OTEL_EXPORTER_OTLP_ENDPOINT set (and the other OTEL_* variables), the run exports a span per run, \
            suite, test and step over OTLP/HTTP, and every request carries a W3C traceparent naming its step's \
            span (docs/tracing.md).
            """
    )

    @OptionGroup var suites: SuiteOptions

    @Option(name: [.short, .long], help: "Tests in flight at once (the steps of a test always run in order).")
    var jobs: Int = 10

    @OptionGroup var requests: RequestOptions

    @Option(
        help: ArgumentHelp(
            "The most bytes of a response body kept in memory for checks (e.g. 200MB, 64MiB; 0 for no limit; "
                + "default 64MiB); a suite's defaults.maxResponseSize wins. Bodies only checked for size or "
                + "digests are not kept and not limited.", valueName: "size"))
    var maxResponseSize: ByteSizeArgument?

    @Option(
        help: ArgumentHelp(
            "The memory that large response bodies being checked may take at once across concurrent tests "
                + "(e.g. 512MiB; default 1GiB; 0 for one large body at a time); bodies beyond it wait their turn.",
            valueName: "size"))
    var decodeMemory: ByteSizeArgument?

    @Option(
        help: ArgumentHelp(
            "Run a test that fails or errors again, afresh, up to N times (0 to 100; a test's retries: wins); one "
                + "that then passes is reported flaky. Not a step's retry:.", valueName: "n"))
    var retries: Int = 0

    @Option(
        help: ArgumentHelp(
            "Whether a flaky test (failed, then passed when run again) fails the run: fail (exit code 1, the "
                + "default) or pass.", valueName: "fail|pass"))
    var flaky: String = "fail"

    @Flag(
        help: ArgumentHelp(
            "Write every snapshot (expect.snapshot) that is missing or differs, instead of failing on a "
                + "difference; says how many were written."))
    var updateSnapshots = false

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

    @OptionGroup(title: "Transport (each flag replaces the suites' setting of the same name)")
    var transport: TransportFlags

    /// The checks of `run`'s own options (the option groups check theirs).
    mutating func validate() throws {
        guard jobs >= 1 && jobs <= 1000 else { throw ValidationError("--jobs must be between 1 and 1000") }
        guard !(verbose && quiet) else { throw ValidationError("--verbose and --quiet cannot be used together") }
        guard (0...TestCase.maxRetries).contains(retries) else {
            throw ValidationError("--retries must be between 0 and \(TestCase.maxRetries), got \(retries)")
        }
        guard ["fail", "pass"].contains(flaky) else {
            throw ValidationError("--flaky must be fail or pass, got '\(flaky)'")
        }
    }

    func run() async throws {
        try await execute()
    }
}
