import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Retries against real timing: a step with `retry` rides out a server that starts late, even though the run
/// otherwise fails fast on unreachable hosts.
@Suite struct RetryTests {
    @Test func aRetryingStepWaitsForAServerThatStartsLate() async throws {
        let port = try freePort()
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
        // Hold the port with a listener until apitest's first attempt arrives, then drop that connection and
        // start the server: the step saw the service down at least once, whatever the machine's load.
        let listener = try Listener(port: port)
        _ = fcntl(listener.fd, F_SETFL, fcntl(listener.fd, F_GETFL) | O_NONBLOCK)
        var accepted: Int32 = -1
        for _ in 0..<1000 where accepted < 0 {
            accepted = accept(listener.fd, nil, nil)
            if accepted < 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(accepted >= 0, "apitest never tried to connect")
        close(accepted)
        listener.close()
        let demo = try await DemoServer.start(extraArguments: ["--port", "\(port)"])
        defer { demo.stop() }
        #expect(demo.port == port)
        let result = try await run
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        let attempts = try #require(
            report.firstMatch(of: /"attempts"\s*:\s*(\d+)/).map { Int($0.1)! })
        // At least the dropped attempt and the one that succeeded; not all 60.
        #expect(attempts >= 2 && attempts < 60, "attempts: \(attempts)")
    }
}
