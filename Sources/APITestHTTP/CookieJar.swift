import Synchronization

/// A cookie store shared by the requests that name it. A jar can start as a copy of another (the runner gives
/// each test a copy of its suite's jar as `setup` left it, so tests running at the same time never see each
/// other's cookies).
///
/// Backed by a libcurl share handle owned by the session manager's event-loop thread; the jar itself is only an
/// identity that can cross threads.
public final class CookieJar: Sendable, Hashable {
    private static let counter = Atomic<UInt64>(0)

    /// A process-unique identity.
    public let id: UInt64
    /// The jar whose cookies this one starts with, copied when this jar is first used.
    public let parent: CookieJar?
    /// The index of the session's event loop that holds this jar's cookies, chosen at its first transfer (-1
    /// before): every transfer with the jar goes to that loop (see `SessionManager`).
    let home = Atomic<Int>(-1)

    /// An empty jar.
    public init() {
        id = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        parent = nil
    }

    /// A jar that starts with the cookies `parent` holds when this jar's first request starts; later changes to
    /// either jar do not reach the other.
    public init(copying parent: CookieJar) {
        id = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        self.parent = parent
    }

    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
