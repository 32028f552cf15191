import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Paths on the command line that are not plain files (devices, FIFOs, symbolic links, missing folders) and the
/// signals that must end apitest whatever it is doing.
@Suite struct SpecialFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A suite whose one test errors at once (connection refused on a closed port): a run that needs no server.
    func writeSuite(name: String = "suite.yaml") throws -> URL {
        let file = directory.appendingPathComponent(name)
        try "baseURL: http://127.0.0.1:\(try closedPort())\ntests:\n  - name: refused\n    request: {url: /}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func apitest(_ arguments: [String], timeout: Duration = .seconds(20)) async throws -> ProcessResult {
        try await runProcess(
            try TestBinaries.url("apitest"), arguments, currentDirectory: directory, timeout: timeout)
    }

    func makeFIFO(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    static func fileType(_ path: String, following: Bool = true) -> mode_t {
        var info = stat()
        let status = following ? stat(path, &info) : lstat(path, &info)
        return status == 0 ? info.st_mode & S_IFMT : 0
    }

    /// Whether process `pid` has taken over SIGINT and SIGTERM (caught, in `/proc/PID/status`): from then on a signal
    /// reaches apitest's handler, not the default action. (Ignored does not count: a child may inherit SIG_IGN, and a
    /// signal sent then is lost.)
    static func signalsAreHandled(_ pid: Int32) -> Bool {
        let wanted: UInt64 = 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
        func mask(_ field: String, in status: String) -> UInt64 {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            return UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
        }
        // Until the child has exec'd apitest, /proc shows the test process's own handlers, which it inherited at fork:
        // a signal sent then never reaches apitest's handler.
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        let status = readProcFile("/proc/\(pid)/status") ?? ""
        return (executable as NSString).lastPathComponent == "apitest" && mask("SigCgt", in: status) & wanted == wanted
    }

    /// Sends `signal` to `pid` the moment it has taken over SIGINT and SIGTERM (20 s at most), after `delay`, and
    /// waits for `exited`; all on a thread of its own (see ``onOwnThread(_:)``), so the time from the signal to the
    /// exit is measured where no other test's fixture delays it. That time, or nil (an issue recorded) when the
    /// process never took the signals or did not exit within 60 s.
    static func exitTimeAfterSignal(
        _ pid: Int32, _ signal: Int32, after delay: Duration = .zero, exited: OneShotValue<Int32>
    ) async throws -> Duration? {
        // Issues are recorded here, in the test's task: a thread of its own is outside the test's context.
        let outcome = try await onOwnThread { () -> Result<Duration, SignalFailure> in
            guard pollUntil(timeout: .seconds(20), { signalsAreHandled(pid) }) else { return .failure(.notHandled) }
            if delay > .zero { _ = pollUntil(timeout: delay) { false } }
            let sent = ContinuousClock.now
            kill(pid, signal)
            guard pollUntil(timeout: .seconds(60), { exited.current != nil }) else { return .failure(.noExit) }
            return .success(ContinuousClock.now - sent)
        }
        switch outcome {
        case .success(let took): return took
        case .failure(.notHandled): Issue.record("process \(pid) never took over SIGINT and SIGTERM")
        case .failure(.noExit): Issue.record("process \(pid) did not exit within 60 s of the signal")
        }
        return nil
    }

    /// Why ``exitTimeAfterSignal(_:_:after:exited:)`` measured nothing.
    enum SignalFailure: Error {
        case notHandled
        case noExit
    }

    // MARK: - Report paths

    @Test func aReportToDevNullLeavesTheDeviceInPlace() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        let result = try await apitest([
            "run", "suite.yaml", "--report-junit", "/dev/null", "--report-tap", "/dev/null",
        ])
        // Two reports to /dev/null are one file named twice.
        #expect(result.exitCode == 2)
        #expect(
            result.stderr.contains(
                "two reports cannot be written to the same file: --report-junit '/dev/null' and --report-tap '/dev/null'"
            ), "\(result.stderr)")
        let single = try await apitest(["run", "suite.yaml", "--report-junit", "/dev/null"])
        #expect(single.exitCode == 1, "\(single.stderr)")
        #expect(single.stdout.contains("1 test: 0 passed, 1 errored"))
        #expect(Self.fileType("/dev/null", following: false) == S_IFCHR, "/dev/null is no longer a device")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["suite.yaml"])
    }

    @Test func aReportToAFIFOIsWrittenThroughToItsReader() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        let fifo = try makeFIFO("report.pipe")
        // The reader blocks in open(2) until apitest opens the FIFO for writing, then reads to the end.
        let reader = Task.detached { () -> Data? in
            let descriptor = open(fifo, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { return data }
                data.append(contentsOf: buffer[..<count])
            }
        }
        let result = try await apitest(["run", "suite.yaml", "--report-json", "report.pipe"])
        #expect(result.exitCode == 1, "\(result.stderr)")
        let data = try #require(await reader.value)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(report["generator"] as? String == "apitest")
        #expect(Self.fileType(fifo, following: false) == S_IFIFO, "the FIFO was replaced")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func aReportThroughASymlinkToStdoutGoesToStdoutAndTheLinkStays() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        let link = directory.appendingPathComponent("out.json").path
        #expect(symlink("/dev/stdout", link) == 0)
        let result = try await apitest(["run", "suite.yaml", "--quiet", "--report-json", "out.json"])
        #expect(result.exitCode == 1, "\(result.stderr)")
        // The console's lines and summary come first (flushed before the report is written through), then the report.
        let start = try #require(result.stdout.firstIndex(of: "{"), "\(result.stdout)")
        let data = Data(result.stdout[start...].utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(report["generator"] as? String == "apitest")
        #expect(result.stdout[..<start].contains("1 test: 0 passed, 1 errored"), "\(result.stdout)")
        #expect(Self.fileType(link, following: false) == S_IFLNK, "the symbolic link was replaced")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/stdout")
    }

    @Test func aSymlinkToARegularFileKeepsTheLinkAndReplacesItsTarget() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        let reports = directory.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try "old".write(to: reports.appendingPathComponent("junit.xml"), atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("latest.xml").path
        #expect(symlink("reports/junit.xml", link) == 0)
        let result = try await apitest(["run", "suite.yaml", "--report-junit", "latest.xml"])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "reports/junit.xml")
        let text = try String(contentsOf: reports.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: reports.path) == ["junit.xml"])
        // The link and its target are one file: naming both is naming one file twice.
        let twice = try await apitest([
            "run", "suite.yaml", "--report-junit", "latest.xml", "--report-html", "reports/junit.xml",
        ])
        #expect(twice.exitCode == 2)
        #expect(twice.stderr.contains("two reports cannot be written to the same file"), "\(twice.stderr)")
    }

    @Test func aReportPathThatCannotBeWrittenStopsTheRunBeforeAnyRequest() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await DemoServer.start(extraArguments: ["--log"])
        defer { demo.stop() }
        try "baseURL: \(demo.baseURL)\ntests:\n  - name: counted\n    request: {url: /status/200?sent}\n"
            .write(to: directory.appendingPathComponent("suite.yaml"), atomically: true, encoding: .utf8)
        let cases: [(arguments: [String], message: String)] = [
            (["--report-junit", "missing/junit.xml"], "--report-junit 'missing/junit.xml': the folder '"),
            (["--report-tap", "suite.yaml/r.tap"], "--report-tap 'suite.yaml/r.tap': '"),
            (["--report-html", "."], "--report-html '.': not a file name"),
            (["--report-json", directory.path], "--report-json '\(directory.path)': is a directory"),
        ]
        for (arguments, message) in cases {
            let result = try await apitest(["run", "suite.yaml", "--report-json", "fine.json"] + arguments)
            #expect(result.exitCode == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "something ran: \(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("fine.json").path))
        }
        let missing = try await apitest(["run", "suite.yaml", "--report-junit", "missing/junit.xml"])
        #expect(missing.stderr.contains("'\(directory.path)/missing' does not exist"), "\(missing.stderr)")
        // A control run shows that the server counts requests: only it reached the server.
        let control = try await apitest(["run", "suite.yaml"])
        #expect(control.exitCode == 0, "\(control.stdout)\(control.stderr)")
        try await Task.sleep(for: .milliseconds(200))
        #expect(demo.standardError.components(separatedBy: "sent").count - 1 == 1, "\(demo.standardError)")
    }

    // MARK: - Files read from flags

    @Test func everyFileFlagRejectsAFIFOAtOnceNamingTheFlag() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        let fifo = try makeFIFO("input.pipe")
        let runFlags = [
            "--ca-file", "--certificate", "--client-cert", "--client-key", "--variables-file", "--shard-timings",
        ]
        for flag in runFlags {
            let needs = ["--client-key": ["--client-cert", "suite.yaml"], "--shard-timings": ["--shard", "1/2"]]
            let arguments = ["run", "suite.yaml", flag, fifo] + (needs[flag] ?? [])
            let result = try await apitest(arguments, timeout: .seconds(10))
            #expect(result.exitCode == 2, "\(flag): \(result.stderr)")
            #expect(result.stderr.contains("\(flag) '\(fifo)' is not a regular file"), "\(flag): \(result.stderr)")
        }
        // pin-check's TLS flags are run's (one option group), checked alike.
        for flag in ["--ca-file", "--certificate", "--client-cert", "--client-key"] {
            let result = try await apitest(["pin-check", "https://127.0.0.1:1/", flag, fifo], timeout: .seconds(10))
            #expect(result.exitCode == 2, "pin-check \(flag): \(result.stderr)")
            #expect(result.stderr.contains("\(flag) '\(fifo)' is not a regular file"), "\(result.stderr)")
        }
        for command in ["run", "validate", "list"] {
            let result = try await apitest([command, fifo], timeout: .seconds(10))
            #expect(result.exitCode == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("suite path '\(fifo)' is not a regular file"), "\(result.stderr)")
        }
        let folder = try await apitest(["run", "suite.yaml", "--ca-file", directory.path], timeout: .seconds(10))
        #expect(folder.stderr.contains("--ca-file '\(directory.path)' is a directory, not a file"))
        let missing = try await apitest(["run", "suite.yaml", "--variables-file", "nope.env"], timeout: .seconds(10))
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("--variables-file 'nope.env' does not exist"), "\(missing.stderr)")
    }

    // MARK: - Signals

    @Test func sigtermBeforeTheTestsStartEndsTheRunAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        let process = Process()
        process.executableURL = try TestBinaries.url("apitest")
        // --wait-for polls the closed port for 60 s: the stage between loading and running.
        process.arguments = ["run", "suite.yaml", "--wait-for", "60s"]
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let exited = OneShotValue<Int32>()
        process.terminationHandler = { exited.fulfill($0.terminationStatus) }
        try process.run()
        let took = try await Self.exitTimeAfterSignal(
            process.processIdentifier, SIGTERM, after: .milliseconds(300), exited: exited)
        let status = await exited.wait()
        // Far below the 60 s the poll would take, and far above what a loaded 2-core CI machine needs to exit.
        if let took { #expect(took < .seconds(20)) }
        #expect(status == 130)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("interrupted"), "\(text)")
    }

    @Test func sigtermWhileTheSuitesLoadEndsTheProcess() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // 100,000 tests (about 11 MB): loading takes seconds, so the signal arrives while the suite is parsed.
        var yaml = "baseURL: http://127.0.0.1:\(try closedPort())\ntests:\n"
        yaml.reserveCapacity(12_000_000)
        for index in 0..<100_000 {
            yaml += "  - name: t\(index)\n    request: {url: /a/\(index), headers: {X-A: b}}\n"
            yaml += "    expect: {status: 200, json: {$.a: 1}}\n"
        }
        try yaml.write(to: directory.appendingPathComponent("big.yaml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try TestBinaries.url("apitest")
        process.arguments = ["run", "big.yaml"]
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exited = OneShotValue<Int32>()
        process.terminationHandler = { exited.fulfill($0.terminationStatus) }
        try process.run()
        let drainedOutput = PipeDrain(output.fileHandleForReading)
        let drainedErrors = PipeDrain(errors.fileHandleForReading)
        // Sent from a thread of its own the moment apitest handles signals: loading 100,000 tests takes the debug
        // build several seconds, so the signal arrives long before the first test could start.
        let took = try await Self.exitTimeAfterSignal(process.processIdentifier, SIGTERM, exited: exited)
        let status = await exited.wait()
        // A loaded 2-core machine may need several seconds just to deliver the signal and exit.
        if let took { #expect(took < .seconds(12)) }
        // 130, as for Ctrl-C, from apitest's own handler: not killed by the signal's default action.
        #expect(status == 130)
        #expect(process.terminationReason == .exit)
        let stdout = String(decoding: await drainedOutput.result(), as: UTF8.self)
        #expect(stdout.isEmpty, "a test ran: \(stdout.prefix(500))")
        let stderr = String(decoding: await drainedErrors.result(), as: UTF8.self)
        #expect(stderr.contains("interrupted"), "\(stderr)")
    }

    @Test func aSecondCtrlCWhileReportsAreWrittenLeavesNoTemporaryFileAndKeepsTheConsole() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeSuite()
        for name in ["junit.xml", "report.json"] {
            try "old".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        // Test-only: each report's temporary file is held 30 s before it is renamed into place.
        let run = try InterruptibleRun(
            ["run", "suite.yaml", "--report-junit", "junit.xml", "--report-json", "report.json"],
            environment: ["APITEST_TEST_REPORT_PAUSE": "30"], directory: directory)
        let directory = directory
        @Sendable func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
                $0.hasSuffix(".tmp")
            }
        }
        // The two interrupts must both come within the report's 30 s pause.
        let took = try await run.interrupt(
            when: { !temporaries().isEmpty }, settle: .zero, secondAfter: .milliseconds(300))
        #expect(took != nil, "no report was being written")
        #expect(await run.exitStatus() == 130)
        // Far below the 30 s pause, and far above what a loaded 2-core CI machine needs to exit.
        if let took { #expect(took < .seconds(20)) }
        let stdout = await run.output()
        #expect(temporaries().isEmpty, "left behind: \(temporaries())")
        #expect(stdout.contains("! suite › refused"), "the finished test's console lines were lost: \(stdout)")
        // The report being written keeps its old contents; none is half-written.
        #expect(try String(contentsOf: directory.appendingPathComponent("junit.xml"), encoding: .utf8) == "old")
        #expect(try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8) == "old")
    }
}
