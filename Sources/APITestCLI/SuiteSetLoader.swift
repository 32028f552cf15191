import APITestReporting
import APITestSuite
import APITestSupport
import Foundation

/// Loads every suite named on the command line, printing all diagnostics of all files before deciding.
struct SuiteSetLoader {
    let loader: SuiteLoader
    let errorOutput: TextOutput
    let colored: Bool

    /// The loaded suites, or `nil` when any file is invalid (its diagnostics have been printed).
    func load(paths: [String]) -> [Suite]? {
        let files: [String]
        do {
            files = try SuiteDiscovery.files(in: paths)
        } catch {
            errorOutput.write("error: \(error)\n")
            errorOutput.flush()
            return nil
        }
        var suites: [Suite] = []
        var failedFiles = 0
        var errorCount = 0
        for file in files {
            do {
                let suite = try loader.load(path: file)
                for warning in suite.warnings { errorOutput.write(DiagnosticRenderer.oneLine(warning) + "\n") }
                suites.append(suite)
            } catch {
                failedFiles += 1
                errorCount += error.diagnostics.filter { $0.severity == .error }.count
                errorOutput.write(error.render(colored: colored) + "\n")
            }
        }
        if failedFiles > 0 {
            let errors = errorCount == 1 ? "1 error" : "\(errorCount) errors"
            let filesText = failedFiles == 1 ? "1 file" : "\(failedFiles) files"
            errorOutput.write("\(errors) in \(filesText); nothing was run.\n")
            errorOutput.flush()
            return nil
        }
        errorOutput.flush()
        return suites
    }
}
