import Foundation
import Testing

/// End-to-end cases in the manner of Hurl's: suites under `cases/passing`, `cases/failing` and `cases/invalid`,
/// each run through the built `apitest` binary against a demo server this test starts, with its expected exit code
/// and output next to it (`NAME.stdout`, `NAME.stderr`, `NAME.exit`). A `NAME.args` file, one argument a line, adds
/// arguments to the `run` command line (`--filter`, `--shard`, `--wait-for`, ...).
///
/// Output is normalized before comparison: durations (and measured ones in failures) become `<duration>` and the
/// demo's port `<port>`.
/// Set `APITEST_UPDATE_EXPECTED=1` to rewrite the expected files from the current output (then review the diff).
@Suite(.serialized) struct CaseTests {
    static let casesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "cases")

    static func cases(_ folder: String) -> [String] {
        let directory = casesDirectory.appendingPathComponent(folder)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { "\(folder)/\($0)" }.sorted()
    }

    static let secret = "s3cr3t-value-for-cases"

    @Test(arguments: cases("passing") + cases("failing") + cases("invalid"))
    func runCase(_ name: String) async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let apitest = try TestBinaries.url("apitest")
        var environment = ProcessInfo.processInfo.environment
        environment["APITEST_CASE_SECRET"] = Self.secret
        environment["NO_COLOR"] = "1"
        let base = Self.casesDirectory.appendingPathComponent(String(name.dropLast(".yaml".count)))
        let extra = ((try? String(contentsOf: base.appendingPathExtension("args"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
        let result = try await runProcess(
            apitest, ["run", "cases/\(name)", "--var", "port=\(demo.port)", "--jobs", "1"] + extra,
            environment: environment, currentDirectory: Self.casesDirectory.deletingLastPathComponent())
        let stdout = Self.normalize(result.stdout, port: demo.port)
        let stderr = Self.normalize(result.stderr, port: demo.port)
        #expect(!result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret), "a secret leaked")

        let expectations: [(String, String)] = [
            ("stdout", stdout), ("stderr", stderr), ("exit", "\(result.exitCode)\n"),
        ]
        for (suffix, actual) in expectations {
            let file = base.appendingPathExtension(suffix)
            if ProcessInfo.processInfo.environment["APITEST_UPDATE_EXPECTED"] == "1" {
                if actual.isEmpty {
                    try? FileManager.default.removeItem(at: file)
                } else {
                    try actual.write(to: file, atomically: true, encoding: .utf8)
                }
                continue
            }
            let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            #expect(actual == expected, "\(name): \(suffix) differs from \(file.lastPathComponent)")
        }
        // The folder states the verdict, whatever the expected files say.
        switch name.split(separator: "/").first {
        case "passing": #expect(result.exitCode == 0)
        case "failing": #expect(result.exitCode == 1)
        default: #expect(result.exitCode == 2)
        }
    }

    /// Replaces what changes from run to run: durations, the demo server's port and where the checkout is.
    static func normalize(_ text: String, port: Int) -> String {
        // The checkout: the cases' folder, then the repository (files outside the cases, such as the demo's OpenAPI
        // document, are named by absolute path).
        let repository = casesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        var result = text.replacingOccurrences(of: "127.0.0.1:\(port)", with: "127.0.0.1:<port>")
            .replacingOccurrences(of: casesDirectory.path, with: "<cases>")
            .replacingOccurrences(of: repository + "/", with: "<repository>/")
        let durations = try! Regex(#"\d+(\.\d+)? (milliseconds|seconds|µs|ms|s|min)\b( \d+ s\b)?"#)
        result = result.replacing(durations, with: "<duration>")
        // A measured duration in a failure message (`duration: expected < 10ms, got 51.2ms`).
        result = result.replacing(try! Regex(#"got \d+(\.\d+)?ms\b"#), with: "got <duration>")
        return result
    }
}
