import Foundation
import Testing

/// Setup and teardown around an interrupted run, and retry attempts in every report format.
@Suite final class LifecycleTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-life-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Each test's instance removes the folder it made.
    deinit { try? FileManager.default.removeItem(at: directory) }

    @Test func teardownRunsAfterCtrlC() async throws {
        let demo = try await DemoServer.start(extraArguments: ["--log"])
        defer { demo.stop() }
        let file = directory.appendingPathComponent("interrupted.yaml")
        try """
        baseURL: \(demo.baseURL)
        setup: [{request: {url: "/status/200?setup-ran"}}]
        tests:
          - {name: slow, request: {url: /delay/20000}}
        teardown: [{request: {url: "/status/200?teardown-ran"}}]
        """.write(to: file, atomically: true, encoding: .utf8)
        // Interrupt once setup is done (the demo logs a request when it has answered it) and the slow test has had
        // time to send its request. From a thread of its own and without blocking the test's executor.
        let run = try InterruptibleRun(["run", file.path, "--timeout", "60s", "--no-color"])
        let took = try await run.interrupt(
            when: { demo.standardError.contains("setup-ran") }, settle: .milliseconds(300))
        #expect(took != nil, "the setup request never reached the server")
        let status = await run.exitStatus()
        let text = await run.output()
        // The slow test waits 20 s: a run that ended with 0 finished it without seeing the signal.
        #expect(status == 130, "\(text)")
        #expect(text.contains("interrupted"), "\(text)")
        #expect(text.contains("✔ interrupted › teardown"), "\(text)")
        for _ in 0..<100 where !demo.standardError.contains("teardown-ran") {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(demo.standardError.contains("teardown-ran"), "the teardown request never reached the server")
    }

    @Test func teardownRunsEveryStepAfterAFailedSetup() async throws {
        let demo = try await DemoServer.start(extraArguments: ["--log"])
        defer { demo.stop() }
        let file = directory.appendingPathComponent("cleanup.yaml")
        try """
        baseURL: \(demo.baseURL)
        setup:
          - request: {url: /status/503}
            expect: {status: 200}
          - request: {method: POST, url: /echo, json: {token: abc}}
            capture: {token: {jsonpath: $.json.token}}
        tests:
          - {name: never runs, request: {url: /json}}
        teardown:
          - request: {method: DELETE, url: "/status/204?token={{ token }}"}
          - request: {url: "/status/200?second-teardown-step"}
        """.write(to: file, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("report.json")
        let result = try await runProcess(
            try TestBinaries.url("apitest"), ["run", file.path, "--no-color", "--report-json", report.path])
        #expect(result.exitCode == 1)
        #expect(
            result.stdout.contains("undefined variable 'token' (the suite's setup did not finish)"), "\(result.stdout)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let tests = try #require((json["suites"] as? [[String: Any]])?.first?["tests"] as? [[String: Any]])
        let teardown = try #require(tests.first { $0["name"] as? String == "teardown" })
        #expect(teardown["status"] as? String == "errored")
        #expect((teardown["steps"] as? [Any])?.count == 2, "both teardown steps are reported")
        for _ in 0..<100 where !demo.standardError.contains("second-teardown-step") {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(demo.standardError.contains("second-teardown-step"), "the step after the failed one still ran")
    }

    @Test func attemptsAreInEveryReport() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = directory.appendingPathComponent("poll.yaml")
        try """
        baseURL: \(demo.baseURL)
        tests:
          - name: poll
            steps:
              - request: {method: POST, url: "/api/jobs?polls=2"}
                capture: {job: {header: Location}}
              - request: {url: "{{ job }}"}
                retry: {attempts: 5, interval: 10ms, until: {json: {$.state: done}}}
        """.write(to: file, atomically: true, encoding: .utf8)
        let path = directory.path
        let result = try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "run", file.path, "--no-color", "--report-junit", "\(path)/r.xml", "--report-tap", "\(path)/r.tap",
                "--report-json", "\(path)/r.json", "--report-html", "\(path)/r.html",
            ])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("3 attempts)"))
        #expect(try String(contentsOfFile: "\(path)/r.xml", encoding: .utf8).contains("attempts: 3"))
        #expect(try String(contentsOfFile: "\(path)/r.tap", encoding: .utf8).contains("attempts: 3\n"))
        #expect(try String(contentsOfFile: "\(path)/r.json", encoding: .utf8).contains("\"attempts\" : 3"))
        #expect(try String(contentsOfFile: "\(path)/r.html", encoding: .utf8).contains("attempts: 3"))
    }
}
