import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whether hosts accept TCP connections: AFNetworkReachabilityManager's job for a command-line runner.
///
/// A probe resolves the host and opens a TCP connection to each address in turn until one is accepted, then closes
/// it; nothing is sent, and for `https` no TLS handshake is made (a TCP connection is enough to know the host
/// is up). Probes run on Dispatch's global threads, never blocking a Swift-concurrency thread.
public enum ReachabilityProbe {
    /// An endpoint that did not accept a connection, and why.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var endpoint: HostEndpoint
        /// A short cause: `connection refused`, `host not found`, `timed out`, or the system's words.
        public var cause: String
        public var description: String { "\(endpoint) (\(cause))" }

        public init(endpoint: HostEndpoint, cause: String) {
            self.endpoint = endpoint
            self.cause = cause
        }
    }

    // MARK: - One probe

    /// Tries once to connect to `endpoint`, allowing `timeout` per address; `nil` when a connection was accepted.
    public static func probe(_ endpoint: HostEndpoint, timeout: Duration) async -> Failure? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let cause = reach(host: endpoint.host, port: endpoint.port, timeout: timeout)
                continuation.resume(returning: cause.map { Failure(endpoint: endpoint, cause: $0) })
            }
        }
    }

    // MARK: - Waiting

    /// Probes every endpoint until all have accepted a connection or `limit` has passed, with backoff between
    /// rounds (100 ms, doubling up to 2 s). Returns the endpoints that never accepted, with their last cause, in
    /// sorted order; empty when all are reachable.
    public static func waitUntilReachable(_ endpoints: [HostEndpoint], within limit: Duration) async -> [Failure] {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var pending = Set(endpoints)
        var failures: [HostEndpoint: Failure] = [:]
        var delay = Duration.milliseconds(100)
        while !pending.isEmpty {
            let remaining = deadline - clock.now
            let attemptTimeout = max(.milliseconds(50), min(remaining, .seconds(2)))
            let round = await withTaskGroup(of: (HostEndpoint, Failure?).self) { group in
                for endpoint in pending {
                    group.addTask { (endpoint, await probe(endpoint, timeout: attemptTimeout)) }
                }
                var results: [(HostEndpoint, Failure?)] = []
                for await result in group { results.append(result) }
                return results
            }
            for (endpoint, failure) in round {
                if let failure {
                    failures[endpoint] = failure
                } else {
                    pending.remove(endpoint)
                    failures.removeValue(forKey: endpoint)
                }
            }
            let left = deadline - clock.now
            if pending.isEmpty || left <= .zero || Task.isCancelled { break }
            try? await Task.sleep(for: min(delay, left))
            delay = min(delay * 2, .seconds(2))
        }
        return pending.sorted().compactMap { failures[$0] }
    }

    // MARK: - Sockets

    /// Connects to each address of `host` in turn; `nil` on the first success, else the last address's cause.
    private static func reach(host: String, port: Int, timeout: Duration) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return status == EAI_NONAME
                ? "host not found" : "host not found: \(String(cString: gai_strerror(status)))"
        }
        defer { freeaddrinfo(list) }
        var cause = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            if let failure = attempt(info.pointee, timeout: timeout) {
                cause = failure
            } else {
                return nil
            }
            entry = info.pointee.ai_next
        }
        return cause
    }

    /// A non-blocking connect to one address, waiting at most `timeout`.
    private static func attempt(_ info: addrinfo, timeout: Duration) -> String? {
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else { return describe(errno) }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return describe(errno) }
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&descriptor, 1, max(1, milliseconds)) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return ready == 0 ? "timed out" : describe(errno) }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return describe(errno) }
        return error == 0 ? nil : describe(error)
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ETIMEDOUT: return "timed out"
        case ENETUNREACH: return "network unreachable"
        case EHOSTUNREACH: return "host unreachable"
        default: return String(cString: strerror(code))
        }
    }
}
