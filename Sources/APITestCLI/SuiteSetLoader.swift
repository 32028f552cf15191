import APITestReporting
import APITestSuite
import APITestSupport
import Foundation

/// Loads every suite named on the command line (`SuiteSet`), printing all diagnostics of all files before deciding.
struct SuiteSetLoader {
    var loader: SuiteLoader
    let errorOutput: TextOutput
    let colored: Bool

    /// The loaded suites, or `nil` when any file is invalid or no test was found (the errors have been printed).
    func load(paths: [String]) -> [Suite]? {
        let set: SuiteSet
        do {
            set = try SuiteSet.load(paths: paths, loader: loader)
        } catch {
            // The path is the command line's (or a file name found in a folder): shown, never obeyed by the terminal.
            errorOutput.write("error: \(ReportText.terminalLine(String(describing: error)))\n")
            errorOutput.flush()
            return nil
        }
        for warning in set.discoveryWarnings {
            errorOutput.write("warning: \(ReportText.terminalLine(String(describing: warning)))\n")
        }
        for suite in set.suites {
            for warning in suite.warnings { errorOutput.write(DiagnosticRenderer.oneLine(warning) + "\n") }
        }
        for failure in set.failures { errorOutput.write(failure.error.render(colored: colored) + "\n") }
        if !set.failures.isEmpty {
            let errorCount = set.errorCount
            let errors = errorCount == 1 ? "1 error" : "\(errorCount) errors"
            let filesText = set.failures.count == 1 ? "1 file" : "\(set.failures.count) files"
            errorOutput.write("\(errors) in \(filesText); nothing was run.\n")
            errorOutput.flush()
            return nil
        }
        errorOutput.flush()
        return set.suites
    }
}
