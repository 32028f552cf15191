import APITestReporting
import APITestResults
import APITestSupport
import Foundation

/// The report files of a load run (`--report-json`, `--report-junit`), as `load` and `merge` write them.
enum LoadReportFiles {
    /// Writes `result`'s JSON report to `json`, its JUnit file to `junit` and its HTML page to `html` (each when
    /// given), saying on `errorOutput` which could not be written; true when every one was.
    static func write(
        _ result: LoadResult, json: String?, junit: String?, html: String?, errorOutput: StandardOutput
    ) -> Bool {
        let hostname = ProcessInfo.processInfo.hostName
        var written = true
        for (name, path, text) in [
            ("JSON", json, { LoadReportFormats.json(result, hostname: hostname) }),
            ("JUnit XML", junit, { LoadReportFormats.junit(result, hostname: hostname) }),
            ("HTML", html, { LoadHTMLReport.render(result, hostname: hostname) }),
        ] {
            guard let path else { continue }
            let destination: ReportDestination
            do {
                destination = try ReportDestination.resolve(path)
            } catch {
                errorOutput.write("error: cannot write the \(name) load report '\(path)': \(error.reason)\n")
                written = false
                continue
            }
            do {
                try destination.write(Array(text().utf8))
            } catch {
                errorOutput.write("error: cannot write the \(name) load report '\(error.path)': \(error.reason)\n")
                written = false
            }
        }
        errorOutput.flush()
        return written
    }
}
