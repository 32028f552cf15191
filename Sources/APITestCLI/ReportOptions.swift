import APITestReporting
import APITestSupport
import ArgumentParser

/// The report files `apitest run` writes besides the console output: JUnit XML, TAP, JSON, HTML, CTRF and OpenAPI
/// coverage.
struct ReportOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Write a JUnit XML report (one testcase per test) to FILE.", valueName: "file"),
        completion: .file())
    var reportJunit: String?

    @Option(
        help: ArgumentHelp("Write a TAP report (TAP 13 unless --tap-version 14) to FILE.", valueName: "file"),
        completion: .file())
    var reportTap: String?

    @Option(
        help: ArgumentHelp("Write a JSON report (schemas/report.schema.json) to FILE.", valueName: "file"),
        completion: .file())
    var reportJson: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report to FILE.", valueName: "file"), completion: .file())
    var reportHtml: String?

    @Option(
        name: .customLong("report-ctrf"),
        help: ArgumentHelp(
            "Write a CTRF report (Common Test Report Format 1.0, read by CTRF GitHub Actions and dashboards) to "
                + "FILE.", valueName: "file"), completion: .file())
    var reportCtrf: String?

    @Option(
        name: .customLong("report-har"),
        help: ArgumentHelp(
            "Write every request and response of the run as an HTTP Archive (HAR 1.2, opened by browsers' developer "
                + "tools and read by 'apitest import har'), secrets masked, to FILE.", valueName: "file"),
        completion: .file())
    var reportHar: String?

    @Option(
        name: .customLong("report-openapi-coverage"),
        help: ArgumentHelp(
            "Write what the run covered of the suites' OpenAPI documents (schemas/openapi-coverage.schema.json) to "
                + "FILE.", valueName: "file"), completion: .file())
    var reportOpenAPICoverage: String?

    @Option(
        name: .customLong("report-grpc-coverage"),
        help: ArgumentHelp(
            "Write which gRPC methods the suites' descriptors declare were called, with their status codes "
                + "(schemas/grpc-coverage.schema.json), to FILE.", valueName: "file"), completion: .file())
    var reportGRPCCoverage: String?

    @Option(
        name: .customLong("curl"),
        help: ArgumentHelp(
            "Write every request sent, in order, as a curl command (secrets as \"${NAME}\" environment "
                + "references) to FILE.", valueName: "file"), completion: .file())
    var curl: String?

    @Option(
        help: ArgumentHelp(
            "TAP version of --report-tap: 13 (read by prove 3.44) or 14 (a subtest per step).", valueName: "13|14"))
    var tapVersion: Int = 13

    @Flag(
        name: .customLong("no-junit-locations"),
        help: ArgumentHelp(
            "Leave out the file and line of each JUnit testcase (read by GitLab's test report and GitHub's JUnit "
                + "actions), for tools that validate the report against junit-10.xsd."))
    var noJunitLocations = false

    @Option(
        help: ArgumentHelp(
            "github: print a GitHub Actions ::error line per failure (shown on the pull request's lines) and append "
                + "a Markdown summary to $GITHUB_STEP_SUMMARY; none: neither. Default: github when GITHUB_ACTIONS "
                + "is true.", valueName: "github|none"))
    var annotations: String?

    /// Where the requested reports go, resolved by ``validate()`` in ``requested``'s order; not an argument.
    private(set) var validatedDestinations: [ReportDestination]?

    /// The arguments, for swift-argument-parser; ``validatedDestinations`` is not one. A new option needs its key
    /// here: a debug build of swift-argument-parser refuses to parse a command while one is missing.
    private enum CodingKeys: String, CodingKey {
        case reportJunit, reportTap, reportJson, reportHtml, reportOpenAPICoverage, curl, tapVersion, noJunitLocations
        case annotations
        case reportCtrf
        case reportHar
        case reportGRPCCoverage
    }

    /// Checks the TAP version, and every report path on the file system before anything runs (a path that cannot be
    /// written, two reports naming one file); keeps where each report goes, so that no command resolves them again.
    mutating func validate() throws {
        guard TAPReportFormat.Version(rawValue: tapVersion) != nil else {
            throw ValidationError("--tap-version must be 13 or 14, got \(tapVersion)")
        }
        if let annotations, !["github", "none"].contains(annotations) {
            throw ValidationError("--annotations must be github or none, got '\(annotations)'")
        }
        validatedDestinations = try resolvedDestinations()
    }
}
