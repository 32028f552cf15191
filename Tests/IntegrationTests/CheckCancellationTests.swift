import Foundation
import Testing

/// SIGTERM and Ctrl-C reach a check that is running, not only the requests in flight: a run whose check is matching a
/// costly (but linear) regular expression against a long body ends within a second of the signal and reports the
/// test as interrupted.
@Suite struct CheckCancellationTests {
    /// A suite that posts a megabyte of `a` to the demo's echo and matches the echoed body against a pattern that costs
    /// a linear-time engine about 2,700 steps per character (900 counted repetitions alive at once), and that a
    /// backtracking engine takes exponential time on (`(a|aa)*`): the check runs far longer than the test waits.
    static func writeSuite(baseURL: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-check-cancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(repeating: UInt8(ascii: "a"), count: 1_000_000).write(to: directory.appendingPathComponent("a.txt"))
        let suite = directory.appendingPathComponent("suite.yaml")
        let yaml = """
            baseURL: \(baseURL)
            tests:
              - name: costly check
                request: {method: POST, url: /echo/long, bodyFile: a.txt, headers: {Content-Type: text/plain}}
                expect:
                  status: 200
                  body: {matches: '(a|aa)*[a-z]{0,900}!'}
            """
        try yaml.write(to: suite, atomically: true, encoding: .utf8)
        return suite
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsARunWhoseCheckIsRunning(_ signal: Int32) async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try Self.writeSuite(baseURL: demo.baseURL)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let run = try InterruptibleRun(["run", suite.path, "--jobs", "1", "--timeout", "60s"])
        let pid = run.process.processIdentifier
        defer { if run.process.isRunning { kill(pid, SIGKILL) } }
        // The request is answered within milliseconds; the check then runs with the connection kept alive.
        let port = demo.port
        let connected = try await onOwnThread {
            pollUntil(timeout: .seconds(20)) { establishedConnections(toPort: port) >= 1 }
        }
        #expect(connected, "the request was never sent")
        try await Task.sleep(for: .milliseconds(1500))
        #expect(run.process.isRunning, "the check ended before the signal: it is not costly enough to test this")
        let sent = ContinuousClock.now
        kill(pid, signal)
        // The old code matched with ICU, which never looks at the task's cancellation: the signal did not stop it.
        let process = run.process
        let ended = try await onOwnThread { pollUntil(timeout: .seconds(10)) { !process.isRunning } }
        let took = ContinuousClock.now - sent
        guard ended else {
            Issue.record("apitest was still running 10 s after the signal")
            kill(pid, SIGKILL)
            return
        }
        let status = await run.exitStatus()
        #expect(took < .seconds(1), "apitest took \(took) to stop after the signal")
        #expect(status == 130)
        let text = await run.output()
        #expect(text.contains("costly check"), "\(text)")
        #expect(text.contains("1 cancelled"), "\(text)")
        #expect(text.contains("interrupted"), "\(text)")
    }
}
