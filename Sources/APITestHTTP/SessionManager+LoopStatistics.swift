import Synchronization

// MARK: - What the event loops cost the kernel

extension SessionManager {
    /// How many times the session's event loops have asked the kernel for ready sockets (each an `epoll_pwait2`,
    /// whether it waited or only looked): a loop that takes new work without looking costs no system call for it.
    /// For tests and measurements.
    package var loopWaits: Int {
        loops.reduce(0) { $0 + $1.waits.load(ordering: .relaxed) }
    }
}
