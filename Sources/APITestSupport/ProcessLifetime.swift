import Synchronization

/// Values kept until the process exits, never released.
///
/// A run's model (every loaded test, its templates, expectations and compiled expressions) is freed node by node
/// when its last reference goes, after the last test and before the process can exit: about 8 µs a test, spent
/// for memory the exit hands back anyway. `apitest run` parks its model here once loaded.
package enum ProcessLifetime {
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` (and everything it references) alive until the process exits.
    package static func keep(_ value: some Sendable) {
        kept.withLock { $0.append(value) }
    }
}
