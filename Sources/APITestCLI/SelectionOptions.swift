import APITestRunner
import ArgumentParser

/// The options that choose which tests run, shared by `apitest run` and `apitest list`.
struct SelectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Run only tests whose 'suite name › test name' contains a match of REGEX (repeat: any of them).",
            discussion:
                "Unanchored and case-sensitive: '^Users API › ' selects a suite, 'login$' tests whose names end in "
                + "login, '(?i)admin' ignores case.",
            valueName: "regex"))
    var filter: [String] = []

    @Option(help: ArgumentHelp("Run only tests tagged TAG (repeat: any of them).", valueName: "tag"))
    var tag: [String] = []

    @Option(
        help: ArgumentHelp("Leave out tests tagged TAG (repeat); this wins over --filter and --tag.", valueName: "tag"))
    var excludeTag: [String] = []

    @Option(
        help: ArgumentHelp(
            "Run shard K of N (1-based): a deterministic, balanced split of the selected tests (docs/ci-sharding.md).",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "With --shard: balance the shards by the test durations of an earlier run's JSON report (or merged "
                + "report) instead of by count; tests it does not time count as its median.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var shardTimings: String?

    @Option(
        help: ArgumentHelp(
            "Run only the tests that failed or errored in an earlier run's JSON report (--report-json, or a merged "
                + "report), by suite file and test name; a test it names that no longer exists is an error.",
            valueName: "report.json"),
        completion: .file(extensions: ["json"]))
    var lastFailed: String?

    /// The selection the flags describe, made by ``validate()``; not an argument.
    private(set) var validated: TestSelection?

    /// The arguments, for swift-argument-parser; ``validated`` is not one. A new option needs its key here: a debug
    /// build of swift-argument-parser refuses to parse a command while one is missing, so its tests fail.
    private enum CodingKeys: String, CodingKey {
        case filter, tag, excludeTag, shard, shardTimings
        case lastFailed
    }

    /// Refuses a bad pattern, tag or shard, and a `--shard-timings` file that is not a readable regular file (a
    /// FIFO would block apitest in `open(2)`) or not a report; keeps the selection, so the file is read once.
    mutating func validate() throws {
        if shardTimings != nil, shard == nil { throw ValidationError("--shard-timings needs --shard K/N") }
        if let shardTimings { try CommandLineFile.check(shardTimings, flag: "--shard-timings") }
        if let lastFailed { try CommandLineFile.check(lastFailed, flag: "--last-failed") }
        validated = try makeSelection()
    }
}
