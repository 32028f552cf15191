import CCurlShim
import CTLSShim
import Foundation
import Synchronization

/// The event-loop thread that owns libcurl's multi handle and every easy handle, share handle and delegate.
///
/// Other threads talk to it only through `submit(_:)`, which queues a command and wakes the loop through an
/// eventfd; libcurl objects never leave this thread (see DESIGN.md).
///
/// The loop drives libcurl through its socket interface: libcurl says which sockets to watch (`watch(_:what:)`)
/// and when its next timeout is due (`setTimer(milliseconds:)`); the loop waits on them with epoll and hands
/// libcurl only the sockets that are ready (`curl_multi_socket_action`). So the work of one wake-up is that of
/// the transfers it concerns, not of every transfer in flight, as with `curl_multi_perform`.
final class CurlMultiLoop: @unchecked Sendable {
    enum Command: Sendable {
        case start(ticket: TransferTicket, transfer: NewTransfer)
        case cancel(id: UInt64)
        case closeJar(id: UInt64)
        /// Resume `continuation` at `deadline` (``sleep(until:)`` called off the loop thread).
        case wake(at: ContinuousClock.Instant, continuation: CheckedContinuation<Void, Never>)
        /// Resume `continuation` with the cookies of the jar `id` as `CURLINFO_COOKIELIST` lines (none when the jar
        /// has no share on this loop).
        case exportCookies(id: UInt64, continuation: CheckedContinuation<[String], Never>)
        /// Seed `jar` with `seed` when it has no share here yet, add `adding` to it (made from its parent's cookies
        /// on first use, as a transfer would), and resume `continuation` with its cookies (a WebSocket upgrade's).
        case jarCookies(
            jar: CookieJar, seed: [String]?, adding: [String], continuation: CheckedContinuation<[String], Never>)
        case shutdown
    }

    /// A transfer's delegate on its way to the loop: made on the calling task's thread (with the copy of the request
    /// it holds and its buffers, off the loop thread, whose time is every transfer's), handed over by `submit`, whose
    /// lock orders the hand-over, and used on the loop thread only from then on.
    struct NewTransfer: @unchecked Sendable {
        let delegate: TaskDelegate
        /// The cookies the request's jar starts with when its parent's are on another loop of the session
        /// (`CURLINFO_COOKIELIST` lines, read there); `nil` otherwise.
        var cookieSeed: [String]? = nil
    }

    /// The queue other threads append to, whether the loop still takes commands, and whether it waits for
    /// readiness (only then does a new command need to wake it).
    private struct Inbox {
        var queue: [Command] = []
        /// Jobs of tasks that prefer the loop as their executor, enqueued from other threads.
        var jobs: [UnownedJob] = []
        var closed = false
        /// The loop is in (or about to enter) its wait with nothing queued.
        var waiting = false
        /// A wake-up was sent since the loop started waiting.
        var woken = false
    }

    /// The session's settings (timeouts, body limit, connections kept).
    let configuration: SessionConfiguration
    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private let finished = DispatchSemaphore(value: 0)
    /// The loop thread's `pthread_self()` once it runs (0 before): lets `enqueue` and `sleep` called on the loop
    /// thread skip the inbox's lock and the wake-up.
    let loopThreadID = Atomic<UInt>(0)

    // Loop-thread state: read and written on the loop thread only (`assertOnLoopThread()` in debug builds).
    /// The loop thread, once it runs.
    private var loopThread: pthread_t?
    private var delegates: [UnsafeMutableRawPointer: TaskDelegate] = [:]
    private var handlesByID: [UInt64: UnsafeMutableRawPointer] = [:]
    /// Shares whose jar was closed while a transfer still used them; freed when that transfer ends.
    private var closingShares: [UInt64: UnsafeMutableRawPointer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// The cookie share of each open jar, by jar id.
    var shares: [UInt64: UnsafeMutableRawPointer] = [:]
    /// Whether the loop has been told to stop (loop thread only).
    private(set) var stopping = false
    /// Jobs enqueued on the loop thread itself (a transfer's caller resumed by its completion, a task added by a
    /// task running here): run at the start of the next round, with no lock and no wake-up.
    var localJobs: [UnownedJob] = []
    /// Sleeping tasks (``sleep(until:)``), earliest deadline first.
    var timers = LoopTimers()
    /// The epoll instance the loop waits on, and the eventfd that wakes it (-1 when the system refused them).
    let pollFD: Int32
    private let wakeFD: Int32
    /// The sockets in the epoll set and what each is watched for (`CURL_POLL_IN`, `_OUT`, `_INOUT`); a socket
    /// libcurl no longer wants watched stays in the set, parked, until it next reports an event.
    var watchedSockets: [Int32: (what: Int32, parked: Bool)] = [:]
    /// When libcurl next wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)`; `nil` for no timeout.
    var timerDeadline: ContinuousClock.Instant?
    /// The clock when the current round began: a timeout libcurl wants at once is due from then, with no reading.
    var roundStart: ContinuousClock.Instant
    /// Rounds that take new work may follow each other without a look at the sockets, at most this many in a row.
    static let roundsBetweenPolls = 3
    /// The waits for ready sockets so far (each a system call), for the tests.
    let waits = Atomic<Int>(0)
    /// The clock `timerDeadline` is read on.
    let clock = ContinuousClock()
    /// Compiled security policies, one per distinct policy.
    var compiledPolicies: [SecurityPolicy: CompiledSecurityPolicy] = [:]
    /// The plaintext HTTP/2 connections gRPC calls share (`CurlMultiLoop+H2C.swift`).
    var h2cConnections = H2CConnections()
    /// Pooled handles whose cookie engine is on. libcurl 7.88 keeps each `CURLOPT_COOKIEFILE` in a list that
    /// `curl_easy_reset` does not empty, so setting it on every reuse of a handle grew that list by two small
    /// allocations per request, for as long as the process ran; it is set once per handle instead.
    var cookieEngineOn: Set<UnsafeMutableRawPointer> = []
    /// Pooled handles whose last transfer was plain and that keep its options (`CurlMultiLoop+HandleReuse.swift`),
    /// with the settings it set.
    var plainHandles: [UnsafeMutableRawPointer: PlainHandleOptions] = [:]
    /// The last transfer's peer address text (`CurlMultiLoop+Response.swift`).
    var remoteAddressCache = RemoteAddressCache()
    /// The peer certificates of each connection, read once per connection.
    let certificateCache: PeerCertificateCache

    /// Bodies from this size on get a 512 KiB upload buffer.
    static let largeUploadSize = 4 * 1024 * 1024

    /// A multi-handle option libcurl refused when the session was made: every transfer then fails naming it.
    private var refusedSessionOption: String?

    init(configuration: SessionConfiguration) {
        CurlGlobal.initialize()
        self.configuration = configuration
        self.certificateCache = PeerCertificateCache(limit: configuration.maxConnections)
        guard let multi = curl_multi_init() else {
            // Only on allocation failure; nothing can run without it.
            preconditionFailure("curl_multi_init failed")
        }
        self.multi = multi
        self.roundStart = ContinuousClock.now
        self.pollFD = apitest_poll_create()
        self.wakeFD = apitest_wake_create()
        if pollFD < 0 {
            refusedSessionOption = "epoll_create1"
        } else if wakeFD < 0 || apitest_poll_watch(pollFD, wakeFD, 1, 0, 0) != 0 {
            refusedSessionOption = "eventfd"
        }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        if apitest_multi_setopt_socket_callback(multi, socketCallback, userdata) != CURLM_OK {
            refusedSessionOption = refusedSessionOption ?? "CURLMOPT_SOCKETFUNCTION"
        }
        if apitest_multi_setopt_timer_callback(multi, timerCallback, userdata) != CURLM_OK {
            refusedSessionOption = refusedSessionOption ?? "CURLMOPT_TIMERFUNCTION"
        }
        for (name, option, value) in [
            ("CURLMOPT_MAXCONNECTS", CURLMOPT_MAXCONNECTS, configuration.maxConnections),
            ("CURLMOPT_PIPELINING", CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)),
            // One request at a time on an HTTP/2 connection: libcurl 7.88 loses the trailers of a stream (a gRPC
            // call's status) when another stream on the connection fills its buffer (CurlMultiLoop+H2C.swift).
            ("CURLMOPT_MAX_CONCURRENT_STREAMS", CURLMOPT_MAX_CONCURRENT_STREAMS, 1),
        ] where apitest_multi_setopt_long(multi, option, value) != CURLM_OK && refusedSessionOption == nil {
            refusedSessionOption = name
        }
        // Named in the thread itself: Linux keeps 15 bytes of a name (`top -H`, `perf` show it).
        let thread = Thread { [self] in
            apitest_thread_name("apitest-loop")
            run()
        }
        thread.start()
    }

    /// Queues a command for the loop thread and wakes it; `false` once the loop has stopped taking commands.
    ///
    /// Only a loop waiting in `curl_multi_poll` is woken, once: a loop that is busy looks at the queue before it
    /// waits again, and one wake-up covers every command queued before the loop drains them (this saves a system
    /// call, and a wake-up the loop would then drain, per request). The wake-up happens under the lock, so it can
    /// never reach a multi handle the stopping loop has freed.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        inbox.withLock { inbox -> Bool in
            guard !inbox.closed else { return false }
            inbox.queue.append(command)
            wakeIfWaiting(&inbox)
            return true
        }
    }

    /// Queues the job of a task that prefers the loop as its executor, from another thread, and wakes the loop as
    /// `submit` does; `false` once the loop has stopped taking work (the caller then runs the job elsewhere).
    func submitJob(_ job: UnownedJob) -> Bool {
        inbox.withLock { inbox -> Bool in
            guard !inbox.closed else { return false }
            inbox.jobs.append(job)
            wakeIfWaiting(&inbox)
            return true
        }
    }

    /// Wakes a loop waiting with nothing queued, once per wait; called under the inbox's lock.
    private func wakeIfWaiting(_ inbox: inout Inbox) {
        if inbox.waiting && !inbox.woken, wakeFD >= 0 {
            inbox.woken = true
            _ = apitest_wake_signal(wakeFD)
        }
    }

    /// Stops the loop, failing transfers still running with `.cancelled`, and waits for the thread to end.
    func shutdown() {
        // On the loop thread (a task running there shut its session down) the loop stops after this round; waiting
        // for it here would wait for ourselves.
        if submit(.shutdown), !isOnLoopThread { finished.wait() }
    }

    // MARK: - The loop

    /// Traps in debug builds when called off the loop thread: libcurl's handles and this loop's state belong to it.
    @inline(__always)
    func assertOnLoopThread(_ function: StaticString = #function) {
        assert(loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false, "\(function) off the loop thread")
    }

    private func run() {
        loopThread = pthread_self()
        loopThreadID.store(UInt(pthread_self()), ordering: .releasing)
        var running: Int32 = 0
        // Buffers swapped with the inbox's queues and the local jobs: draining them allocates nothing.
        var pending: [Command] = []
        var pendingJobs: [UnownedJob] = []
        var events = [apitest_poll_event](repeating: apitest_poll_event(), count: 64)
        // Rounds in a row that took new work without asking the kernel for ready sockets.
        var roundsWithoutPoll = 0
        while true {
            inbox.withLock { inbox in
                swap(&pending, &inbox.queue)
                if !inbox.jobs.isEmpty { pendingJobs.append(contentsOf: inbox.jobs) }
                inbox.jobs.removeAll(keepingCapacity: true)
                inbox.waiting = false
                inbox.woken = false
            }
            for command in pending { handle(command) }
            pending.removeAll(keepingCapacity: true)
            if stopping {
                pendingJobs.append(contentsOf: localJobs)
                localJobs.removeAll()
                break
            }
            // The round's one reading of the clock, for the sleepers and libcurl's timeout (a transfer started above
            // asked for its timeout at once, before this reading).
            let now = clock.now
            roundStart = now
            // Tasks whose sleep is over, then every job ready now (a job's own new jobs wait for the next round).
            fireTimers(now: now)
            if !localJobs.isEmpty {
                pendingJobs.append(contentsOf: localJobs)
                localJobs.removeAll(keepingCapacity: true)
            }
            if !pendingJobs.isEmpty {
                runJobs(pendingJobs)
                pendingJobs.removeAll(keepingCapacity: true)
            }

            // libcurl's timeout, when due: a transfer just added asks for one at once.
            if let deadline = timerDeadline, deadline <= now {
                timerDeadline = nil
                curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running)
                readCompletions()
            }
            // Work that came while the loop was busy (a job's own jobs, a transfer a job started, a command from
            // another thread) is taken at once; otherwise wait for a socket, a timeout or `submit`'s wake-up.
            let mayWait =
                localJobs.isEmpty
                && inbox.withLock { inbox -> Bool in
                    guard inbox.queue.isEmpty, inbox.jobs.isEmpty else { return false }
                    inbox.waiting = true
                    return true
                }
            // An iteration's chain (its arrival, its task, its transfer's start) takes several rounds: they run
            // one after the other without a system call between them, the sockets looked at after at most
            // `roundsBetweenPolls` of them, so that busy rounds still see every ready socket.
            if !mayWait && roundsWithoutPoll < Self.roundsBetweenPolls {
                roundsWithoutPoll += 1
                continue
            }
            roundsWithoutPoll = 0
            let ready = wait(into: &events, nanoseconds: mayWait ? waitNanoseconds() : 0)
            for event in events[0..<ready] {
                if event.fd == wakeFD {
                    apitest_wake_drain(wakeFD)
                    continue
                }
                if unparkIfParked(event.fd) { continue }
                var mask: Int32 = 0
                if event.ready & Int32(APITEST_POLL_READABLE) != 0 { mask |= CURL_CSELECT_IN }
                if event.ready & Int32(APITEST_POLL_WRITABLE) != 0 { mask |= CURL_CSELECT_OUT }
                if event.ready & Int32(APITEST_POLL_ERROR) != 0 { mask |= CURL_CSELECT_ERR }
                curl_multi_socket_action(multi, event.fd, mask, &running)
            }
            if ready > 0 { readCompletions() }
        }
        // Take no more commands; fail the transfers running and any start that arrived after the last drain.
        let (late, lateJobs) = inbox.withLock { inbox -> ([Command], [UnownedJob]) in
            inbox.closed = true
            return (inbox.queue, inbox.jobs)
        }
        let cancelled = HTTPError(.shutDownDuringTransfer)
        for command in late {
            if case .start(_, let transfer) = command { resumeCaller(transfer.delegate.transfer.fail(cancelled)) }
        }
        for (easy, delegate) in delegates {
            finish(easy, delegate.transfer.fail(cancelled))
        }
        // Tasks that preferred the loop go on on the global executor: their jobs, and sleepers woken now.
        timers.resumeAll()
        for command in late {
            switch command {
            case .wake(_, let continuation): continuation.resume()
            case .exportCookies(_, let continuation): continuation.resume(returning: [])
            case .jarCookies(_, _, _, let continuation): continuation.resume(returning: [])
            default: break
            }
        }
        handOff(pendingJobs + lateJobs + localJobs)
        localJobs.removeAll()
        for easy in idleHandles {
            forgetHandle(easy)
            curl_easy_cleanup(easy)
        }
        idleHandles.removeAll()
        for share in Array(shares.values) + Array(closingShares.values) { curl_share_cleanup(share) }
        shares.removeAll()
        closingShares.removeAll()
        curl_multi_cleanup(multi)
        // `submit` no longer signals (the inbox is closed), and libcurl no longer calls back.
        if pollFD >= 0 { close(pollFD) }
        if wakeFD >= 0 { close(wakeFD) }
        finished.signal()
    }

    /// Hands every transfer libcurl has completed to `complete(_:result:)`.
    private func readCompletions() {
        var easy: UnsafeMutableRawPointer?
        var result = CURLE_OK
        while apitest_multi_info_read(multi, &easy, &result) != 0 {
            if let easy { complete(easy, result: result) }
        }
    }

    /// How long the loop may wait: until libcurl's timeout (rounded up to whole milliseconds, as libcurl counts)
    /// or the earliest sleeper's deadline, at most a second.
    private func waitNanoseconds() -> Int64 {
        let now = clock.now
        var limit = Int64(1_000_000_000)
        if let deadline = timerDeadline {
            let left = deadline - now
            guard left > .zero else { return 0 }
            limit = min(limit, Int64(left.milliseconds) * 1_000_000)
        }
        if let deadline = timers.earliest {
            let left = deadline - now
            guard left > .zero else { return 0 }
            limit = min(limit, left.nanoseconds)
        }
        return limit
    }

    /// Waits up to `nanoseconds` for ready sockets (or the wake-up) and returns how many events it put in `events`.
    /// Without epoll (the system refused it; every transfer then fails naming it) it only sleeps a little, so that
    /// commands are still taken.
    private func wait(into events: inout [apitest_poll_event], nanoseconds: Int64) -> Int {
        guard pollFD >= 0, wakeFD >= 0 else {
            if nanoseconds > 0 { usleep(UInt32(min(nanoseconds / 1000, 10_000))) }
            return 0
        }
        waits.add(1, ordering: .relaxed)
        let count = events.withUnsafeMutableBufferPointer { buffer in
            apitest_poll_wait_ns(pollFD, buffer.baseAddress, Int32(buffer.count), nanoseconds)
        }
        return max(0, Int(count))
    }

    private func handle(_ command: Command) {
        assertOnLoopThread()
        switch command {
        case .start(let ticket, let transfer):
            guard ticket.begin() else {
                resumeCaller(transfer.delegate.transfer.cancel())
                return
            }
            if let seed = transfer.cookieSeed, let jar = transfer.delegate.request.cookieJar,
                let refused = seedJar(jar, with: seed)
            {
                transfer.delegate.check(refused, CURLE_FAILED_INIT)
            }
            start(transfer.delegate)
        case .cancel(let id):
            // Only started transfers are cancelled here; a ticket cancelled before its start never starts.
            if let easy = handlesByID[id], let delegate = delegates[easy] { finish(easy, delegate.transfer.cancel()) }
        case .closeJar(let id):
            if let share = shares.removeValue(forKey: id), curl_share_cleanup(share) == CURLSHE_IN_USE {
                closingShares[id] = share
            }
        case .wake(let deadline, let continuation):
            timers.add(deadline, continuation)
        case .exportCookies(let id, let continuation):
            continuation.resume(returning: shares[id].flatMap { try? cookieLines(of: $0).get() } ?? [])
        case .jarCookies(let jar, let seed, let adding, let continuation):
            continuation.resume(returning: jarCookies(jar, seed: seed, adding: adding))
        case .shutdown:
            stopping = true
        }
    }

    // MARK: - Starting a transfer

    private func start(_ delegate: TaskDelegate) {
        assertOnLoopThread()
        let bodySize: Int64?
        do {
            // `SessionManager.perform` has checked the wire fields on the caller's thread.
            bodySize = try delegate.openBody()
        } catch {
            resumeCaller(delegate.transfer.fail(error))
            return
        }
        guard let easy = idleHandles.popLast() ?? curl_easy_init() else {
            resumeCaller(delegate.transfer.fail(HTTPError(.handleUnavailable)))
            return
        }
        if let refusedSessionOption {
            // The session runs with another setting than the one asked for: no transfer runs on it.
            delegate.check(refusedSessionOption, CURLE_FAILED_INIT)
        }
        configure(easy, for: delegate, bodySize: bodySize)
        let action = delegate.transfer.start()
        guard case .startTransfer = action else {
            // libcurl refused an option: the transfer would run with another setting than the one asked for (no
            // TLS check, another timeout), so it does not run at all. The handle goes back to the pool clean.
            apitest_easy_setopt_share(easy, nil)
            resetHandle(easy)
            idleHandles.append(easy)
            resumeCaller(action)
            return
        }
        delegates[easy] = delegate
        handlesByID[delegate.id] = easy
        let code = curl_multi_add_handle(multi, easy)
        if code != CURLM_OK {
            finish(
                easy,
                delegate.transfer.fail(HTTPError(.transferRefused(code: Int(code.rawValue)))))
        }
    }

    // MARK: - Completion

    /// libcurl completed the transfer on `easy` with `result`: tells its state machine what the handshake check
    /// found and how libcurl ended, then builds the response or fails as the machine decides.
    private func complete(_ easy: UnsafeMutableRawPointer, result: CURLcode) {
        assertOnLoopThread()
        guard let delegate = delegates[easy] else { return }
        // Read once: a failure may be the policy's refusal of the chain, and a response carries it.
        let evaluation = delegate.tlsState?.evaluation
        if let tlsState = delegate.tlsState, tlsState.stoppedUncheckedConnection {
            delegate.transfer.stoppedUncheckedConnection()
        }
        if delegate.h2c?.refused == true { delegate.transfer.stoppedUncheckedConnection() }
        if let evaluation { delegate.transfer.tlsEvaluated(evaluation) }
        var completion = CurlCompletion(code: result)
        if result != CURLE_OK {
            completion.detail = delegate.curlErrorDetail
            apitest_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &completion.osErrno)
            apitest_easy_getinfo_off_t(easy, CURLINFO_CONNECT_TIME_T, &completion.connectTime)
        }
        var action = delegate.transfer.curlDone(completion)
        if case .buildResponse = action {
            if let response = makeResponse(easy, delegate, evaluation: evaluation) {
                action = delegate.transfer.responseBuilt(response)
            } else {
                action = delegate.transfer.digestFailed()
            }
        }
        finish(easy, action)
    }

    /// Detaches the transfer on `easy` from libcurl, returns the handle to the pool and performs `action`, the
    /// state machine's answer to the event that ended the transfer.
    private func finish(_ easy: UnsafeMutableRawPointer, _ action: TaskDelegate.StateMachine.Action) {
        assertOnLoopThread()
        guard let delegate = delegates.removeValue(forKey: easy) else { return }
        handlesByID.removeValue(forKey: delegate.id)
        if let h2c = delegate.h2c { h2cTransferEnded(easy, h2c) }
        curl_multi_remove_handle(multi, easy)
        // curl_easy_reset keeps the share: detach it, or the pooled handle would hold the jar open (and send its
        // cookies on a later request that has none).
        apitest_easy_setopt_share(easy, nil)
        recycleHandle(easy)
        if let jar = delegate.request.cookieJar, let share = closingShares[jar.id],
            curl_share_cleanup(share) == CURLSHE_OK
        {
            closingShares.removeValue(forKey: jar.id)
        }
        if idleHandles.count < configuration.maxConnections {
            idleHandles.append(easy)
        } else {
            forgetHandle(easy)
            curl_easy_cleanup(easy)
        }
        resumeCaller(action)
    }

    /// Resumes the caller of a transfer that ended as `action` says: the one place a delegate's continuation is
    /// resumed. `.none` is the answer of a state machine that had already finished (its caller was resumed then).
    private func resumeCaller(_ action: TaskDelegate.StateMachine.Action) {
        switch action {
        case .succeed(let continuation, let response): continuation.resume(returning: response)
        case .fail(let continuation, let error): continuation.resume(throwing: error)
        case .none: break
        case .startTransfer, .abortTransfer, .buildResponse: assertionFailure("\(action) does not end a transfer")
        }
    }
}

// MARK: - Helpers

/// libcurl's process-wide initialisation, done once before the first handle.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    static func initialize() { _ = initialized }

    /// Runs `initialize()` on a new thread; a later `initialize()` waits for it to finish.
    static func initializeInBackground() {
        let thread = Thread {
            apitest_thread_name("apitest-init")
            initialize()
        }
        thread.start()
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so that a positive duration never becomes 0 (libcurl's "no limit").
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(clamping: max(ms, 0))
    }
}
