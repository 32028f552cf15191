import Synchronization

/// At most `count` holders at once; `acquire` waits (in order) for a free slot.
///
/// Not ``DecodeBudget``, although both queue waiters first come first served: the open model's arrival loop
/// acquires a slot for every arrival (thousands a second), and here a free slot is taken under a lock without
/// suspending, where the actor would cost a hop onto it for each; ``release()`` is synchronous. The budget's
/// reservations weigh what each body costs (the first waiter holds the others back until its cost fits) and it
/// records its peak, which unit slots need neither of.
final class AsyncSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    func acquire() async {
        let acquired = state.withLock { state -> Bool in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
        if acquired { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume()
    }
}
