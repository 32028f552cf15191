import Synchronization

/// Whether a load run is to stop, and the threshold that stopped it.
final class LoadControl: Sendable {
    private let flag = Atomic<Bool>(false)
    private let reason = Mutex<String?>(nil)

    var stopped: Bool { flag.load(ordering: .relaxed) }

    func stop() { flag.store(true, ordering: .relaxed) }

    /// Stops the run because `threshold` failed (the first reason given is kept).
    func abort(because threshold: String) {
        reason.withLock { $0 = $0 ?? threshold }
        stop()
    }

    var abortedBy: String? { reason.withLock { $0 } }
}
