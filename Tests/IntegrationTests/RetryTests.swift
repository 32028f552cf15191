import Foundation
import Testing

/// Retries against real timing: a step with `retry` rides out a server that starts late, even though the run
/// otherwise fails fast on unreachable hosts.
@Suite struct RetryTests {
    @Test func aRetryingStepWaitsForAServerThatStartsLate() async throws {
        let port = try closedPort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-retry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("suite.yaml")
        try """
        baseURL: http://127.0.0.1:\(port)/
        tests:
          - name: health once the server is up
            request: {url: health, timeout: 2s}
            retry: {attempts: 60, interval: 100ms}
            expect:
              json: {$.status: ok}
        """.write(to: file, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        async let run = runProcess(
            try TestBinaries.url("apitest"), ["run", file.path, "--report-json", directory.path + "/r.json"],
            environment: environment)
        try await Task.sleep(for: .milliseconds(700))
        let demo = try await DemoServer.start(extraArguments: ["--port", "\(port)"])
        defer { demo.stop() }
        #expect(demo.port == port)
        let result = try await run
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        let attempts = try #require(
            report.firstMatch(of: /"attempts"\s*:\s*(\d+)/).map { Int($0.1)! })
        // Refused at least until the server came up, 0.7 s in: several attempts, not one and not all 60.
        #expect(attempts > 2 && attempts < 60, "attempts: \(attempts)")
    }
}
