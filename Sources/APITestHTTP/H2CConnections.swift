/// The plaintext HTTP/2 (h2c) connections of one event loop that gRPC calls take turns on: each one opened by a
/// call with prior knowledge (`CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE` and `CURLOPT_FRESH_CONNECT`), known by its
/// socket and its addresses from the moment its first call is about to be sent until libcurl closes its socket, with
/// the calls on it.
///
/// libcurl 7.88 cannot send a second prior-knowledge request on a connection: on reuse it puts another HTTP/2 layer
/// on the connection, and the request fails with "Error in the HTTP2 framing layer" (curl issue 10634, fixed in
/// 8.0). A request that asks for plain HTTP/2 (`CURL_HTTP_VERSION_2_0`) reuses an HTTP/2 connection correctly, but
/// on a connection of its own would speak HTTP/1.1. So a call rides on a connection only when its pre-request check
/// finds the connection here (`CurlMultiLoop+H2C.swift`); any other is refused before anything is sent, and the call
/// is sent again with prior knowledge on a new connection. libcurl puts one request at a time on a connection
/// (`CURLMOPT_MAX_CONCURRENT_STREAMS` 1) and picks which; a call asks to ride only when an idle connection of its
/// origin is known and not promised to another call, so refusals are rare. (libcurl may hand a rider a connection
/// whose call it has finished before the loop has: the count of calls on a connection may pass 1 for a moment.)
struct H2CConnections {
    /// A TCP connection's two ends, as libcurl's pre-request callback names them.
    struct Address: Hashable {
        var localIP: String
        var localPort: Int
        var peerIP: String
        var peerPort: Int
    }

    /// A known connection: its socket, the origin of its first call, the calls on it.
    private struct Connection {
        var socket: Int32
        var origin: String
        var calls: Int
    }

    private var connections: [Address: Connection] = [:]
    /// The address of each known connection's socket.
    private var addresses: [Int32: Address] = [:]
    /// The known connections per origin with no call on them.
    private var idleCount: [String: Int] = [:]
    /// The calls per origin promised an idle connection that have not reached their pre-request check yet.
    private var claimCount: [String: Int] = [:]

    /// The connections known (for tests).
    var count: Int { connections.count }

    /// Whether the connection at `address` is known and idle.
    func isIdle(_ address: Address) -> Bool { connections[address].map { $0.calls == 0 } ?? false }

    /// Promises a call to `origin` an idle connection, if one is known and not promised to another call.
    mutating func claim(_ origin: String) -> Bool {
        guard idleCount[origin, default: 0] - claimCount[origin, default: 0] > 0 else { return false }
        claimCount[origin, default: 0] += 1
        return true
    }

    /// The call promised a connection of `origin` reached its pre-request check, or ended before it.
    mutating func settleClaim(_ origin: String) {
        let left = claimCount[origin, default: 0] - 1
        claimCount[origin] = left > 0 ? left : nil
    }

    /// The new connection at `address`, on `socket`, carries a prior-knowledge call to `origin`.
    mutating func add(_ address: Address, socket: Int32, origin: String) {
        guard connections[address] == nil else { return }
        if let stale = addresses[socket] { remove(stale) }
        connections[address] = Connection(socket: socket, origin: origin, calls: 1)
        addresses[socket] = address
    }

    /// A call goes on the connection at `address`; false when it is not known.
    mutating func take(_ address: Address) -> Bool {
        guard let connection = connections[address] else { return false }
        connections[address]?.calls += 1
        if connection.calls == 0 { adjustIdle(connection.origin, by: -1) }
        return true
    }

    /// A call on the connection at `address` ended (if it is still known).
    mutating func release(_ address: Address) {
        guard let connection = connections[address], connection.calls > 0 else { return }
        connections[address]?.calls -= 1
        if connection.calls == 1 { adjustIdle(connection.origin, by: 1) }
    }

    /// The connection at `address` is not one to ride on (its call was not answered over HTTP/2), or is gone.
    mutating func remove(_ address: Address) {
        guard let connection = connections.removeValue(forKey: address) else { return }
        addresses.removeValue(forKey: connection.socket)
        if connection.calls == 0 { adjustIdle(connection.origin, by: -1) }
    }

    /// libcurl closes `socket`: its connection, if known, is gone.
    mutating func closed(_ socket: Int32) {
        guard !addresses.isEmpty, let address = addresses[socket] else { return }
        remove(address)
    }

    private mutating func adjustIdle(_ origin: String, by change: Int) {
        let count = idleCount[origin, default: 0] + change
        idleCount[origin] = count > 0 ? count : nil
    }
}
