import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - ProcessResult

/// How a finished child process ended and everything it wrote.
struct ProcessResult: Sendable {
    /// The exit status; `128 + n` when the process was killed by signal `n` (the shell's convention).
    var exitCode: Int32
    /// Standard output, decoded as UTF-8 (invalid bytes become U+FFFD).
    var stdout: String
    /// Standard error, decoded as UTF-8.
    var stderr: String
}

// MARK: - ProcessTimedOut

/// A child that was still running when its time ran out; it has been killed.
struct ProcessTimedOut: Error, CustomStringConvertible {
    var command: String
    var timeout: Duration
    var stdout: String
    var stderr: String
    var description: String {
        "\(command) did not finish within \(timeout) and was killed\nstdout: \(stdout.suffix(2000))\n"
            + "stderr: \(stderr.suffix(2000))"
    }
}

// MARK: - runProcess

/// Runs `executable` with `arguments` and returns its exit code and output.
///
/// Standard input is `/dev/null`; standard output and standard error are drained concurrently on their own
/// threads, so a child writing a lot to either cannot deadlock. `environment` entries are laid over the current
/// process's environment (nil: inherit it unchanged). When `timeout` passes, or the calling task is cancelled, the
/// child is killed with SIGKILL; a timeout throws `ProcessTimedOut` carrying the output so far.
func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
    currentDirectory: URL? = nil, timeout: Duration = .seconds(60)
) async throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
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
    try process.run()
    let pid = process.processIdentifier
    let stdoutData = PipeDrain(stdoutPipe.fileHandleForReading)
    let stderrData = PipeDrain(stderrPipe.fileHandleForReading)

    let timedOut = SyncBox(false)
    let timer = Task.detached {
        try? await Task.sleep(for: timeout)
        guard !Task.isCancelled, exited.current == nil else { return }
        timedOut.withLock { $0 = true }
        kill(pid, SIGKILL)
    }
    // Foundation's process monitor has been seen to leave a child that exited unreaped (a zombie) and never call the
    // termination handler, which hung the whole test run. A thread of its own reaps such a child itself: a zombie
    // that Foundation has not collected within a second is waited for here, and its real status delivered.
    let reaper = Thread {
        var zombieSince: ContinuousClock.Instant?
        while exited.current == nil {
            Thread.sleep(forTimeInterval: 0.2)
            let stat = readProcFile("/proc/\(pid)/stat") ?? ""
            // "pid (comm) S ...": the state follows the last ')'.
            let state = stat.lastIndex(of: ")").flatMap { stat[stat.index(after: $0)...].first { $0 != " " } }
            guard state == "Z" || stat.isEmpty else {
                zombieSince = nil
                continue
            }
            let since = zombieSince ?? ContinuousClock.now
            zombieSince = since
            guard ContinuousClock.now - since > .seconds(1), exited.current == nil else { continue }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                let signal = status & 0x7f
                exited.fulfill(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            } else if reaped < 0 && stat.isEmpty {
                // Gone and reaped by someone else without a word: its status is lost; say so rather than hang.
                exited.fulfill(-1)
            }
        }
    }
    reaper.name = "test.process-reaper"
    reaper.start()
    let exitCode = await withTaskCancellationHandler {
        await exited.wait()
    } onCancel: {
        kill(pid, SIGKILL)
    }
    timer.cancel()
    let stdout = String(decoding: await stdoutData.result(), as: UTF8.self)
    let stderr = String(decoding: await stderrData.result(), as: UTF8.self)
    if timedOut.withLock({ $0 }) {
        let command = ([executable.path] + arguments).joined(separator: " ")
        throw ProcessTimedOut(command: command, timeout: timeout, stdout: stdout, stderr: stderr)
    }
    return ProcessResult(exitCode: exitCode, stdout: stdout, stderr: stderr)
}
