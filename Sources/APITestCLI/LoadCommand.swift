import APITestLoad
import APITestReporting
import APITestResults
import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest load`: the selected tests of suites run as a load test, at an arrival rate (open model) or by virtual
/// users (closed model), with latency percentiles from HDR histograms and thresholds that decide the exit code.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Run the tests of suites as a load test: an arrival rate or virtual users, percentiles, thresholds.",
        discussion: """
            Picks the selected tests over and over (each as often as its weight; every test weighs 1) and runs each \
            as `apitest run` runs it: its steps, captures, checks and auth. Each suite's setup runs once before the \
            load starts and its teardown once after it ends (also after Ctrl-C).

            Open model (--rate, --stage): iterations arrive on a schedule whatever the server does; an iteration's \
            latency counts from the moment it was meant to start, so a server that stalls shows in the percentiles \
            (no coordinated omission), and iterations that could not start on time are counted as late. Closed model \
            (--vus): each virtual user starts its next iteration when its last one ends.

            Examples:
              apitest load suites/ --rate 2000/s --duration 60s --threshold 'p95<20ms' --threshold 'errors<0.1%'
              apitest load suites/ --stage 30s:500/s --stage 60s:2000/s --stage 10s:0/s
              apitest load suites/ --vus 50 --duration 30s --tag smoke
              apitest load suites/ --rate 4000/s --duration 60s --shard 2/4 --report-json load-2.json

            Thresholds: pNN (p95, p99.9), max, min, mean against a latency (us, ms, s); errors against a share of \
            the completed iterations (%, or a fraction); rate against the completed iterations per second. \
            --abort-on-fail stops the run the second a latency or errors threshold fails.

            Without any threshold (--threshold or a suite's load: thresholds), errors<=0 applies: every iteration \
            must pass.

            Exit codes: 0 every threshold held, 1 a threshold failed, 2 a usage error or invalid suites, \
            3 a report could not be written, 4 no selected test can be picked, 130 interrupted.
            """)

    @OptionGroup var suites: SuiteOptions

    @Option(help: ArgumentHelp("Open model: iterations per second (2000/s, 2000, 120/m).", valueName: "rate"))
    var rate: String?

    @Option(help: ArgumentHelp("How long the load lasts (e.g. 60s, 2m); with --rate or --vus.", valueName: "duration"))
    var duration: DurationArgument?

    @Option(
        help: ArgumentHelp(
            "Open model stage DURATION:RATE (repeat): the rate goes linearly to RATE over DURATION, from --rate (or 0).",
            valueName: "duration:rate"))
    var stage: [String] = []

    @Option(help: ArgumentHelp("Closed model: this many virtual users.", valueName: "n"))
    var vus: Int?

    @Option(
        help: ArgumentHelp(
            "Open model: at most this many iterations at once (default 100); an arrival that finds them all busy "
                + "starts late.", valueName: "n"))
    var maxInFlight: Int = 100

    @Option(help: ArgumentHelp("A pass/fail rule (repeat): p95<20ms, errors<0.1%, rate>1900/s.", valueName: "rule"))
    var threshold: [String] = []

    @Flag(help: "Stop as soon as a latency or errors threshold fails (checked once a second).")
    var abortOnFail = false

    @OptionGroup var requests: RequestOptions

    @Flag(name: [.short, .long], help: "No live line, only the summary.")
    var quiet = false

    @Option(help: ArgumentHelp("Write the JSON load report (histograms included) to FILE.", valueName: "file"))
    var reportJson: String?

    @Option(help: ArgumentHelp("Write JUnit XML with one test case per threshold to FILE.", valueName: "file"))
    var reportJunit: String?

    @Option(
        help: ArgumentHelp(
            "Write a self-contained HTML page (each second's completions and latencies, the percentile "
                + "distribution, the thresholds and the tests) to FILE.", valueName: "file"))
    var reportHtml: String?

    @OptionGroup(title: "Selection (--shard K/N runs 1/N of the rate or of the virtual users)")
    var selection: SelectionOptions

    @OptionGroup(title: "TLS (each flag replaces the suites' security: setting of the same name)")
    var security: SecurityFlags

    @OptionGroup(title: "Transport (each flag replaces the suites' setting of the same name)")
    var transport: TransportFlags

    mutating func validate() throws {
        _ = try plan()
        for text in threshold { _ = try Self.threshold(text) }
        guard (1...100_000).contains(maxInFlight) else {
            throw ValidationError("--max-in-flight must be between 1 and 100000")
        }
        if selection.shardTimings != nil { throw ValidationError("--shard-timings is for run and list, not load") }
        _ = try reportDestinations()
    }

    /// Where the requested reports go, checked as `run` checks its reports.
    func reportDestinations() throws -> [(kind: LoadReportFiles.Kind, destination: ReportDestination)] {
        try LoadReportFiles.destinations(json: reportJson, junit: reportJunit, html: reportHtml)
    }

    // MARK: - Parsing

    /// The model the flags describe, before sharding.
    func plan() throws -> LoadOptions.Model {
        if let vus {
            guard rate == nil, stage.isEmpty else {
                throw ValidationError("--vus (closed model) cannot be used with --rate or --stage (open model)")
            }
            guard (1...100_000).contains(vus) else { throw ValidationError("--vus must be between 1 and 100000") }
            guard let duration else { throw ValidationError("--vus needs --duration") }
            return .closed(virtualUsers: vus, duration: duration.duration)
        }
        let startRate = try rate.map { try Self.rate($0, flag: "--rate") }
        if stage.isEmpty {
            guard let startRate else {
                throw ValidationError("give --rate RATE --duration D, --stage D:RATE (repeat), or --vus N --duration D")
            }
            guard let duration else { throw ValidationError("--rate needs --duration (or --stage)") }
            guard duration.duration > .zero else { throw ValidationError("--duration must be more than 0") }
            let schedule = LoadSchedule(rate: startRate, duration: duration.duration)
            guard schedule.totalIterations > 0 else {
                throw ValidationError("--rate \(rate ?? "") for \(duration.text) starts no iteration")
            }
            return .open(schedule)
        }
        guard duration == nil else {
            throw ValidationError("--duration and --stage cannot be used together: the stages make the duration")
        }
        let stages = try stage.map { text -> LoadSchedule.Stage in
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let length = DurationArgument(argument: parts[0]) else {
                throw ValidationError("--stage '\(text)': expected DURATION:RATE, such as 30s:100/s")
            }
            return LoadSchedule.Stage(duration: length.duration, target: try Self.rate(parts[1], flag: "--stage"))
        }
        guard stages.contains(where: { $0.duration > .zero }) else {
            throw ValidationError("--stage: the stages last no time")
        }
        let schedule = LoadSchedule(stages: stages, startRate: startRate ?? 0)
        guard schedule.totalIterations > 0 else { throw ValidationError("--stage: the stages start no iteration") }
        return .open(schedule)
    }

    /// `2000/s`, `2000`, `120/m`, `3/h` in iterations per second: 0, or from one an hour to a million a second.
    static func rate(_ text: String, flag: String) throws -> Double {
        guard let rate = LoadSchedule.rate(parsing: text) else {
            throw ValidationError(
                "\(flag) '\(text)': expected iterations per second, such as 2000/s, 120/m or 3/h "
                    + "(0, or at least 1/h and at most 1000000/s)")
        }
        return rate
    }

    static func threshold(_ text: String) throws -> LoadThreshold {
        do {
            return try LoadThreshold(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    // MARK: - Running

    func run() async throws {
        let interrupts = InterruptHandler()
        defer { interrupts.stop() }
        let environment = ProcessInfo.processInfo.environment
        let stdout = StandardOutput.out
        let stderr = StandardOutput.error
        let loader = try suites.setLoader(environment: environment, errorOutput: stderr)
        guard let loaded = loader.load(paths: suites.paths) else { throw ExitStatus.invalid.exitCode }
        // No report and no redirected standard output is a file the load reads.
        var inputs = OutputGuard()
        inputs.add(loaded, options: suites)
        inputs.add(security)
        inputs.add(selection)
        let outputs = [("--report-json", reportJson), ("--report-junit", reportJunit), ("--report-html", reportHtml)]
        try inputs.check(outputs.compactMap { flag, path in path.map { (flag, $0) } }, errorOutput: stderr)
        // --shard splits the load, not the tests: every generator picks from the whole selection.
        var filters = selection
        filters.shard = nil
        let selected = try filters.select(loaded, errorOutput: stderr)
        // A load with nothing to pick would pass every threshold having sent nothing.
        guard !LoadRunner.pickable(selected.suites).isEmpty else {
            stderr.write(
                "apitest: no selected test can be picked (each is skipped or has load: {weight: 0}); nothing to run.\n")
            stderr.flush()
            throw ExitStatus.noTestsSelected.exitCode
        }
        let shard = try selection.shardSpec()
        var model = try plan()
        if let shard {
            guard let share = model.shard(shard.index, of: shard.count) else {
                if case .closed(let users, _) = model {
                    stderr.write("apitest: shard \(shard) has no virtual user of \(users).\n")
                    stderr.flush()
                }
                return
            }
            model = share
        }
        // As many connections as iterations at once (libcurl's pool is capped at 1,000).
        var concurrency = maxInFlight
        if case .closed(let users, _) = model { concurrency = users }
        var runOptions = try RunOptions(
            jobs: min(1000, max(1, concurrency)), requests: requests, security: security, transport: transport)
        // Under load every iteration tries again: one refused connection must not fail the rest unsent.
        runOptions.failFastUnreachable = false
        var options = LoadOptions(model: model, maxInFlight: maxInFlight, run: runOptions)
        options.thresholds = LoadOptions.thresholds(given: try threshold.map(Self.threshold), suites: selected.suites)
        options.abortOnFail = abortOnFail
        options.shard = shard.map { LoadResult.Model.Shard(index: $0.index, count: $0.count) }

        var request = RunRequest(suites: selected.suites, options: runOptions)
        request.warnsAboutSinglePin = !security.pins.isEmpty
        let preflight = RunService.preflight(request, loaded: loaded)
        guard try RunCommand.report(preflight, to: stderr) else { throw ExitStatus.invalid.exitCode }
        let reports = try reportDestinations()

        let live = !quiet && isatty(STDERR_FILENO) == 1
        let result = await LoadService.run(
            selected.suites, options: options, policies: preflight.policies,
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
        stdout.write(LoadReportText.summary(result))
        stdout.flush()

        let written = LoadReportFiles.write(result, to: reports, errorOutput: stderr)
        if result.interrupted { throw ExitStatus.interrupted.exitCode }
        if !written { throw ExitStatus.runtimeError.exitCode }
        if !result.thresholdsHold { throw ExitStatus.testsFailed.exitCode }
    }
}
