import CCurlShim
import Foundation

// MARK: - Plaintext HTTP/2 (h2c) connections shared by gRPC calls

extension CurlMultiLoop {
    /// Whether the environment names a proxy libcurl would use for `http` URLs (`http_proxy`, `all_proxy`): libcurl
    /// then ignores prior knowledge and speaks HTTP/1.1 to the proxy, so no call rides on another's connection.
    static let environmentHasHTTPProxy: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return ["http_proxy", "all_proxy", "ALL_PROXY"].contains { environment[$0].map { !$0.isEmpty } ?? false }
    }()

    /// Decides how the request of `delegate` gets its connection (see `H2CConnections`): a plaintext prior-knowledge
    /// request (a gRPC call over h2c) rides on a known h2c connection of its origin when one is idle (HTTP/2 without
    /// prior knowledge; the pre-request check refuses any other connection) or opens one with prior knowledge; one
    /// through a proxy or a unix socket, and a request that must not reuse a connection (`forcesFreshConnection`),
    /// gets a new one.
    func configureConnectionReuse(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        let request = delegate.request
        guard request.speaksPlaintextPriorKnowledge, let origin = Self.h2cOrigin(of: request) else {
            // A plaintext prior-knowledge request that shares no connection (through a proxy's tunnel or a unix
            // socket) takes a new one: libcurl 7.88 fails a second prior-knowledge request on a connection.
            if request.forcesFreshConnection || request.speaksPlaintextPriorKnowledge {
                delegate.check("CURLOPT_FRESH_CONNECT", apitest_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1))
            }
            return
        }
        let rides = !request.forcesFreshConnection && h2cConnections.claim(origin)
        let transfer = H2CTransfer(loop: self, origin: origin, role: rides ? .rides : .opens)
        transfer.claimOpen = rides
        transfer.easy = easy
        delegate.h2c = transfer
        let userdata = Unmanaged.passUnretained(transfer).toOpaque()
        delegate.check(
            "CURLOPT_PREREQFUNCTION", apitest_easy_setopt_prereq_callback(easy, h2cPrereqCallback, userdata))
        if rides {
            delegate.check(
                "CURLOPT_HTTP_VERSION",
                apitest_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_0)))
        } else {
            delegate.check("CURLOPT_FRESH_CONNECT", apitest_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1))
            delegate.check(
                "CURLOPT_SOCKOPTFUNCTION", apitest_easy_setopt_sockopt_callback(easy, h2cSockoptCallback, userdata))
        }
    }

    /// The origin under which a plaintext HTTP/2 request with prior knowledge shares connections: the URL's host
    /// and port with its connect-to and resolve entries; nil for any other request, and for one through a proxy
    /// or a unix socket.
    static func h2cOrigin(of request: HTTPRequest) -> String? {
        let transport = request.transport
        guard transport.httpVersion == .http2PriorKnowledge, transport.proxy == nil, transport.unixSocketPath == nil,
            !environmentHasHTTPProxy, let components = URLComponents(string: request.url),
            components.scheme?.lowercased() == "http", let host = components.host?.lowercased()
        else { return nil }
        var origin = "\(host):\(components.port ?? 80)"
        for entry in transport.connectTo { origin += "\nconnect-to \(entry)" }
        for entry in request.resolve { origin += "\nresolve \(entry)" }
        return origin
    }

    /// The connection at `address` is ready for the call of `transfer` (libcurl's pre-request callback): a rider
    /// goes only on a known h2c connection (libcurl puts one request at a time on it); an opener's new connection
    /// becomes known, with its call on it.
    func h2cConnectionReady(_ transfer: H2CTransfer, at address: H2CConnections.Address) -> Bool {
        assertOnLoopThread()
        switch transfer.role {
        case .rides:
            if transfer.claimOpen {
                transfer.claimOpen = false
                h2cConnections.settleClaim(transfer.origin)
            }
            guard h2cConnections.take(address) else {
                transfer.refused = true
                return false
            }
            transfer.address = address
            return true
        case .opens:
            let socket = transfer.sockets.last {
                apitest_socket_connects(
                    $0, address.localIP, Int32(address.localPort), address.peerIP, Int32(address.peerPort)) != 0
            }
            if let socket {
                h2cConnections.add(address, socket: socket, origin: transfer.origin)
                transfer.address = address
            }
            return true
        }
    }

    /// The call of `transfer` on `easy` ends: its connection is idle again, unless an opener's call was answered
    /// over another protocol than HTTP/2 (a call cut by its deadline, unanswered, leaves an HTTP/2 connection).
    func h2cTransferEnded(_ easy: UnsafeMutableRawPointer, _ transfer: H2CTransfer) {
        assertOnLoopThread()
        if transfer.claimOpen {
            transfer.claimOpen = false
            h2cConnections.settleClaim(transfer.origin)
        }
        guard let address = transfer.address else { return }
        // A trailers-only answer: libcurl closes the connection (`H2CTransfer.answeredWithoutBody`).
        if transfer.retiresConnection {
            h2cConnections.remove(address)
            return
        }
        if transfer.role == .opens {
            var version = 0
            apitest_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
            if version != 0, version != Int(CURL_HTTP_VERSION_2_0) {
                h2cConnections.remove(address)
                return
            }
        }
        h2cConnections.release(address)
    }
}

// MARK: - Callbacks

/// `CURLOPT_PREREQFUNCTION` of a plaintext gRPC call: `CurlMultiLoop.h2cConnectionReady(_:at:)`.
let h2cPrereqCallback: apitest_prereq_callback = { clientp, primaryIP, localIP, primaryPort, localPort in
    guard let clientp, let primaryIP, let localIP else { return CURL_PREREQFUNC_ABORT }
    let transfer = Unmanaged<H2CTransfer>.fromOpaque(clientp).takeUnretainedValue()
    let address = H2CConnections.Address(
        localIP: String(cString: localIP), localPort: Int(localPort), peerIP: String(cString: primaryIP),
        peerPort: Int(primaryPort))
    return transfer.loop.h2cConnectionReady(transfer, at: address) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

/// `CURLOPT_SOCKOPTFUNCTION` of a call that opens an h2c connection: remembers each socket libcurl makes for it.
let h2cSockoptCallback: apitest_sockopt_callback = { clientp, socket, _ in
    if let clientp { Unmanaged<H2CTransfer>.fromOpaque(clientp).takeUnretainedValue().sockets.append(socket) }
    return CURL_SOCKOPT_OK
}
