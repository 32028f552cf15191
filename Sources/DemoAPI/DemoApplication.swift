import Dispatch
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - DemoApplication

/// Builds the route table and runs the HTTP server until SIGINT or SIGTERM.
enum DemoApplication {
    /// How long in-flight requests may run after a stop signal before the process exits anyway.
    static let shutdownGrace: Double = 2

    /// Every endpoint of the demo API, with fresh users, jobs and pets stores and an OAuth2 issuer whose access
    /// tokens live `tokenLifetime`; with `seededFaults`, the petstore's seeded faults.
    static func routeTable(
        tokenLifetime: Duration = .seconds(DemoOptions.defaultTokenLifetime), seededFaults: Bool = false
    ) -> RouteTable {
        let store = UserStore()
        let groups: [[Route]] = [
            BasicEndpoints.routes(),
            UsersEndpoints.routes(store: store),
            JobEndpoints.routes(store: JobStore()),
            EchoEndpoint.routes(),
            StreamingEndpoints.routes(),
            EventStreamEndpoints.routes(),
            RedirectEndpoints.routes(),
            AuthEndpoints.routes(),
            EncodedEndpoints.routes(),
            PetstoreEndpoints.routes(store: PetStore(), seededFaults: seededFaults),
            ContractFaultEndpoints.routes(),
            StallEndpoints.routes(stall: StallClock()),
            OAuthEndpoints.routes(issuer: OAuthTokenIssuer(lifetime: tokenLifetime)),
            ItemEndpoints.routes(store: ItemStore()),
            SignedEndpoint.routes(),
        ]
        return RouteTable(routes: groups.flatMap { $0 })
    }

    /// Serves until stopped; returns the process exit status (0 after a signal, 1 when the server failed).
    static func run(_ options: DemoOptions) async -> Int32 {
        var logger = Logger(label: "apitest-demo")
        logger.logLevel = options.log ? .notice : .critical
        let responder = DemoResponder(
            table: routeTable(tokenLifetime: .seconds(options.tokenLifetime), seededFaults: options.seededFaults),
            logRequests: options.log)
        let host = options.host
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: options.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                writeAll(fd: 1, "apitest-demo listening on http://\(shownHost):\(port)\n")
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let shutdown = ShutdownState(logs: options.log)
        let signals = installSignalHandlers(group: group, state: shutdown)
        defer { for signal in signals { signal.cancel() } }
        let parentWatch = options.exitWithParent ? watchParent() : nil
        defer { parentWatch?.cancel() }
        do {
            try await group.run()
            shutdown.logStop()
            return 0
        } catch {
            writeAll(fd: 2, "apitest-demo: error: cannot serve on \(host):\(options.port): \(error)\n")
            return 1
        }
    }

    // MARK: - Signals

    /// SIGINT and SIGTERM start a graceful shutdown; if requests are still running `shutdownGrace` seconds later
    /// (a long /delay or /drip, a multi-GiB /bytes), or a second signal arrives, the process exits 0 at once.
    private static func installSignalHandlers(
        group: ServiceGroup, state: ShutdownState
    ) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "apitest-demo.signals")
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                guard state.begin() else {
                    state.logStop()
                    exit(0)
                }
                Task { await group.triggerGracefulShutdown() }
                queue.asyncAfter(deadline: .now() + shutdownGrace) {
                    state.logStop()
                    exit(0)
                }
            }
            source.resume()
            return source
        }
    }

    /// Exits (status 0) once the parent process is gone, seen as a change of `getppid()` (the orphan is adopted by
    /// init or a subreaper), checked four times a second. A parent that is already init when the watch starts was
    /// gone before it (a parent that exits while the server is still starting): the server exits at once.
    private static func watchParent() -> any DispatchSourceTimer {
        let parent = getppid()
        if parent == 1 { exit(0) }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "apitest-demo.parent"))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        timer.setEventHandler {
            if getppid() != parent { exit(0) }
        }
        timer.resume()
        return timer
    }

    /// Whether shutdown has begun; only touched on the signal queue.
    private final class ShutdownState: Sendable {
        private let signalled = Mutex<ContinuousClock.Instant?>(nil)
        private let logs: Bool

        init(logs: Bool) { self.logs = logs }

        /// Marks shutdown as started; false when it already was.
        func begin() -> Bool {
            signalled.withLock { instant in
                defer { if instant == nil { instant = .now } }
                return instant == nil
            }
        }

        /// With `--log`, says how long the stop took after the first signal (`apitest-demo: stopped 12 ms after
        /// the signal`), measured here so that a loaded machine's test runner does not count its own delays.
        func logStop() {
            guard logs, let start = signalled.withLock({ $0 }) else { return }
            let elapsed = ContinuousClock.now - start
            let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            writeAll(fd: 2, "apitest-demo: stopped \(ms) ms after the signal\n")
        }
    }

    /// Writes all of `text` to a file descriptor, unbuffered (so the listening line is out before anyone waits).
    static func writeAll(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
