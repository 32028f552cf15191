import Synchronization

/// Runs HTTP transfers concurrently on libcurl's multi interface: AFURLSessionManager for a command-line runner.
///
/// Any number of tasks may call `perform(_:)` at once; every transfer runs on one event-loop thread, which reuses
/// connections (up to `SessionConfiguration.maxConnections`) and multiplexes HTTP/2 over TLS. Cancelling the
/// calling task cancels its transfer promptly.
///
/// ```swift
/// let session = SessionManager()
/// let response = try await session.perform(HTTPRequest(url: "http://127.0.0.1:8080/health"))
/// ```
public final class SessionManager: Sendable {
    public let configuration: SessionConfiguration
    /// The event loops (`SessionConfiguration.eventLoops`, usually one).
    let loops: [CurlMultiLoop]
    private let nextID = Atomic<UInt64>(0)
    private let isShutDown = Atomic<Bool>(false)

    public init(configuration: SessionConfiguration = SessionConfiguration()) {
        self.configuration = configuration
        self.loops = (0..<configuration.eventLoops).map { _ in CurlMultiLoop(configuration: configuration) }
    }

    deinit {
        shutdown()
    }

    // MARK: - Process-wide set-up

    /// Starts libcurl's process-wide set-up (which initialises the TLS library) on a background thread, so that
    /// it overlaps the caller's other start-up work. Optional: the first `SessionManager` does the set-up itself,
    /// or waits for the one started here.
    ///
    /// Call `waitForPreparation()` before the process exits: exiting while the set-up runs would race the TLS
    /// library's exit handlers.
    public static func prepareInBackground() {
        CurlGlobal.initializeInBackground()
    }

    /// Returns once libcurl's process-wide set-up has finished, doing it now if nothing has started it.
    public static func waitForPreparation() {
        CurlGlobal.initialize()
    }

    /// Sends `request` and returns the complete response.
    ///
    /// A request with fields bound to its origin (`HTTPRequest.originBoundHeaders`, or an AWS session token) that
    /// follows redirects has them followed here, one transfer a hop, so that a hop to another origin goes without
    /// those fields (libcurl 7.88 keeps custom headers across hosts), and so does one that records its hops
    /// (`recordsRedirectHops`); any other request's redirects are libcurl's.
    ///
    /// - Throws: `HTTPError` when no complete response arrived (with a reason such as `.connectionRefused`,
    ///   `.timedOut` or `.bodyTooLarge`), `CancellationError` when the calling task was cancelled.
    public func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.followRedirects, request.hasOriginBoundFields || request.recordsRedirectHops {
            return try await performFollowingRedirects(request)
        }
        return try await performOnce(request)
    }

    /// Sends `request` as one libcurl transfer (which follows redirects itself when the request says so). A pinned
    /// request that the last guard stopped before it was sent, because libcurl had handed it a connection its policy
    /// had not checked, is sent once more on a new connection, whose handshake the policy checks.
    func performOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await transfer(request)
        } catch let error as HTTPError where !request.forcesFreshConnection {
            guard case .uncheckedConnection = error.detail else { throw error }
            var fresh = request
            fresh.forcesFreshConnection = true
            return try await transfer(fresh)
        }
    }

    /// Sends `request` as one libcurl transfer.
    private func transfer(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard !isShutDown.load(ordering: .acquiring) else {
            throw HTTPError(.sessionShutDown)
        }
        // The last look at the request before libcurl gets it (nothing with a line break goes on the wire), on the
        // caller's thread: the loop thread's time is every transfer's.
        try request.checkWireFields()
        if request.authentication?.signsRequest == true, !request.body.isInMemory {
            throw HTTPError(.streamedBodyNotSignable)
        }
        let ticket = TransferTicket(id: nextID.wrappingAdd(1, ordering: .relaxed).newValue)
        let (loop, seedSource) = route(request)
        var cookieSeed: [String]?
        if let seedSource { cookieSeed = await loops[seedSource.loop].cookieLines(of: seedSource.jar) }
        var response = try await withTaskCancellationHandler {
            try await withTransferContinuation { continuation in
                // The delegate is made here, on the caller's thread: the loop thread only takes it.
                let delegate = TaskDelegate(
                    id: ticket.id, request: request, maxBodySize: request.maxBodySize ?? configuration.maxBodySize,
                    continuation: continuation)
                if !loop.submit(.start(ticket: ticket, transfer: .init(delegate: delegate, cookieSeed: cookieSeed))) {
                    continuation.resume(throwing: HTTPError(.sessionShutDown))
                }
            }
        } onCancel: {
            if ticket.cancel() { loop.submit(.cancel(id: ticket.id)) }
        }
        response.readReceivedFieldLines()
        return response
    }

    /// The loop a transfer of `request` runs on, and the cookies its jar starts with when they are on another loop.
    ///
    /// With one loop, that one. Otherwise the loop of the calling task when it runs on one (so that a task on a loop
    /// starts and finishes its transfers there), else the first; a request with a cookie jar goes to the jar's
    /// loop, which its first transfer chooses that way. A jar that starts from its parent's cookies (a test's copy
    /// of its suite's jar) takes them on its own loop; when the parent's are on another, they are read from there
    /// first (`CURLINFO_COOKIELIST`) and handed over with the transfer.
    private func route(_ request: HTTPRequest) -> (CurlMultiLoop, seedSource: (loop: Int, jar: CookieJar)?) {
        guard loops.count > 1 else { return (loops[0], nil) }
        let caller = loops.firstIndex { $0.isOnLoopThread } ?? 0
        guard let jar = request.cookieJar else { return (loops[caller], nil) }
        let (chosen, earlier) = jar.home.compareExchange(
            expected: -1, desired: caller, ordering: .acquiringAndReleasing)
        guard chosen else { return (loops[earlier], nil) }
        guard let parent = jar.parent else { return (loops[caller], nil) }
        let parentHome = parent.home.load(ordering: .acquiring)
        guard parentHome >= 0, parentHome != caller else { return (loops[caller], nil) }
        return (loops[caller], (parentHome, parent))
    }

    /// The event-loop thread the transfers of tasks not running on a loop go to, as a task executor (see
    /// ``TransferExecutor``).
    public var transferExecutor: (any TransferExecutor)? { loops[0] }

    /// Every event-loop thread of the session (`SessionConfiguration.eventLoops`), as task executors: tasks spread
    /// over them run their transfers on as many threads.
    public var transferExecutors: [any TransferExecutor] { loops }

    /// Releases the cookies of `jar`; later requests naming it start with an empty jar.
    public func close(_ jar: CookieJar) {
        loops[max(0, jar.home.load(ordering: .acquiring))].submit(.closeJar(id: jar.id))
    }

    /// Fails every transfer still running with `.cancelled` and stops the event-loop thread. Idempotent.
    public func shutdown() {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for loop in loops { loop.shutdown() }
    }
}
