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

/// A run of `apitest` and the most memory it held at once.
struct MeasuredRun {
    var result: ProcessResult
    /// The child's peak resident set size in bytes (GNU time's `%M`).
    var maxResidentBytes: Int
}

/// Runs the built `apitest` under GNU time (`/usr/bin/time`, installed by `make deps`) and reads its peak RSS.
func runAPITestMeasured(_ arguments: [String], environment: [String: String] = [:]) async throws -> MeasuredRun {
    let apitest = try TestBinaries.url("apitest")
    var env = ["NO_COLOR": "1"]
    for (key, value) in environment { env[key] = value }
    var result = try await runProcess(
        URL(fileURLWithPath: "/usr/bin/time"), ["-f", "apitest-max-rss-kb %M", apitest.path] + arguments,
        environment: env, timeout: .seconds(120))
    var lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.last == "" { lines.removeLast() }
    guard let last = lines.last, last.hasPrefix("apitest-max-rss-kb "),
        let kilobytes = Int(last.dropFirst("apitest-max-rss-kb ".count))
    else {
        throw CocoaError(
            .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no GNU time line in \(result.stderr)"])
    }
    lines.removeLast()
    result.stderr = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    // GNU time exits with the child's status.
    return MeasuredRun(result: result, maxResidentBytes: kilobytes * 1024)
}
