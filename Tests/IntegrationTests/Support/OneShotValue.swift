import Foundation

// MARK: - OneShotValue

/// A value delivered once (the first `fulfill` wins) and awaited by any number of tasks.
final class OneShotValue<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = SyncBox(State())

    init() {}

    /// Delivers `value` unless a value was already delivered; returns whether this call delivered it.
    @discardableResult
    func fulfill(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The delivered value, suspending until there is one.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The delivered value if there is one yet.
    var current: Value? { state.withLock { $0.value } }
}
