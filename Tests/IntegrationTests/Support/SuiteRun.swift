import Foundation

// MARK: - Suites written for one test

/// Writes `yaml` to `suite.yaml` in a new temporary folder and returns its URL.
func writeTemporarySuite(_ yaml: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-suite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("suite.yaml")
    try yaml.write(to: file, atomically: true, encoding: .utf8)
    return file
}

/// Runs the built `apitest` with `arguments`, `NO_COLOR=1` and `environment` laid over the current environment.
func runAPITest(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
    var env = ["NO_COLOR": "1"]
    for (key, value) in environment { env[key] = value }
    return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: env)
}
