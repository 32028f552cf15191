import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// Loads `yaml` as `suites/test.yaml` with a fixed environment.
func loadSuite(
    _ yaml: String, file: String = "suites/test.yaml", environment: [String: String] = [:],
    overrides: [String: String] = [:]
) throws(SuiteLoadError) -> Suite {
    try SuiteLoader(environment: environment, overrides: overrides).load(source: yaml, file: file)
}

/// The one-line diagnostics of a suite that must fail to load (empty when it loads).
func errors(
    _ yaml: String, file: String = "suites/test.yaml", environment: [String: String] = [:],
    overrides: [String: String] = [:]
) -> [String] {
    do {
        _ = try loadSuite(yaml, file: file, environment: environment, overrides: overrides)
        return []
    } catch {
        return error.diagnostics.map(DiagnosticRenderer.oneLine)
    }
}

/// The diagnostics of a suite that must fail to load.
func diagnostics(_ yaml: String, environment: [String: String] = [:]) -> [Diagnostic] {
    do {
        _ = try loadSuite(yaml, environment: environment)
        return []
    } catch {
        return error.diagnostics
    }
}

/// A fresh temporary directory, removed by the caller with `removeItem`.
func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("apitest-suite-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `text` to `directory/relative`, creating folders.
@discardableResult
func writeFile(_ text: String, to relative: String, in directory: String) throws -> String {
    let path = directory + "/" + relative
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
