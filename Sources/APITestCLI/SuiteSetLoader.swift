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
        var results: [(file: String, result: Result<Suite, SuiteLoadError>)] = []
        var included: Set<String> = []
        for file in files {
            do {
                let suite = try loader.load(path: file)
                included.formUnion(suite.includedFiles)
                results.append((file, .success(suite)))
            } catch {
                included.formUnion(error.includedFiles)
                results.append((file, .failure(error)))
            }
        }
        // A file found in a folder that another suite includes is a shared fragment, not a suite of its own; a file
        // named on the command line is always a suite.
        let named = Set(paths.map { FilePaths.canonical($0) })
        var suites: [Suite] = []
        var failedFiles = 0
        var errorCount = 0
        for (file, result) in results {
            let path = FilePaths.canonical(file)
            if included.contains(path), !named.contains(path) { continue }
            switch result {
            case .success(let suite):
                for warning in suite.warnings { errorOutput.write(DiagnosticRenderer.oneLine(warning) + "\n") }
                suites.append(suite)
            case .failure(let error):
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
