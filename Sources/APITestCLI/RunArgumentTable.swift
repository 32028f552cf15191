// swift-format-ignore-file
// GENERATED from the declarations of `apitest run` (RunCommand and its option groups) by
// Tests/APITestCLITests/ArgumentTableTests.swift: do not edit. After adding, changing or removing an option
// of `run`, regenerate it with
//     APITEST_UPDATE_EXPECTED=1 swift test --filter ArgumentTableTests
// (the test fails until then) and review the diff.

extension RunCommand: ScannableCommand {
    /// Every option and flag of `run` and its option groups, as swift-argument-parser spells them.
    static let scannedOptions: [ArgumentScanner<RunCommand>.Option] = [
        .init(names: ["--var"], action: .repeating { append($1, to: &$0.suites.variables) }),
        .init(names: ["--variables-file"], action: .repeating { append($1, to: &$0.suites.variablesFiles) }),
        .init(names: ["--openapi"], action: .single { store($1, in: &$0.suites.openapi) }),
        .init(names: ["--strict-spec"], action: .flag { $0.suites.spec.strictSpec = true }),
        .init(names: ["--no-color"], action: .flag { $0.suites.noColor = true }),
        .init(names: ["-j", "--jobs"], action: .single { store($1, in: &$0.jobs) }),
        .init(names: ["--timeout"], action: .single { store($1, in: &$0.requests.timeout) }),
        .init(names: ["--connect-timeout"], action: .single { store($1, in: &$0.requests.connectTimeout) }),
        .init(names: ["--max-response-size"], action: .single { store($1, in: &$0.maxResponseSize) }),
        .init(names: ["--decode-memory"], action: .single { store($1, in: &$0.decodeMemory) }),
        .init(names: ["--retries"], action: .single { store($1, in: &$0.retries) }),
        .init(names: ["--flaky"], action: .single { store($1, in: &$0.flaky) }),
        .init(names: ["--update-snapshots"], action: .flag { $0.updateSnapshots = true }),
        .init(names: ["-v", "--verbose"], action: .flag { $0.verbose = true }),
        .init(names: ["-q", "--quiet"], action: .flag { $0.quiet = true }),
        .init(names: ["--report-junit"], action: .single { store($1, in: &$0.reports.reportJunit) }),
        .init(names: ["--report-tap"], action: .single { store($1, in: &$0.reports.reportTap) }),
        .init(names: ["--report-json"], action: .single { store($1, in: &$0.reports.reportJson) }),
        .init(names: ["--report-html"], action: .single { store($1, in: &$0.reports.reportHtml) }),
        .init(names: ["--report-ctrf"], action: .single { store($1, in: &$0.reports.reportCtrf) }),
        .init(names: ["--report-har"], action: .single { store($1, in: &$0.reports.reportHar) }),
        .init(names: ["--report-openapi-coverage"], action: .single { store($1, in: &$0.reports.reportOpenAPICoverage) }),
        .init(names: ["--report-grpc-coverage"], action: .single { store($1, in: &$0.reports.reportGRPCCoverage) }),
        .init(names: ["--curl"], action: .single { store($1, in: &$0.reports.curl) }),
        .init(names: ["--tap-version"], action: .single { store($1, in: &$0.reports.tapVersion) }),
        .init(names: ["--no-junit-locations"], action: .flag { $0.reports.noJunitLocations = true }),
        .init(names: ["--annotations"], action: .single { store($1, in: &$0.reports.annotations) }),
        .init(names: ["--filter"], action: .repeating { append($1, to: &$0.selection.filter) }),
        .init(names: ["--tag"], action: .repeating { append($1, to: &$0.selection.tag) }),
        .init(names: ["--exclude-tag"], action: .repeating { append($1, to: &$0.selection.excludeTag) }),
        .init(names: ["--shard"], action: .single { store($1, in: &$0.selection.shard) }),
        .init(names: ["--shard-timings"], action: .single { store($1, in: &$0.selection.shardTimings) }),
        .init(names: ["--last-failed"], action: .single { store($1, in: &$0.selection.lastFailed) }),
        .init(names: ["--wait-for"], action: .single { store($1, in: &$0.waitFor) }),
        .init(names: ["--pinning", "--mode"], action: .single { store($1, in: &$0.security.pinning) }),
        .init(names: ["--pin"], action: .repeating { append($1, to: &$0.security.pins) }),
        .init(names: ["--certificate"], action: .repeating { append($1, to: &$0.security.certificates) }),
        .init(names: ["--allow-invalid-certificates"], action: .flag { $0.security.allowInvalidCertificates = true }),
        .init(names: ["--no-validate-domain"], action: .flag { $0.security.noValidateDomain = true }),
        .init(names: ["--ca-file"], action: .single { store($1, in: &$0.security.caFile) }),
        .init(names: ["--client-cert"], action: .single { store($1, in: &$0.security.clientCertificate) }),
        .init(names: ["--client-key"], action: .single { store($1, in: &$0.security.clientKey) }),
        .init(names: ["--resolve"], action: .repeating { append($1, to: &$0.transport.resolve) }),
        .init(names: ["--connect-to"], action: .repeating { append($1, to: &$0.transport.connectTo) }),
        .init(names: ["--unix-socket"], action: .single { store($1, in: &$0.transport.unixSocket) }),
        .init(names: ["--http-version"], action: .single { store($1, in: &$0.transport.httpVersion) }),
        .init(names: ["--proxy"], action: .single { store($1, in: &$0.transport.proxy) }),
        .init(names: ["--noproxy"], action: .single { store($1, in: &$0.transport.noProxy) }),
    ]

    /// Appends a suite path (`run`'s positional argument).
    static func appendPath(_ path: String, to command: inout RunCommand) {
        command.suites.paths.append(path)
    }

    /// `run` with every option at its declared default and no path.
    static func scanningDefaults() -> RunCommand {
        var suites_spec = SpecOptions()
        suites_spec.strictSpec = false
        var suites = SuiteOptions()
        suites.paths = []
        suites.variables = []
        suites.variablesFiles = []
        suites.openapi = nil
        suites.spec = suites_spec
        suites.noColor = false
        var requests = RequestOptions()
        requests.timeout = nil
        requests.connectTimeout = nil
        var reports = ReportOptions()
        reports.reportJunit = nil
        reports.reportTap = nil
        reports.reportJson = nil
        reports.reportHtml = nil
        reports.reportCtrf = nil
        reports.reportHar = nil
        reports.reportOpenAPICoverage = nil
        reports.reportGRPCCoverage = nil
        reports.curl = nil
        reports.tapVersion = defaultValue("13")
        reports.noJunitLocations = false
        reports.annotations = nil
        var selection = SelectionOptions()
        selection.filter = []
        selection.tag = []
        selection.excludeTag = []
        selection.shard = nil
        selection.shardTimings = nil
        selection.lastFailed = nil
        var security = SecurityFlags()
        security.pinning = nil
        security.pins = []
        security.certificates = []
        security.allowInvalidCertificates = false
        security.noValidateDomain = false
        security.caFile = nil
        security.clientCertificate = nil
        security.clientKey = nil
        var transport = TransportFlags()
        transport.resolve = []
        transport.connectTo = []
        transport.unixSocket = nil
        transport.httpVersion = nil
        transport.proxy = nil
        transport.noProxy = nil
        var command = RunCommand()
        command.suites = suites
        command.jobs = defaultValue("10")
        command.requests = requests
        command.maxResponseSize = nil
        command.decodeMemory = nil
        command.retries = defaultValue("0")
        command.flaky = defaultValue("fail")
        command.updateSnapshots = false
        command.verbose = false
        command.quiet = false
        command.reports = reports
        command.selection = selection
        command.waitFor = nil
        command.security = security
        command.transport = transport
        return command
    }

    /// The checks of the option groups, which swift-argument-parser runs as it decodes them.
    static func validateGroups(of command: inout RunCommand) throws {
        try command.suites.spec.validate()
        try command.suites.validate()
        try command.requests.validate()
        try command.reports.validate()
        try command.selection.validate()
        try command.security.validate()
        try command.transport.validate()
    }
}
