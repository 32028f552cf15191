import APITestReporting
import APITestSupport
import Foundation
import Synchronization

/// SIGINT and SIGTERM for the whole of `apitest run`, installed before anything is loaded.
///
/// Before the tests start (loading suites and files, `--wait-for`) a signal ends the process at once with exit code
/// 130: nothing has run, so there is nothing to report. Once ``cancelRun(with:)`` has named the run's cancellation,
/// the first signal cancels the requests in flight (the run then reports what finished), and a second one quits at
/// once: it removes the temporary files of reports being written and flushes what the console has, then exits.
///
/// The signals reach a handler of apitest's own (`sigaction`), which only writes a byte to a pipe; a thread of its own
/// reads the pipe and acts. A kernel thread blocked in `read` runs as soon as a byte arrives, whatever the other
/// threads are doing: a dispatch queue's handler could wait for a worker thread until a long load had finished.
final class InterruptHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var interrupted = false
    private var cancel: (@Sendable () -> Void)?
    /// The pipe the signal handler writes to, read by the handler's thread; -1 when it could not be made.
    private let readEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // The handler must never block: a full pipe already holds enough signals to quit.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            signalPipeWriteEnd.store(ends[1], ordering: .releasing)
        }
        readEnd = ends[0]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = signalHandler
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for signalNumber in [SIGINT, SIGTERM] { sigaction(signalNumber, &action, nil) }
        guard readEnd >= 0 else { return }
        let thread = Thread { [self] in readSignals() }
        thread.name = "apitest.signals"
        thread.start()
    }

    /// Reads the pipe until it closes; each read hands over every signal that arrived since the last one (two quick
    /// Ctrl-Cs on a busy machine still quit).
    private func readSignals() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                handleSignal(count: count)
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }

    /// From now on the first signal calls `cancel` instead of ending the process.
    func cancelRun(with cancel: @escaping @Sendable () -> Void) {
        lock.withLock { self.cancel = cancel }
    }

    private func handleSignal(count: Int) {
        let (second, cancel) = lock.withLock { () -> (Bool, (@Sendable () -> Void)?) in
            defer { interrupted = true }
            return (interrupted || count > 1, self.cancel)
        }
        guard !second, let cancel else { Self.quit() }
        FileHandle.standardError.write(
            Data("\ninterrupted: cancelling the requests in flight (again to quit at once)\n".utf8))
        cancel()
    }

    /// Ends the process now: no report is finished, none is left half-made, and the console keeps what it printed.
    private static func quit() -> Never {
        AtomicFileWriter.abandonTemporaryFiles()
        StandardOutput.out.flushIfIdle()
        StandardOutput.error.flushIfIdle()
        let message = "\ninterrupted\n"
        _ = message.withCString { Foundation.write(STDERR_FILENO, $0, strlen($0)) }
        _exit(ExitStatus.interrupted.rawValue)
    }

    /// Gives SIGINT and SIGTERM back their default actions and ends the handler's thread.
    func stop() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let writeEnd = signalPipeWriteEnd.exchange(-1, ordering: .acquiringAndReleasing)
        if writeEnd >= 0 { close(writeEnd) }
    }
}

/// The write end of the signal pipe, for the handler (a C function cannot capture); -1 when there is none.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Writes one byte per signal to the pipe: `write` is async-signal-safe, and nothing else happens here.
private let signalHandler: @convention(c) (Int32) -> Void = { _ in
    let savedErrno = errno
    var byte: UInt8 = 1
    _ = write(signalPipeWriteEnd.load(ordering: .acquiring), &byte, 1)
    errno = savedErrno
}
