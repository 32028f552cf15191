import Synchronization

/// A cookie store shared by the requests that name it: one per suite run, so tests of one suite see each
/// other's cookies and suites stay apart.
///
/// Backed by a libcurl share handle owned by the session manager's event-loop thread; the jar itself is only an
/// identity that can cross threads.
public final class CookieJar: Sendable, Hashable {
    private static let counter = Atomic<UInt64>(0)

    /// A process-unique identity.
    public let id: UInt64

    public init() {
        id = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
