import APITestReporting
import APITestRunner
import APITestSupport
import ArgumentParser
import Foundation

/// The reporters ``ReportOptions`` (the report files of `apitest run`) make.
extension ReportOptions {
    /// The requested reports as (flag, path, format), in a fixed order.
    var requested: [(flag: String, path: String, format: any ReportFormat)] { requested(json: JSONReportFormat()) }

    /// The requested reports, the JSON report in `json`'s format (which says which run it is of).
    func requested(json: JSONReportFormat) -> [(flag: String, path: String, format: any ReportFormat)] {
        var reports: [(String, String, any ReportFormat)] = []
        if let reportJunit {
            reports.append(("--report-junit", reportJunit, JUnitReportFormat(locations: !noJunitLocations)))
        }
        if let reportTap {
            let version = TAPReportFormat.Version(rawValue: tapVersion) ?? .tap13
            reports.append(("--report-tap", reportTap, TAPReportFormat(version: version)))
        }
        if let reportJson { reports.append(("--report-json", reportJson, json)) }
        if let reportHtml { reports.append(("--report-html", reportHtml, HTMLReportFormat())) }
        if let reportCtrf {
            // The run's identity, as the JSON report says it, so that `apitest merge` can merge shards' CTRF files.
            reports.append(
                ("--report-ctrf", reportCtrf, CTRFReportFormat(toolVersion: APITestVersion.string, identity: json)))
        }
        if let reportHar {
            reports.append(("--report-har", reportHar, HARReportFormat(toolVersion: APITestVersion.string)))
        }
        if let reportOpenAPICoverage {
            reports.append(("--report-openapi-coverage", reportOpenAPICoverage, OpenAPICoverageReportFormat()))
        }
        if let reportGRPCCoverage {
            reports.append(("--report-grpc-coverage", reportGRPCCoverage, GRPCCoverageReportFormat()))
        }
        if let curl { reports.append(("--curl", curl, CurlCommandsFormat())) }
        return reports
    }

    /// Every file the reports write (flag and path): the requested reports and, with `--annotations github`,
    /// `GITHUB_STEP_SUMMARY`; for ``OutputGuard``.
    func outputs(environment: [String: String]) -> [(flag: String, path: String)] {
        var outputs = requested.map { (flag: $0.flag, path: $0.path) }
        let wanted = annotations ?? (environment["GITHUB_ACTIONS"] == "true" ? "github" : "none")
        if wanted == "github", let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            outputs.append((flag: "GITHUB_STEP_SUMMARY", path: summary))
        }
        return outputs
    }

    /// Where each requested report goes and how it is written (``ReportDestination``): those ``validate()``
    /// resolved; options never validated resolve them now, the same way.
    func destinations(
        json: JSONReportFormat = JSONReportFormat()
    ) throws -> [(
        destination: ReportDestination, format: any ReportFormat
    )] {
        let destinations = try validatedDestinations ?? resolvedDestinations()
        return zip(destinations, requested(json: json)).map { ($0, $1.format) }
    }

    /// The one resolution of the report paths, by ``ReportPaths/destinations(_:)`` (an empty name, a path that
    /// cannot be written, two reports naming one file are usage errors).
    func resolvedDestinations() throws -> [ReportDestination] {
        try ReportPaths.destinations(requested.map { ($0.flag, $0.path) })
    }

    /// A file reporter per requested report, its destination checked; the JSON report in `json`'s format.
    func makeReporters(json: JSONReportFormat = JSONReportFormat()) throws -> [FileReporter] {
        try destinations(json: json).map { FileReporter(destination: $0.destination, format: $0.format) }
    }

    /// The GitHub Actions reporters (`--annotations github`, or `GITHUB_ACTIONS=true` without the flag): `::error`
    /// lines on standard output, paths relative to `GITHUB_WORKSPACE` (else the current folder), and a Markdown
    /// summary appended to `GITHUB_STEP_SUMMARY` when it is set. Empty otherwise.
    func annotationReporters(environment: [String: String]) throws -> [FileReporter] {
        let wanted = annotations ?? (environment["GITHUB_ACTIONS"] == "true" ? "github" : "none")
        guard wanted == "github" else { return [] }
        let currentFolder = FileManager.default.currentDirectoryPath
        let root = environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 } ?? currentFolder
        var reporters = [
            FileReporter(
                destination: try Self.destination("/dev/stdout", flag: "--annotations"),
                format: GitHubAnnotationsFormat(root: root, currentFolder: currentFolder))
        ]
        if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            let destination: ReportDestination
            do {
                destination = try ReportDestination.appending(to: summary)
            } catch {
                throw ValidationError("GITHUB_STEP_SUMMARY '\(summary)': \(error.reason)")
            }
            // GitHub drops a step's summary over 1 MiB: what the step wrote there already counts.
            let existing = (try? FileManager.default.attributesOfItem(atPath: summary)[.size] as? Int) ?? 0
            reporters.append(
                FileReporter(
                    destination: destination,
                    format: GitHubStepSummaryFormat(
                        root: root, currentFolder: currentFolder,
                        byteLimit: max(0, GitHubStepSummaryFormat.gitHubLimit - existing))))
        }
        return reporters
    }

    /// The destination of `path`, or the usage error that names `flag`.
    private static func destination(_ path: String, flag: String) throws -> ReportDestination {
        do {
            return try ReportDestination.resolve(path)
        } catch {
            throw ValidationError("\(flag): cannot write '\(path)': \(error.reason)")
        }
    }
}
