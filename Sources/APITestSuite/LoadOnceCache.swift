import Foundation
import Synchronization

/// Values made once per key however many threads ask for them at once (suites load in parallel: the first caller
/// of a key makes its value while the others wait for it, then every caller gets the same value). What the OpenAPI
/// documents and the `.proto` schemas of a load are kept in.
final class LoadOnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One key's value, made once; callers that come while it is being made wait on its lock.
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var value: Value?
    }

    private let slots = Mutex<[Key: Slot]>([:])

    /// An empty cache.
    init() {}

    /// The value of `key`, made by `make` if no caller made it before.
    func value(for key: Key, make: (Key) -> Value) -> Value {
        let slot = slots.withLock { slots in
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let value = slot.value { return value }
        let value = make(key)
        slot.value = value
        return value
    }
}
