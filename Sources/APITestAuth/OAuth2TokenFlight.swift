import Synchronization

// MARK: - OAuth2TokenFlight

/// One token request under way for a grant (the store's single flight) and the steps waiting for its answer.
///
/// A waiting step whose task is cancelled (Ctrl-C) stops waiting at once. When the last waiting step has gone that
/// way, nobody needs the answer: the request's task is cancelled and the flight is abandoned, so a step that comes
/// later (a teardown, which an interruption does not cancel) asks the store again instead of waiting for an answer
/// that would only say "interrupted".
final class OAuth2TokenFlight: Sendable {
    /// How a step's wait ended.
    enum Wait: Sendable, Hashable {
        /// The request was answered (a token, or the failure the grant keeps).
        case answered(Result<OAuth2Token, OAuth2Failure>)
        /// The waiting step's task was cancelled before the answer came.
        case interrupted
        /// Every step that waited was interrupted and the request was cancelled before this one could wait.
        case abandoned
    }

    private struct State {
        var waiters: [UInt64: CheckedContinuation<Wait, Never>] = [:]
        /// Waiters whose task was cancelled before they had registered their continuation.
        var cancelledEarly: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        var answer: Result<OAuth2Token, OAuth2Failure>?
        var abandoned = false
        var request: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// An empty flight; `start(_:)` gives it its request.
    init() {}

    /// The task that sends the request and calls `finish(_:)`. Set before any step waits.
    func start(_ request: Task<Void, Never>) {
        state.withLock { $0.request = request }
    }

    /// Gives every waiting step `answer`; a step that comes later gets it at once.
    func finish(_ answer: Result<OAuth2Token, OAuth2Failure>) {
        let waiters = state.withLock { state in
            state.answer = answer
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: .answered(answer)) }
    }

    /// Waits for the answer, unless the calling task is cancelled first (then `.interrupted`, at once) or the
    /// flight was abandoned (then `.abandoned`).
    func wait() async -> Wait {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (now, abandonedRequest) = state.withLock { state -> (Wait?, Task<Void, Never>?) in
                    // Abandoned first: a step that joined the flight after its waiters had all gone must not be
                    // handed the answer of the cancelled request (it may have come in meanwhile); it asks again.
                    if state.abandoned { return (.abandoned, nil) }
                    if let answer = state.answer { return (.answered(answer), nil) }
                    if state.cancelledEarly.remove(id) != nil { return (.interrupted, Self.leave(&state)) }
                    state.waiters[id] = continuation
                    return (nil, nil)
                }
                abandonedRequest?.cancel()
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let (waiter, abandonedRequest) = state.withLock {
                state -> (CheckedContinuation<Wait, Never>?, Task<Void, Never>?) in
                guard state.answer == nil, !state.abandoned else { return (nil, nil) }
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return (nil, nil)
                }
                return (waiter, Self.leave(&state))
            }
            abandonedRequest?.cancel()
            waiter?.resume(returning: .interrupted)
        }
    }

    /// How many steps wait for the answer now.
    var waiting: Int {
        state.withLock { $0.waiters.count }
    }

    /// Waits until the request's task has ended (after it was cancelled: promptly).
    func ended() async {
        await state.withLock { $0.request }?.value
    }

    /// A waiter has left by cancellation: when it was the last, the flight is abandoned and its request returned, to
    /// be cancelled outside the lock.
    private static func leave(_ state: inout State) -> Task<Void, Never>? {
        guard state.waiters.isEmpty else { return nil }
        state.abandoned = true
        return state.request
    }
}
