import Dispatch
import Foundation

/// Turns the first SIGINT or SIGTERM into a cancellation of the run; a second one exits at once.
final class InterruptHandler: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]
    private let lock = NSLock()
    private var interrupted = false

    init(onInterrupt: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "apitest.signals")
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: signalNumber, queue: queue))
        }
        self.sources = sources
        for source in sources {
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let second = self.lock.withLock { () -> Bool in
                    defer { self.interrupted = true }
                    return self.interrupted
                }
                if second { _exit(130) }
                FileHandle.standardError.write(
                    Data("\ninterrupted: cancelling the requests in flight (again to quit at once)\n".utf8))
                onInterrupt()
            }
            source.resume()
        }
    }

    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
