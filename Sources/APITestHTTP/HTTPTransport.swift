// MARK: - HTTPTransport

/// What sends requests for the runner: the libcurl `SessionManager`, or a scripted transport in the runner's unit
/// tests (`ScriptedTransport` in the test support target). Small on purpose, as Alamofire's injected protocols are.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns its response. Throws `HTTPError` for a transfer that failed, and
    /// `CancellationError` (or `HTTPError` with reason `.cancelled`) when the calling task was cancelled.
    func perform(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Releases the cookies of `jar`; later requests naming it start with an empty jar.
    func close(_ jar: CookieJar)

    /// Adds `lines` (`CURLINFO_COOKIELIST` lines) to `jar` and returns every cookie it then holds, as a transfer
    /// with the jar would see them: for a connection the transport makes no request on (a WebSocket upgrade).
    func cookies(of jar: CookieJar, adding lines: [String]) async -> [String]

    /// The thread the transfers run on, as an executor for tasks that do little but start transfers and look at
    /// their responses (the load mode's iterations); `nil` for a transport without one.
    var transferExecutor: (any TransferExecutor)? { get }

    /// Every thread the transfers run on, as executors (empty for a transport without one): tasks spread over them
    /// use as many threads.
    var transferExecutors: [any TransferExecutor] { get }
}

extension HTTPTransport {
    /// No cookies kept outside requests.
    public func cookies(of jar: CookieJar, adding lines: [String]) async -> [String] { [] }

    /// No executor of its own: tasks run on the global executor.
    public var transferExecutor: (any TransferExecutor)? { nil }

    /// The one executor, if any.
    public var transferExecutors: [any TransferExecutor] { transferExecutor.map { [$0] } ?? [] }
}

// MARK: - TransferExecutor

/// The event-loop thread a transport's transfers run on, as a task executor: a task that prefers it runs between
/// its transfers on that thread, so a transfer's start and its completion are calls on one thread, with no hand-off.
public protocol TransferExecutor: TaskExecutor {
    /// Suspends the calling task until `deadline` on the loop's own timer (no timer thread, and a task running on
    /// the loop is resumed there). Not cancellable: callers sleep in short steps when they must notice a stop.
    func sleep(until deadline: ContinuousClock.Instant) async
}

extension SessionManager: HTTPTransport {}
