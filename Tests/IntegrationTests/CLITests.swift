import Foundation
import Testing

/// The `apitest` binary as a user meets it: exit codes, help, colour rules, proxies, masking and Ctrl-C.
@Suite struct CLITests {
    func write(_ yaml: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("suite.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func apitest(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: env)
    }

    @Test func usageErrorsExitWithTwo() async throws {
        let noPaths = try await apitest(["run"])
        #expect(noPaths.exitCode == 2)
        #expect(noPaths.stderr.contains("Missing expected argument"))
        let badVar = try await apitest(["run", "x.yaml", "--var", "novalue"])
        #expect(badVar.exitCode == 2)
        #expect(badVar.stderr.contains("--var expects name=value, got 'novalue'"))
        let badJobs = try await apitest(["run", "x.yaml", "--jobs", "0"])
        #expect(badJobs.exitCode == 2)
        let missing = try await apitest(["run", "/nonexistent/suite.yaml"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("/nonexistent/suite.yaml: no such file or directory"))
        let badTimeout = try await apitest(["run", "x.yaml", "--timeout", "soon"])
        #expect(badTimeout.exitCode == 2)
    }

    @Test func helpDescribesCommandsAndExitCodes() async throws {
        let help = try await apitest(["--help"])
        #expect(help.exitCode == 0)
        for text in ["run", "validate", "130", "a suite or the command line is invalid"] {
            #expect(help.stdout.contains(text), "help lacks \(text)")
        }
        let runHelp = try await apitest(["run", "--help"])
        for option in ["--jobs", "--var", "--timeout", "--connect-timeout", "--verbose", "--quiet", "--no-color"] {
            #expect(runHelp.stdout.contains(option), "run --help lacks \(option)")
        }
        let version = try await apitest(["--version"])
        // The first line is apitest's own (VersionCommandTests checks the library lines that follow).
        let first = version.stdout.split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("apitest ") && first.dropFirst(8).split(separator: ".").count == 3, "\(first)")
    }

    @Test func validateReportsEveryErrorWithoutNetwork() async throws {
        let file = try write(
            """
            tests:
              - name: a
                request: {url: users}
              - name: b
                request: {url: "http://127.0.0.1:9/{{ missing }}"}
                expect: {stauts: 200}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["validate", file.path, "--no-color"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("\(file.path):3:20"))
        #expect(result.stderr.contains("undefined variable 'missing'"))
        #expect(result.stderr.contains("did you mean 'status'?"))
        #expect(result.stderr.contains("3 errors in 1 file; nothing was run."))
        let valid = try write("tests:\n  - name: a\n    request: {url: 'http://127.0.0.1:9/'}\n")
        defer { try? FileManager.default.removeItem(at: valid.deletingLastPathComponent()) }
        let ok = try await apitest(["validate", valid.path])
        #expect(ok.exitCode == 0)
        #expect(ok.stdout == "1 suite, 1 test: valid\n")
    }

    @Test func noColourOffATerminalOrWithNoColor() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write("tests:\n  - name: a\n    request: {url: '\(demo.baseURL)/status/500'}\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let plain = try await apitest(["run", file.path])
        #expect(plain.exitCode == 1)
        #expect(!plain.stdout.contains("\u{1B}["))
        #expect(!plain.stderr.contains("\u{1B}["), "no progress line off a terminal")
        #expect(plain.stdout.contains("expected a 2xx status (no status expectation given), got 500"))
    }

    @Test func quietShowsFailuresAndSummaryOnly() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: good
                request: {url: /status/200}
              - name: bad
                request: {url: /status/503}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path, "--quiet"])
        #expect(result.exitCode == 1)
        #expect(!result.stdout.contains("› good"))
        #expect(result.stdout.contains("› bad"))
        #expect(result.stdout.contains("2 tests: 1 passed, 1 failed"))
    }

    @Test func verboseShowsExchangesWithSecretsMasked() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write(
            """
            baseURL: \(demo.baseURL)
            variables: {token: "{{ env.APITEST_TEST_TOKEN }}"}
            tests:
              - name: bearer
                request:
                  url: /bearer
                  headers: {Authorization: "Bearer {{ token }}", X-Echo: "{{ token }}"}
                expect:
                  json:
                    $.token: "{{ token }}"
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let secret = "tok-\(UUID().uuidString)"
        let result = try await apitest(["run", file.path, "--verbose"], environment: ["APITEST_TEST_TOKEN": secret])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("> GET \(demo.baseURL)/bearer"))
        #expect(result.stdout.contains("> Authorization: •••••"))
        #expect(result.stdout.contains("> X-Echo: •••••"))
        #expect(result.stdout.contains("< HTTP/1.1 200"))
        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
    }

    @Test func proxiesComeFromTheEnvironment() async throws {
        let proxy = try FaultServer()
        defer { proxy.stop() }
        let file = try write(
            """
            tests:
              - name: through the proxy
                request: {url: "http://api.example.test/resource?x=1"}
                expect:
                  json:
                    $.proxied: GET http://api.example.test/resource?x=1 HTTP/1.1
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path], environment: ["http_proxy": proxy.baseURL])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(proxy.receivedRequestLines == ["GET http://api.example.test/resource?x=1 HTTP/1.1"])
    }

    @Test func timeoutOptionIsTheDefaultForRequestsWithoutTheirOwn() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write(
            """
            baseURL: \(demo.baseURL)
            tests:
              - name: slow
                request: {url: /delay/3000}
              - name: own timeout wins
                request: {url: /delay/500, timeout: 5s}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path, "--timeout", "200ms", "--jobs", "1"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("! suite › slow"))
        #expect(result.stdout.contains("timed out"))
        #expect(result.stdout.contains("✔ suite › own timeout wins"))
    }

    @Test func networkFailuresErrorThatTestAndTheRunGoesOn() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write(
            """
            tests:
              - name: refused
                request: {url: "http://127.0.0.1:\(try closedPort())/"}
              - name: fine
                request: {url: "\(demo.baseURL)/health"}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path, "--jobs", "1"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("! suite › refused"))
        #expect(result.stdout.contains("connection refused"))
        #expect(result.stdout.contains("✔ suite › fine"))
        #expect(result.stdout.contains("2 tests: 1 passed, 1 errored"))
    }

    @Test func ctrlCCancelsInFlightRequestsPromptly() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        var yaml = "baseURL: \(demo.baseURL)\ntests:\n"
        for index in 0..<20 { yaml += "  - name: slow \(index)\n    request: {url: /delay/20000}\n" }
        let file = try write(yaml)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let run = try InterruptibleRun(["run", file.path, "--jobs", "5", "--timeout", "60s"])
        // Interrupt once all five requests have their connections (the demo logs only answers).
        let took = try await run.interrupt(when: { establishedConnections(toPort: demo.port) >= 5 })
        #expect(took != nil, "five requests were never in flight")
        let status = await run.exitStatus()
        if let took { #expect(took < .seconds(5), "apitest took too long to stop after SIGINT") }
        let text = await run.output()
        #expect(status == 130)
        #expect(text.contains("⊘ suite › slow 0"))
        #expect(text.contains("5 cancelled"))
        #expect(text.contains("interrupted"))
    }
}

/// On a terminal (a pseudo-terminal made by util-linux `script`): colour and the live progress line.
@Suite struct TerminalTests {
    @Test func colourAndProgressOnATerminalUnlessNoColor() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = directory.appendingPathComponent("tty.yaml")
        var yaml = "baseURL: \(demo.baseURL)\ntests:\n"
        for index in 0..<6 { yaml += "  - name: t\(index)\n    request: {url: /delay/150}\n" }
        yaml += "  - name: broken\n    request: {url: /status/500}\n"
        try yaml.write(to: suite, atomically: true, encoding: .utf8)
        let apitest = try TestBinaries.url("apitest").path
        let script = try TestBinaries.tool("script")

        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "" // runProcess lays this over the inherited environment; empty means unset
        environment["TERM"] = "xterm"
        let command = "\(apitest) run \(suite.path) --jobs 2"
        let coloured = try await runProcess(script, ["-qec", command, "/dev/null"], environment: environment)
        #expect(coloured.exitCode == 1)
        #expect(coloured.stdout.contains("\u{1B}[32m✔\u{1B}[0m tty › t0"), "green pass mark on a terminal")
        #expect(coloured.stdout.contains("\u{1B}[31m✘\u{1B}[0m tty › broken"), "red fail mark on a terminal")
        #expect(coloured.stdout.contains("\r\u{1B}[2K["), "live progress line on a terminal")

        environment["NO_COLOR"] = "1"
        let plain = try await runProcess(script, ["-qec", command, "/dev/null"], environment: environment)
        #expect(plain.exitCode == 1)
        #expect(plain.stdout.contains("✔ tty › t0"))
        #expect(!plain.stdout.contains("\u{1B}[3"), "no colour with NO_COLOR")
    }
}

extension TerminalTests {
    @Test func largeUploadsShowBytesSentAndRateInTheProgressLine() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-up-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 512 * 1024 * 1024) // sparse: no disk used
        try handle.close()
        let suite = directory.appendingPathComponent("upload.yaml")
        try """
        baseURL: \(demo.baseURL)
        tests:
          - name: big upload
            request: {method: POST, url: /sink, bodyFile: big.bin, timeout: 5m}
            expect:
              json:
                $.bytes: 536870912
        """.write(to: suite, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let command = "\(try TestBinaries.url("apitest").path) run \(suite.path)"
        let result = try await runProcess(
            try TestBinaries.tool("script"), ["-qec", command, "/dev/null"], environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("↑ "), "upload progress in the live line")
        #expect(result.stdout.contains(" of 512.0 MiB"))
        #expect(result.stdout.contains("MiB/s"))
    }
}

extension CLITests {
    @Test func failedAssertionsOnCredentialHeadersDoNotShowTheirValues() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write(
            """
            tests:
              - name: cookie
                request: {url: "\(demo.baseURL)/cookies/set?session=s3cr3t-session-id"}
                expect:
                  headers:
                    Set-Cookie: {contains: other}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("header Set-Cookie: expected to contain \"other\", got •••••"))
        // The URL names the value (the suite wrote it), but the failure line does not show the header's value.
        let line = result.stdout.split(separator: "\n").first { $0.contains("header Set-Cookie") }
        #expect(line?.contains("session=") == false)
    }
}
