/// A plaintext gRPC call's part in h2c connection reuse (`H2CConnections`), held by its `TaskDelegate` while it
/// runs and reached from libcurl's pre-request and socket-option callbacks.
final class H2CTransfer {
    /// How the call gets its connection.
    enum Role {
        /// Rides on a known idle connection (HTTP/2 without prior knowledge), or is refused before it is sent.
        case rides
        /// Opens a connection with prior knowledge, which others may ride on once it is known.
        case opens
    }

    /// The loop whose `H2CConnections` the call uses (it outlives its transfers).
    unowned let loop: CurlMultiLoop
    /// The URL's scheme, host and port with the connect-to and resolve entries: calls with the same origin may
    /// share a connection (libcurl decides which).
    let origin: String
    let role: Role
    /// The sockets libcurl made for the call (an opener's: one per address tried).
    var sockets: [Int32] = []
    /// The connection the call went on, once the pre-request check let it (an opener's, or the one a rider took).
    var address: H2CConnections.Address?
    /// A rider's promise of an idle connection is still open (it has not reached its pre-request check).
    var claimOpen = false
    /// The pre-request check refused the connection libcurl chose: nothing was sent.
    var refused = false

    init(loop: CurlMultiLoop, origin: String, role: Role) {
        self.loop = loop
        self.origin = origin
        self.role = role
    }
}
