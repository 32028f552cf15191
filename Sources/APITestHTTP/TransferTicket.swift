import Synchronization

/// The state of one `perform` call, shared between the calling task and the loop: whether the transfer started,
/// was cancelled before it could, or is done. Lets a cancellation that races the start be settled without the
/// loop keeping a list of cancelled ids.
final class TransferTicket: Sendable {
    /// Where the `perform` call stands; moves from `pending` to `started` or `cancelled`, never back.
    enum State: UInt8, AtomicRepresentable {
        /// Submitted; the loop has not taken the start command yet.
        case pending
        /// The loop took the start command: a cancellation must go to the loop.
        case started
        /// Cancelled before the loop took the start command: the transfer never starts.
        case cancelled
    }

    let id: UInt64
    private let state = Atomic<State>(.pending)

    init(id: UInt64) {
        self.id = id
    }

    /// Marks the transfer started; `false` when it was cancelled first.
    func begin() -> Bool {
        state.compareExchange(expected: .pending, desired: .started, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the transfer cancelled; `true` when it had already started, so the loop must stop it.
    func cancel() -> Bool {
        let (exchanged, original) = state.compareExchange(
            expected: .pending, desired: .cancelled, ordering: .acquiringAndReleasing)
        return !exchanged && original == .started
    }
}
