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
    // that Foundation has not collected within a second is waited for here, and its real status delivered. Only the
    // child itself: once Foundation has reaped it (its termination handler may run late on a loaded machine), its
    // process ID can be given to another test's child, whose status `waitpid` here would steal (Foundation then
    // reports that child as having exited 0). The child's start time, read now, tells the two apart.
    let startTime = processStartTime(readProcFile("/proc/\(pid)/stat") ?? "")
    let reaper = Thread {
        var zombieSince: ContinuousClock.Instant?
        var goneSince: ContinuousClock.Instant?
        while exited.current == nil {
            Thread.sleep(forTimeInterval: 0.2)
            let stat = readProcFile("/proc/\(pid)/stat") ?? ""
            guard !stat.isEmpty, startTime != nil, processStartTime(stat) == startTime else {
                // Reaped (by Foundation, whose handler is yet to run) or replaced: never waited for here. When the
                // handler has not run a minute later, its status is lost; say so rather than hang.
                let since = goneSince ?? ContinuousClock.now
                goneSince = since
                if ContinuousClock.now - since > .seconds(60) { exited.fulfill(-1) }
                continue
            }
            goneSince = nil
            // "pid (comm) S ...": the state follows the last ')'.
            let state = stat.lastIndex(of: ")").flatMap { stat[stat.index(after: $0)...].first { $0 != " " } }
            guard state == "Z" else {
                zombieSince = nil
                continue
            }
            let since = zombieSince ?? ContinuousClock.now
            zombieSince = since
            guard ContinuousClock.now - since > .seconds(1), exited.current == nil else { continue }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let signal = status & 0x7f
                exited.fulfill(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
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

/// The start time (field 22, in clock ticks since boot) in a `/proc/PID/stat` line; nil when it cannot be read.
private func processStartTime(_ stat: String) -> Substring? {
    guard let close = stat.lastIndex(of: ")") else { return nil }
    // Fields 3 onwards follow the command's closing parenthesis: field 22 is the 20th of them.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 19 ? fields[19] : nil
}
