import APITestHTTP
import APITestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Reachability: `--wait-for` before a run, and failing fast once a host is found unreachable during one.
@Suite struct ReachabilityTests {
    func write(_ yaml: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-reach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("suite.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try await runProcess(try TestBinaries.url("apitest"), arguments, environment: environment)
    }

    // MARK: - Failing fast during a run

    @Test func testsOfABlackholedHostFailAtOnceAfterTheFirstConnectTimeout() async throws {
        let blackhole = try Blackhole()
        defer { blackhole.close() }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        var yaml = "name: suite\ntests:\n"
        for index in 0..<6 {
            yaml += "  - name: t\(index)\n    request: {url: 'http://127.0.0.1:\(blackhole.port)/\(index)'}\n"
        }
        yaml += "  - name: other host\n    request: {url: '\(demo.baseURL)/health'}\n"
        let file = try write(yaml)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let report = file.deletingLastPathComponent().appendingPathComponent("report.json")
        let result = try await apitest([
            "run", file.path, "--jobs", "1", "--connect-timeout", "400ms", "--report-json", report.path,
        ])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("! suite › t0"))
        #expect(result.stdout.contains("timed out"), "\(result.stdout)")
        let cause = "not run: 127.0.0.1:\(blackhole.port) was unreachable (connect timed out) since 'suite › t0'"
        #expect(result.stdout.components(separatedBy: cause).count - 1 == 5, "\(result.stdout)")
        #expect(result.stdout.contains("✔ suite › other host"))
        #expect(result.stdout.contains("7 tests: 1 passed, 6 errored"))
        // The first test waits for its connect timeout; the five after it error at once instead of each waiting
        // 400 ms. Measured by the run itself (the report's durations), not by the wall clock of a loaded machine.
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let tests = try #require(((document["suites"] as? [[String: Any]])?.first?["tests"]) as? [[String: Any]])
        var durations: [String: Double] = [:]
        for test in tests { durations[test["name"] as? String ?? "?"] = test["durationMs"] as? Double }
        #expect((durations["t0"] ?? 0) >= 350, "t0 should wait for its connect timeout: \(durations)")
        for index in 1..<6 {
            #expect((durations["t\(index)"] ?? .infinity) < 150, "t\(index) waited: \(durations)")
        }
    }

    @Test func theUnreachableCauseIsInEveryReport() async throws {
        let port = try closedPort()
        let file = try write(
            """
            name: suite
            tests:
              - {name: first, request: {url: 'http://127.0.0.1:\(port)/a'}}
              - {name: second, request: {url: 'http://127.0.0.1:\(port)/b'}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let folder = file.deletingLastPathComponent()
        let reports = ["junit": "r.xml", "tap": "r.tap", "json": "r.json", "html": "r.html"]
        var arguments = ["run", file.path, "--jobs", "1"]
        for (kind, name) in reports.sorted(by: { $0.key < $1.key }) {
            arguments += ["--report-\(kind)", folder.appendingPathComponent(name).path]
        }
        let result = try await apitest(arguments)
        #expect(result.exitCode == 1)
        let cause = "not run: 127.0.0.1:\(port) was unreachable (connection refused) since"
        #expect(result.stdout.contains(cause))
        for name in reports.values {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("127.0.0.1:\(port) was unreachable (connection refused)"), "\(name) lacks the cause")
        }
    }

    // MARK: - --wait-for

    @Test func waitForGivesUpWithOneMessageAndRunsNothing() async throws {
        let port = try closedPort()
        let file = try write("tests:\n  - {name: a, request: {url: 'http://127.0.0.1:\(port)/'}}\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let clock = ContinuousClock()
        // What starting the binary costs on this machine right now (it varies with load), to compare against.
        let baselineStart = clock.now
        _ = try await apitest(["validate", file.path])
        let baseline = clock.now - baselineStart
        let start = clock.now
        let result = try await apitest(["run", file.path, "--wait-for", "1s"])
        let elapsed = clock.now - start
        #expect(result.exitCode == 3)
        #expect(
            result.stderr
                == "apitest: 127.0.0.1:\(port) did not accept connections within 1s (connection refused); nothing was run.\n"
        )
        #expect(result.stdout.isEmpty, "nothing runs: \(result.stdout)")
        // It gave up after about the second it was given, not later: at most 4 s beyond a plain start.
        #expect(
            elapsed >= .milliseconds(900) && elapsed < baseline + .seconds(4), "waited \(elapsed), start \(baseline)")
    }

    @Test func waitForABlackholedHostTimesOut() async throws {
        let blackhole = try Blackhole()
        defer { blackhole.close() }
        let file = try write("tests:\n  - {name: a, request: {url: 'http://127.0.0.1:\(blackhole.port)/'}}\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path, "--wait-for", "600ms"])
        #expect(result.exitCode == 3)
        #expect(
            result.stderr.contains("127.0.0.1:\(blackhole.port) did not accept connections within 600ms (timed out)"))
    }

    @Test func waitForStartsTheRunOnceTheHostAcceptsConnections() async throws {
        // The port is held from the start (bound, refusing connections), so that no server another test starts
        // meanwhile can take it before the host comes up.
        let listener = try Listener(port: 0, listening: false)
        defer { listener.close() }
        let port = listener.port
        let file = try write(
            "tests:\n  - {name: a, request: {url: 'http://127.0.0.1:\(port)/', timeout: 300ms}}\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let clock = ContinuousClock()
        let start = clock.now
        async let run = apitest(["run", file.path, "--wait-for", "60s"])
        try await Task.sleep(for: .milliseconds(800))
        try listener.listen()
        let listening = clock.now
        let result = try await run
        // The host came up after 0.8 s (later when the machine is busy): the run started then, and its request
        // (which nobody answers) timed out. Measured from when the host came up, so that a test process starved
        // of threads while it slept cannot make the run look slow.
        #expect(!result.stderr.contains("did not accept"), "\(result.stderr)")
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("timed out"), "\(result.stdout)")
        #expect(listening - start >= .milliseconds(800))
        // Well before the 60 s --wait-for would have ended the wait (a loaded CI run took 30.6 s; the bound only
        // tells "started when the host came up" from "waited out the timeout").
        #expect(clock.now - listening < .seconds(50), "took \(clock.now - listening) after the host came up")
    }

    @Test func waitForIgnoresHostsOfTestsNotSelected() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try write(
            """
            tests:
              - {name: up, request: {url: '\(demo.baseURL)/health'}}
              - {name: down, request: {url: 'http://127.0.0.1:\(try closedPort())/'}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await apitest(["run", file.path, "--wait-for", "5s", "--filter", "› up$"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 test: 1 passed"))
    }

    // MARK: - The HTTP layer's part

    @Test func connectFailuresAreToldApartFromSlowResponses() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let blackhole = try Blackhole()
        defer { blackhole.close() }
        func failure(_ request: HTTPRequest) async -> HTTPError? {
            do {
                _ = try await session.perform(request)
                return nil
            } catch {
                return error as? HTTPError
            }
        }
        let refused = await failure(HTTPRequest(url: "http://127.0.0.1:\(try closedPort())/"))
        #expect(refused?.reason == .connectionRefused && refused?.failedToConnect == true)
        let connectTimeout = await failure(
            HTTPRequest(url: "http://127.0.0.1:\(blackhole.port)/", connectTimeout: .milliseconds(300)))
        #expect(connectTimeout?.reason == .timedOut && connectTimeout?.failedToConnect == true)
        let slow = await failure(HTTPRequest(url: "\(demo.baseURL)/delay/1500", timeout: .milliseconds(300)))
        #expect(slow?.reason == .timedOut && slow?.failedToConnect == false, "a slow response is not unreachable")
    }

    @Test func probeAndEndpoints() async throws {
        #expect(HostEndpoint(url: "https://Example.COM/path")?.description == "example.com:443")
        #expect(
            HostEndpoint(url: "http://127.0.0.1:8080/a?b")
                == HostEndpoint(scheme: "http", host: "127.0.0.1", port: 8080))
        #expect(HostEndpoint(url: "http://[::1]:9/")?.description == "[::1]:9")
        #expect(HostEndpoint(url: "http://h/")?.port == 80)
        #expect(HostEndpoint(url: "ftp://h/") == nil && HostEndpoint(url: "users") == nil)
        let port = try closedPort()
        let refused = await ReachabilityProbe.probe(
            HostEndpoint(scheme: "http", host: "127.0.0.1", port: port), timeout: .seconds(1))
        #expect(refused?.cause == "connection refused")
        let listener = try Listener(port: 0)
        defer { listener.close() }
        let open = await ReachabilityProbe.probe(
            HostEndpoint(scheme: "https", host: "127.0.0.1", port: listener.port), timeout: .seconds(1))
        #expect(open == nil)
        let unknown = await ReachabilityProbe.probe(
            HostEndpoint(scheme: "http", host: "no-such-host.invalid", port: 80), timeout: .seconds(1))
        #expect(unknown?.cause.hasPrefix("host not found") == true, "\(String(describing: unknown))")
    }
}

// MARK: - Sockets for these tests

/// A socket listening on 127.0.0.1 that never accepts: connects complete (the kernel queues them) until the
/// backlog is full.
final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int

    /// A socket bound to `port` on 127.0.0.1 (0 for any free one), listening unless `listening` is false: bound and
    /// not listening, the port is held and connecting to it is refused until `listen(backlog:)`. Such a socket is
    /// bound without `SO_REUSEADDR`: with it, another server that binds the same port with `SO_REUSEADDR` (nginx,
    /// NIO and Python servers all do) could take the port before this one listens.
    init(port: Int, backlog: Int32 = 64, listening: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if listening {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = loopbackAddress(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0, !listening || Glibc.listen(fd, backlog) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts accepting connections on a socket made with `listening: false`.
    func listen(backlog: Int32 = 64) throws {
        guard Glibc.listen(fd, backlog) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    func close() { Glibc.close(fd) }
}

/// A port on 127.0.0.1 where connects hang: a listener with a backlog of 0 that never accepts, its queue filled
/// by this class's own connections, so the kernel drops further SYNs and a client waits for its connect timeout.
final class Blackhole: @unchecked Sendable {
    private let listener: Listener
    private var fillers: [Int32] = []
    var port: Int { listener.port }

    init() throws {
        listener = try Listener(port: 0, backlog: 0)
        for _ in 0..<16 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var address = loopbackAddress(port: listener.port)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&descriptor, 1, 200) == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 {
                fillers.append(fd)
                continue
            }
            // This connect hangs: the queue is full and the port is a blackhole now.
            Glibc.close(fd)
            return
        }
        close()
        throw POSIXError(.EAGAIN)
    }

    func close() {
        for fd in fillers { Glibc.close(fd) }
        fillers = []
        listener.close()
    }
}
