import APITestReporting
import APITestSupport
import Dispatch
import Foundation

/// SIGINT and SIGTERM for the whole of `apitest run`, installed before anything is loaded.
///
/// Before the tests start (loading suites and files, `--wait-for`) a signal ends the process at once with exit code
/// 130: nothing has run, so there is nothing to report. Once ``cancelRun(with:)`` has named the run's cancellation,
/// the first signal cancels the requests in flight (the run then reports what finished), and a second one quits at
/// once: it removes the temporary files of reports being written and flushes what the console has, then exits.
///
/// The signals are turned into events on a dispatch queue, so the handler runs whatever the main thread is blocked
/// in.
final class InterruptHandler: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]
    private let lock = NSLock()
    private var interrupted = false
    private var cancel: (@Sendable () -> Void)?

    init() {
        let queue = DispatchQueue(label: "apitest.signals")
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: signalNumber, queue: queue))
        }
        self.sources = sources
        for source in sources {
            // A dispatch source coalesces signals that arrive before its handler runs: `data` counts them, so two
            // quick Ctrl-Cs on a busy machine still quit. (The handler keeps its source: both live as long as the process.)
            source.setEventHandler { [weak self, source] in self?.handleSignal(count: Int(source.data)) }
            source.resume()
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

    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
