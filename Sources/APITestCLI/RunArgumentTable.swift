// swift-format-ignore-file
// GENERATED from the declarations of `apitest run` (RunCommand and its option groups) by
// Tests/APITestCLITests/RunArgumentTableTests.swift: do not edit. After adding, changing or removing an option
// of `run`, regenerate it with
//     APITEST_UPDATE_EXPECTED=1 swift test --filter RunArgumentTableTests
// (the test fails until then) and review the diff.

extension RunArgumentScanner {
    /// Every option and flag of `run` and its option groups, as swift-argument-parser spells them.
    static let options: [Option] = [
        Option(names: ["--var"], action: .repeating { append($1, to: &$0.suites.variables) }),
        Option(names: ["--variables-file"], action: .repeating { append($1, to: &$0.suites.variablesFiles) }),
        Option(names: ["--openapi"], action: .single { store($1, in: &$0.suites.openapi) }),
        Option(names: ["--strict-spec"], action: .flag { $0.suites.spec.strictSpec = true }),
        Option(names: ["--no-color"], action: .flag { $0.suites.noColor = true }),
        Option(names: ["-j", "--jobs"], action: .single { store($1, in: &$0.jobs) }),
        Option(names: ["--timeout"], action: .single { store($1, in: &$0.requests.timeout) }),
        Option(names: ["--connect-timeout"], action: .single { store($1, in: &$0.requests.connectTimeout) }),
        Option(names: ["--max-response-size"], action: .single { store($1, in: &$0.maxResponseSize) }),
        Option(names: ["--decode-memory"], action: .single { store($1, in: &$0.decodeMemory) }),
        Option(names: ["--retries"], action: .single { store($1, in: &$0.retries) }),
        Option(names: ["--flaky"], action: .single { store($1, in: &$0.flaky) }),
        Option(names: ["--update-snapshots"], action: .flag { $0.updateSnapshots = true }),
        Option(names: ["-v", "--verbose"], action: .flag { $0.verbose = true }),
        Option(names: ["-q", "--quiet"], action: .flag { $0.quiet = true }),
        Option(names: ["--report-junit"], action: .single { store($1, in: &$0.reports.reportJunit) }),
        Option(names: ["--report-tap"], action: .single { store($1, in: &$0.reports.reportTap) }),
        Option(names: ["--report-json"], action: .single { store($1, in: &$0.reports.reportJson) }),
        Option(names: ["--report-html"], action: .single { store($1, in: &$0.reports.reportHtml) }),
        Option(names: ["--report-ctrf"], action: .single { store($1, in: &$0.reports.reportCtrf) }),
        Option(names: ["--report-har"], action: .single { store($1, in: &$0.reports.reportHar) }),
        Option(names: ["--report-openapi-coverage"], action: .single { store($1, in: &$0.reports.reportOpenAPICoverage) }),
        Option(names: ["--report-grpc-coverage"], action: .single { store($1, in: &$0.reports.reportGRPCCoverage) }),
        Option(names: ["--curl"], action: .single { store($1, in: &$0.reports.curl) }),
        Option(names: ["--tap-version"], action: .single { store($1, in: &$0.reports.tapVersion) }),
        Option(names: ["--no-junit-locations"], action: .flag { $0.reports.noJunitLocations = true }),
        Option(names: ["--annotations"], action: .single { store($1, in: &$0.reports.annotations) }),
        Option(names: ["--filter"], action: .repeating { append($1, to: &$0.selection.filter) }),
        Option(names: ["--tag"], action: .repeating { append($1, to: &$0.selection.tag) }),
        Option(names: ["--exclude-tag"], action: .repeating { append($1, to: &$0.selection.excludeTag) }),
        Option(names: ["--shard"], action: .single { store($1, in: &$0.selection.shard) }),
        Option(names: ["--shard-timings"], action: .single { store($1, in: &$0.selection.shardTimings) }),
        Option(names: ["--last-failed"], action: .single { store($1, in: &$0.selection.lastFailed) }),
        Option(names: ["--wait-for"], action: .single { store($1, in: &$0.waitFor) }),
        Option(names: ["--pinning", "--mode"], action: .single { store($1, in: &$0.security.pinning) }),
        Option(names: ["--pin"], action: .repeating { append($1, to: &$0.security.pins) }),
        Option(names: ["--certificate"], action: .repeating { append($1, to: &$0.security.certificates) }),
        Option(names: ["--allow-invalid-certificates"], action: .flag { $0.security.allowInvalidCertificates = true }),
        Option(names: ["--no-validate-domain"], action: .flag { $0.security.noValidateDomain = true }),
        Option(names: ["--ca-file"], action: .single { store($1, in: &$0.security.caFile) }),
        Option(names: ["--client-cert"], action: .single { store($1, in: &$0.security.clientCertificate) }),
        Option(names: ["--client-key"], action: .single { store($1, in: &$0.security.clientKey) }),
        Option(names: ["--resolve"], action: .repeating { append($1, to: &$0.transport.resolve) }),
        Option(names: ["--connect-to"], action: .repeating { append($1, to: &$0.transport.connectTo) }),
        Option(names: ["--unix-socket"], action: .single { store($1, in: &$0.transport.unixSocket) }),
        Option(names: ["--http-version"], action: .single { store($1, in: &$0.transport.httpVersion) }),
        Option(names: ["--proxy"], action: .single { store($1, in: &$0.transport.proxy) }),
        Option(names: ["--noproxy"], action: .single { store($1, in: &$0.transport.noProxy) }),
    ]

    /// Appends a suite path (`run`'s positional argument).
    static func appendPath(_ path: String, to command: inout RunCommand) {
        command.suites.paths.append(path)
    }

    /// `run` with every option at its declared default and no path.
    static func defaults() -> RunCommand {
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
