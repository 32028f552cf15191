import APITestReporting
import APITestResults
import APITestSupport
import Foundation

/// The report files of a load run (`--report-json`, `--report-junit`, `--report-html`), as `load` and `merge`
/// write them.
enum LoadReportFiles {
    /// One of the report files of a load run.
    enum Kind {
        case json
        case junit
        case html

        /// How an error message names the report: `JSON`, `JUnit XML`, `HTML`.
        var name: String {
            switch self {
            case .json: "JSON"
            case .junit: "JUnit XML"
            case .html: "HTML"
            }
        }

        /// The flag that requests it.
        var flag: String {
            switch self {
            case .json: "--report-json"
            case .junit: "--report-junit"
            case .html: "--report-html"
            }
        }

        /// The report of `result`, run on `hostname` (compared with `baseline`, shown in JSON and HTML), as UTF-8.
        func render(_ result: LoadResult, hostname: String, baseline: LoadBaselineComparison? = nil) -> [UInt8] {
            switch self {
            case .json: LoadReportFormats.jsonBytes(result, hostname: hostname, baseline: baseline)
            case .junit: Array(LoadReportFormats.junit(result, hostname: hostname).utf8)
            case .html: Array(LoadHTMLReport.render(result, hostname: hostname, baseline: baseline).utf8)
            }
        }
    }

    /// Where each requested report goes (`json`, `junit`, `html`: the paths given, each when given), checked as
    /// `run` checks its reports (``ReportPaths/destinations(_:)``): throws the usage error for an empty name, a
    /// path that cannot be written and two reports naming one file.
    static func destinations(
        json: String?, junit: String?, html: String?
    ) throws -> [(kind: Kind, destination: ReportDestination)] {
        let requested = [(Kind.json, json), (.junit, junit), (.html, html)].compactMap { kind, path in
            path.map { (kind: kind, path: $0) }
        }
        let destinations = try ReportPaths.destinations(requested.map { ($0.kind.flag, $0.path) })
        return zip(requested, destinations).map { ($0.kind, $1) }
    }

    /// Writes `result`'s reports to `destinations` (from ``destinations(json:junit:html:)``), saying on
    /// `errorOutput` which could not be written; true when every one was. The HTML report shows the comparison with
    /// `baseline` when given.
    static func write(
        _ result: LoadResult, to destinations: [(kind: Kind, destination: ReportDestination)],
        errorOutput: StandardOutput, baseline: LoadBaselineComparison? = nil
    ) -> Bool {
        let hostname = ProcessInfo.processInfo.hostName
        var written = true
        for (kind, destination) in destinations {
            do {
                try destination.write(kind.render(result, hostname: hostname, baseline: baseline))
            } catch {
                errorOutput.write(
                    "error: cannot write the \(kind.name) load report '\(error.path)': \(error.reason)\n")
                written = false
            }
        }
        errorOutput.flush()
        return written
    }
}
