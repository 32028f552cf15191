import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - DemoServer

/// A running `apitest-demo --port 0` on 127.0.0.1, stopped by `stop()` or, at the latest, when released.
///
/// ```swift
/// let demo = try await DemoServer.start()
/// defer { demo.stop() }
/// // ... requests to demo.baseURL ...
/// ```
final class DemoServer: Sendable {
    /// Why the server did not come up.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// How long `start()` waits for the listening line.
    static let startTimeout: Double = 10

    /// The port the server listens on.
    let port: Int
    /// The server's process id (for /proc/<pid>/status and the like).
    let processIdentifier: Int32
    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    private let process: SyncBox<Process?>
    private let stderrDrain: PipeDrain
    private let exitStatusBox: OneShotValue<Int32>

    private init(port: Int, process: Process, stderrDrain: PipeDrain, exitStatus: OneShotValue<Int32>) {
        self.port = port
        self.processIdentifier = process.processIdentifier
        self.process = SyncBox(process)
        self.stderrDrain = stderrDrain
        self.exitStatusBox = exitStatus
    }

    deinit { stop() }

    // MARK: - Starting

    /// Starts `apitest-demo --port 0 --exit-with-parent` and waits (10 s at most) for its `listening on` line.
    static func start() async throws -> DemoServer {
        try await start(extraArguments: [])
    }

    /// Starts `apitest-demo --port 0` with more arguments (such as `--log`).
    static func start(extraArguments: [String]) async throws -> DemoServer {
        let executable = try TestBinaries.url("apitest-demo")
        let process = Process()
        process.executableURL = executable
        // --exit-with-parent: if the test process is killed outright, the server does not outlive it.
        process.arguments = ["--port", "0", "--exit-with-parent"] + extraArguments
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let exited = OneShotValue<Int32>()
        process.terminationHandler = { finished in
            let status = finished.terminationStatus
            exited.fulfill(finished.terminationReason == .uncaughtSignal ? 128 + status : status)
        }

        let listening = OneShotValue<Result<Int, StartFailure>>()
        let pending = SyncBox(Data())
        try process.run()
        let stderrDrain = PipeDrain(stderrPipe.fileHandleForReading)
        let stdoutDrain = PipeDrain(stdoutPipe.fileHandleForReading) { chunk in
            let line: String? = pending.withLock { buffer in
                buffer.append(chunk)
                guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
                return String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            }
            guard let line else { return }
            if let port = DemoServer.port(fromListeningLine: line) {
                listening.fulfill(.success(port))
            } else {
                listening.fulfill(
                    .failure(StartFailure(description: "unexpected first line from apitest-demo: \(line)")))
            }
        }
        Task.detached {
            _ = await stdoutDrain.result()
            listening.fulfill(.failure(StartFailure(description: "apitest-demo closed stdout without listening")))
        }
        Task.detached {
            try? await Task.sleep(for: .seconds(startTimeout))
            listening.fulfill(
                .failure(StartFailure(description: "apitest-demo did not listen within \(startTimeout) s")))
        }

        switch await listening.wait() {
        case .success(let port):
            return DemoServer(port: port, process: process, stderrDrain: stderrDrain, exitStatus: exited)
        case .failure(var failure):
            kill(process.processIdentifier, SIGKILL)
            _ = await exited.wait()
            let stderr = String(decoding: stderrDrain.soFar, as: UTF8.self)
            if !stderr.isEmpty { failure.description += "\nstderr: \(stderr)" }
            throw failure
        }
    }

    /// The port in `apitest-demo listening on http://127.0.0.1:<port>`.
    static func port(fromListeningLine line: String) -> Int? {
        let prefix = "apitest-demo listening on http://"
        guard line.hasPrefix(prefix), let colon = line.lastIndex(of: ":") else { return nil }
        return Int(line[line.index(after: colon)...])
    }

    // MARK: - Stopping

    /// Sends SIGTERM and returns at once; a thread of its own sends SIGKILL if the server is still running 5 s later.
    /// Safe to call more than once. Not waiting keeps a test's `defer { demo.stop() }` from holding one of the test
    /// runner's few cooperative threads; ``stopAndWait()`` waits.
    func stop() {
        guard let pid = signalStop() else { return }
        let reaper = Thread { [exitStatusBox] in
            if !pollUntil(timeout: .seconds(5), { exitStatusBox.current != nil }) { kill(pid, SIGKILL) }
        }
        reaper.name = "test.reaper"
        reaper.start()
    }

    /// Sends SIGTERM and waits for the process to exit (SIGKILL after 5 s), on a thread of its own; how long the exit
    /// took, measured there (a test runner slowed by other tests does not count its own delays).
    @discardableResult
    func stopAndWait() async throws -> Duration {
        guard let pid = signalStop() else { return .zero }
        let start = ContinuousClock.now
        return try await onOwnThread { [exitStatusBox] in
            if !pollUntil(timeout: .seconds(5), { exitStatusBox.current != nil }) {
                kill(pid, SIGKILL)
                _ = pollUntil(timeout: .seconds(5)) { exitStatusBox.current != nil }
            }
            return ContinuousClock.now - start
        }
    }

    /// Sends SIGTERM unless stopped already; the pid it was sent to.
    private func signalStop() -> Int32? {
        guard
            let process = process.withLock({ current -> Process? in
                defer { current = nil }
                return current
            })
        else { return nil }
        let pid = process.processIdentifier
        // A server that has exited already is not signalled: its PID may belong to another process by now.
        guard exitStatusBox.current == nil else { return nil }
        kill(pid, SIGTERM)
        return pid
    }

    /// The exit status once the process has ended (`128 + n` for signal `n`), else nil.
    var terminationStatus: Int32? { exitStatusBox.current }

    /// What the server wrote to stderr so far (request lines when started with `--log`).
    var standardError: String { String(decoding: stderrDrain.soFar, as: UTF8.self) }

}
