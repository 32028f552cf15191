import CCurlShim

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
    /// The call's handle, to keep libcurl from reusing the connection (`answeredWithoutBody()`).
    var easy: UnsafeMutableRawPointer?
    /// The response was trailers-only: no call goes on its connection again.
    private(set) var retiresConnection = false

    init(loop: CurlMultiLoop, origin: String, role: Role) {
        self.loop = loop
        self.origin = origin
        self.role = role
    }

    /// A `grpc-status` field among the response's first header fields: a trailers-only answer (a gRPC error in the
    /// one HEADERS frame that ends the stream, as grpcio answers UNIMPLEMENTED to an unknown method before it has
    /// read the request). libcurl 7.88 can fail the next request on such a connection with "Stream error in the
    /// HTTP/2 framing layer" (GRPCReflectionTests' server-without-reflection test: its v1alpha call after the v1
    /// call's UNIMPLEMENTED failed 5 times in 6), so libcurl closes the connection when the call is done
    /// (`CURLOPT_FORBID_REUSE`) and the shared connections forget it (`CurlMultiLoop.h2cTransferEnded`).
    func answeredWithoutBody() {
        guard !retiresConnection else { return }
        retiresConnection = true
        if let easy { _ = apitest_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1) }
    }

    /// Whether a response header line is the `grpc-status` field (any case).
    static func isStatusField(_ line: UnsafeRawBufferPointer) -> Bool {
        let name = "grpc-status:".utf8
        guard line.count >= name.count else { return false }
        return zip(line, name).allSatisfy { byte, expected in byte | 0x20 == expected | 0x20 }
    }
}
