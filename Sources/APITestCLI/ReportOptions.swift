import APITestReporting
import ArgumentParser
import Foundation

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

    mutating func validate() throws {
        guard TAPReportFormat.Version(rawValue: tapVersion) != nil else {
            throw ValidationError("--tap-version must be 13 or 14, got \(tapVersion)")
        }
        let paths = requested.map(\.path)
        for path in paths where path.isEmpty { throw ValidationError("a report file name cannot be empty") }
        let normalized = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if Set(normalized).count != normalized.count {
            throw ValidationError("two reports cannot be written to the same file")
        }
    }

    /// The requested reports as (path, format), in a fixed order.
    var requested: [(path: String, format: any ReportFormat)] {
        var reports: [(String, any ReportFormat)] = []
        if let reportJunit { reports.append((reportJunit, JUnitReportFormat())) }
        if let reportTap {
            reports.append(
                (reportTap, TAPReportFormat(version: TAPReportFormat.Version(rawValue: tapVersion) ?? .tap13)))
        }
        if let reportJson { reports.append((reportJson, JSONReportFormat())) }
        if let reportHtml { reports.append((reportHtml, HTMLReportFormat())) }
        return reports
    }

    /// A file reporter per requested report.
    func makeReporters() -> [FileReporter] {
        requested.map { FileReporter(path: $0.path, format: $0.format) }
    }
}
