import APITestLoad
import ArgumentParser

/// `apitest load`: the selected tests of suites run as a load test, at an arrival rate (open model) or by virtual
/// users (closed model), with latency percentiles from HDR histograms and thresholds that decide the exit code. This
/// file parses; `LoadCommand+Execute.swift` wires the parsed request to `LoadService`, which does the set-up.
struct LoadCommand: AsyncParsableCommand {
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

    @Option(
        help: ArgumentHelp(
            "Compare with an earlier load JSON report, side by side; thresholds may then be relative (p99<+10%, "
                + "rate>-5%), failing only on a significant change.", valueName: "file"), completion: .file())
    var baseline: String?

    @OptionGroup var requests: RequestOptions

    @Flag(name: [.short, .long], help: "No live line, only the summary.")
    var quiet = false

    @Option(
        help: ArgumentHelp("Write the JSON load report (histograms included) to FILE.", valueName: "file"),
        completion: .file())
    var reportJson: String?

    @Option(
        help: ArgumentHelp("Write JUnit XML with one test case per threshold to FILE.", valueName: "file"),
        completion: .file())
    var reportJunit: String?

    @Option(
        help: ArgumentHelp(
            "Write a self-contained HTML page (each second's completions and latencies, the percentile "
                + "distribution, the thresholds and the tests) to FILE.", valueName: "file"), completion: .file())
    var reportHtml: String?

    @OptionGroup(title: "Selection (--shard K/N runs 1/N of the rate or of the virtual users)")
    var selection: SelectionOptions

    @OptionGroup(title: "TLS (each flag replaces the suites' security: setting of the same name)")
    var security: SecurityFlags

    @OptionGroup(title: "Transport (each flag replaces the suites' setting of the same name)")
    var transport: TransportFlags

    mutating func validate() throws {
        do {
            try shape.check()
        } catch {
            throw ValidationError(error.description)
        }
        if selection.shardTimings != nil { throw ValidationError("--shard-timings is for run and list, not load") }
        _ = try reportDestinations()
    }

    /// The load's shape as the flags give it, checked and turned into a model by `LoadShape`.
    var shape: LoadShape {
        var shape = LoadShape()
        shape.rate = rate
        shape.duration = duration?.duration
        shape.durationText = duration?.text ?? ""
        shape.stages = stage
        shape.virtualUsers = vus
        shape.maxInFlight = maxInFlight
        shape.thresholds = threshold
        shape.abortOnFail = abortOnFail
        return shape
    }
}
