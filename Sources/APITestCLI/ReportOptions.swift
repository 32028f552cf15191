import ArgumentParser

/// The report files `apitest run` writes besides the console output: JUnit XML, TAP, JSON and HTML.
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write a JUnit XML report (one testcase per test) to FILE.", valueName: "file"))
    var reportJunit: String?

    @Option(help: ArgumentHelp("Write a TAP report (TAP 13 unless --tap-version 14) to FILE.", valueName: "file"))
    var reportTap: String?

    @Option(help: ArgumentHelp("Write a JSON report (schemas/report.schema.json) to FILE.", valueName: "file"))
    var reportJson: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report to FILE.", valueName: "file"))
    var reportHtml: String?

    @Option(
        help: ArgumentHelp(
            "TAP version of --report-tap: 13 (read by prove 3.44) or 14 (a subtest per step).", valueName: "13|14"))
    var tapVersion: Int = 13

    /// The values given, for the commands to act on.
    var settings: ReportSettings {
        ReportSettings(
            reportJunit: reportJunit, reportTap: reportTap, reportJson: reportJson, reportHtml: reportHtml,
            tapVersion: tapVersion)
    }

    mutating func validate() throws {
        try settings.validate()
    }
}
