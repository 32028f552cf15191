import APITestReporting
import APITestSupport
import ArgumentParser
import Foundation

/// The values of ``ReportOptions`` (the report files of `apitest run`) and the reporters they make; plain values,
/// as ``SuiteSettings``.
struct ReportSettings: Equatable, Sendable {
    var reportJunit: String?
    var reportTap: String?
    var reportJson: String?
    var reportHtml: String?
    var tapVersion = 13

    /// Throws the `ValidationError` swift-argument-parser would report for these values.
    func validate() throws {
        guard TAPReportFormat.Version(rawValue: tapVersion) != nil else {
            throw ValidationError("--tap-version must be 13 or 14, got \(tapVersion)")
        }
        let paths = requested.map(\.path)
        for path in paths where path.isEmpty { throw ValidationError("a report file name cannot be empty") }
        let normalized = paths.map { FilePaths.absolute($0) }
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
