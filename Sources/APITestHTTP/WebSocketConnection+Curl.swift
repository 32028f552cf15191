import APITestSecurity
import CCurlShim
import CTLSShim
import Foundation
import Synchronization

// MARK: - libcurl resources

extension WebSocketConnection {
    /// What libcurl reads from while a connect-only handle is open: the option lists, the handshake check of a
    /// security policy and the error buffer. Freed with the handle.
    final class CurlResources {
        var lists: [UnsafeMutablePointer<curl_slist>] = []
        var tlsState: TLSTransferState?
        var compiled: CompiledSecurityPolicy?
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

        init() {
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        }

        deinit {
            for list in lists { curl_slist_free_all(list) }
            errorBuffer.deallocate()
        }

        /// A libcurl list of `entries`, kept until the handle is freed; nil for none.
        func list(_ entries: [String]) -> UnsafeMutablePointer<curl_slist>? {
            guard !entries.isEmpty else { return nil }
            var list: UnsafeMutablePointer<curl_slist>?
            for entry in entries { list = entry.withCString { curl_slist_append(list, $0) } }
            if let list { lists.append(list) }
            return list
        }
    }

    /// Distinct ids for the policies compiled for WebSocket handles (the session's own count from 1).
    private static let policyIDs = Mutex(1 << 30)

    // MARK: - Opening

    /// The URL libcurl connects to (`ws` as `http`, `wss` as `https`), the request target and the `Host` value.
    static func endpoint(of url: String) throws(WebSocketError) -> (curlURL: String, target: String, host: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw WebSocketError(.invalidURL(url)) }
        let curlScheme: String
        switch scheme {
        case "ws", "http": curlScheme = "http"
        case "wss", "https": curlScheme = "https"
        default: throw WebSocketError(.invalidURL(url))
        }
        var http = components
        http.scheme = curlScheme
        http.fragment = nil
        guard let curlURL = http.string else { throw WebSocketError(.invalidURL(url)) }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let defaultPort = curlScheme == "https" ? 443 : 80
        var hostField = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = components.port, port != defaultPort { hostField += ":\(port)" }
        return (curlURL, target, hostField)
    }

    /// Connects, upgrades and checks the answer (on the queue).
    func open(_ request: HTTPRequest) throws(WebSocketError) {
        let endpoint = try Self.endpoint(of: request.url)
        if let authentication = request.authentication {
            // Digest, NTLM, AWS signatures and netrc are run by libcurl on HTTP requests it sends itself.
            let scheme: String
            switch authentication {
            case .digest: scheme = "digest"
            case .ntlm: scheme = "ntlm"
            case .awsSigV4: scheme = "awsSigV4"
            case .netrc: scheme = "netrc"
            }
            throw WebSocketError(.unsupportedAuthentication(scheme))
        }
        CurlGlobal.initialize()
        guard let easy = curl_easy_init() else {
            throw WebSocketError(.connect(HTTPError(.handleUnavailable)))
        }
        self.easy = easy
        do throws(WebSocketError) {
            try configure(easy, request: request, url: endpoint.curlURL)
            let code = curl_easy_perform(easy)
            tlsEvaluation = resources.tlsState?.evaluation
            guard code == CURLE_OK else { throw connectError(easy, code) }
            socket = apitest_easy_active_socket(easy)
            guard socket >= 0 else { throw WebSocketError(.io(code: -1, message: "no socket after connecting")) }
            let deadline = ContinuousClock.now + (request.timeout ?? .seconds(30))
            let handshake = WebSocketHandshake(subprotocols: options.subprotocols)
            try sendBytes(
                handshake.requestBytes(target: endpoint.target, host: endpoint.host, headers: request.headers),
                deadline: deadline)
            var received: [UInt8] = []
            while true {
                received += try receiveBytes(deadline: deadline, waitingFor: "answer to the WebSocket upgrade")
                if let (response, used) = try WebSocketHandshake.parseResponse(received) {
                    handshakeResponse = response
                    subprotocol = try handshake.validate(response)
                    takeEarlyFrames(received[used...])
                    return
                }
            }
        } catch {
            shutdown()
            throw error
        }
    }

    /// The error of a connect libcurl failed with `code`: the policy's refusal of the chain first, as for requests.
    private func connectError(_ easy: UnsafeMutableRawPointer, _ code: CURLcode) -> WebSocketError {
        if let evaluation = tlsEvaluation,
            evaluation.verdict == .pinMismatch || evaluation.verdict == .certificateInvalid
        {
            return WebSocketError(.connect(HTTPError(.chainRejected(evaluation), curlCode: Int(code.rawValue))))
        }
        var completion = CurlCompletion(code: code, detail: String(cString: resources.errorBuffer))
        apitest_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &completion.osErrno)
        apitest_easy_getinfo_off_t(easy, CURLINFO_CONNECT_TIME_T, &completion.connectTime)
        return WebSocketError(.connect(CurlErrorMapper.error(for: completion)))
    }

    /// Sets the connect-only handle's options from `request`: what `CurlMultiLoop.configure` sets for a transfer's
    /// connection (time limits, resolve and connect-to entries, unix socket, proxy, the security policy), on a
    /// handle of its own: the loop's configuration is bound to its thread and to a transfer's delegate.
    private func configure(_ easy: UnsafeMutableRawPointer, request: HTTPRequest, url: String) throws(WebSocketError) {
        var refused: (String, CURLcode)?
        func check(_ name: String, _ code: CURLcode) {
            if code != CURLE_OK, refused == nil { refused = (name, code) }
        }
        check("CURLOPT_URL", url.withCString { apitest_easy_setopt_string(easy, CURLOPT_URL, $0) })
        check("CURLOPT_NOSIGNAL", apitest_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        check("CURLOPT_ERRORBUFFER", apitest_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, resources.errorBuffer))
        check("CURLOPT_PROTOCOLS", apitest_easy_allow_http_only(easy, 0))
        // The upgrade is HTTP/1.1: ALPN must not offer h2.
        check("CURLOPT_HTTP_VERSION", apitest_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)))
        check("CURLOPT_CONNECT_ONLY", apitest_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1))
        check(
            "CURLOPT_CONNECTTIMEOUT_MS",
            apitest_easy_setopt_long(
                easy, CURLOPT_CONNECTTIMEOUT_MS, (request.connectTimeout ?? .seconds(10)).milliseconds))
        if let list = resources.list(request.resolve) {
            check("CURLOPT_RESOLVE", apitest_easy_setopt_slist(easy, CURLOPT_RESOLVE, list))
        }
        let transport = request.transport
        if let list = resources.list(transport.connectTo) {
            check("CURLOPT_CONNECT_TO", apitest_easy_setopt_slist(easy, CURLOPT_CONNECT_TO, list))
        }
        if let path = transport.unixSocketPath {
            check("CURLOPT_UNIX_SOCKET_PATH", apitest_easy_setopt_string(easy, CURLOPT_UNIX_SOCKET_PATH, path))
        }
        if let proxy = transport.proxy {
            check("CURLOPT_PROXY", apitest_easy_setopt_string(easy, CURLOPT_PROXY, proxy))
            // Through an HTTP proxy the connection is a CONNECT tunnel, whatever the scheme.
            check("CURLOPT_HTTPPROXYTUNNEL", apitest_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1))
        }
        if let noProxy = transport.noProxy {
            check("CURLOPT_NOPROXY", apitest_easy_setopt_string(easy, CURLOPT_NOPROXY, noProxy))
        }
        if let policy = request.security {
            configureSecurity(easy, policy: policy, url: url, check: check)
        } else {
            check("CURLOPT_SSL_VERIFYPEER", apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1))
            check("CURLOPT_SSL_VERIFYHOST", apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2))
        }
        if let (name, code) = refused {
            throw WebSocketError(.connect(HTTPError(.optionRefused(name: name, code: Int(code.rawValue)))))
        }
    }

    /// Applies `policy` as `CurlMultiLoop.configureSecurity` does for a transfer: libcurl's trust settings and the
    /// handshake check that enforces pins (no cipher-list tag: this handle's connection is never shared).
    private func configureSecurity(
        _ easy: UnsafeMutableRawPointer, policy: SecurityPolicy, url: String, check: (String, CURLcode) -> Void
    ) {
        let compiled: CompiledSecurityPolicy
        do throws(CompiledSecurityPolicy.Refused) {
            compiled = try CompiledSecurityPolicy(
                policy: policy,
                id: Self.policyIDs.withLock { id in
                    id += 1
                    return id
                })
        } catch {
            check("the security policy (\(error.message))", CURLE_SSL_CERTPROBLEM)
            return
        }
        let settings = policy.settings
        let hosts = settings.hosts.isEmpty ? [CurlMultiLoop.host(of: url)].compactMap { $0 } : settings.hosts
        let state = TLSTransferState(compiled: compiled, hosts: hosts)
        resources.compiled = compiled
        resources.tlsState = state
        check(
            "CURLOPT_SSL_VERIFYPEER",
            apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, settings.allowInvalidCertificates ? 0 : 1))
        check(
            "CURLOPT_SSL_VERIFYHOST",
            apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, settings.validatesDomainName ? 2 : 0))
        if let caFile = settings.caFile {
            check("CURLOPT_CAINFO", apitest_easy_setopt_string(easy, CURLOPT_CAINFO, caFile))
        }
        if let certificate = settings.clientCertificate {
            check("CURLOPT_SSLCERT", apitest_easy_setopt_string(easy, CURLOPT_SSLCERT, certificate))
            check("CURLOPT_SSLKEY", apitest_easy_setopt_string(easy, CURLOPT_SSLKEY, settings.clientKey ?? certificate))
        }
        check("CURLOPT_SSL_SESSIONID_CACHE", apitest_easy_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0))
        check("CURLOPT_SSL_CTX_FUNCTION", apitest_tls_transfer_install(easy, state.pointer))
    }

    // MARK: - Bytes

    /// The slice a wait on the socket lasts before it looks at cancellation and the deadline again.
    private static let waitSlice = 50

    /// Sends all of `bytes`, waiting for the socket to take them until `deadline`.
    func sendBytes(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(WebSocketError) {
        guard let easy else { throw WebSocketError(.alreadyClosed) }
        var offset = 0
        while offset < bytes.count {
            var sent = 0
            let code = bytes.withUnsafeBytes { buffer in
                curl_easy_send(easy, buffer.baseAddress! + offset, bytes.count - offset, &sent)
            }
            if code == CURLE_OK {
                offset += sent
                continue
            }
            guard code == CURLE_AGAIN else { throw ioError(code) }
            try waitForSocket(writable: true, deadline: deadline, waitingFor: "room to send")
        }
    }

    /// The next bytes the server sent, waiting until `deadline`; fails with `.connectionClosed` at the end of the
    /// stream.
    func receiveBytes(deadline: ContinuousClock.Instant, waitingFor: String) throws(WebSocketError) -> [UInt8] {
        guard let easy else { throw WebSocketError(.alreadyClosed) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var received = 0
            let code = buffer.withUnsafeMutableBytes { curl_easy_recv(easy, $0.baseAddress, $0.count, &received) }
            if code == CURLE_OK {
                guard received > 0 else { throw WebSocketError(.connectionClosed) }
                return Array(buffer[..<received])
            }
            guard code == CURLE_AGAIN else {
                if code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING { throw WebSocketError(.connectionClosed) }
                throw ioError(code)
            }
            try waitForSocket(writable: false, deadline: deadline, waitingFor: waitingFor)
        }
    }

    /// Waits for the socket in slices until it is ready; fails at `deadline` or when the task was cancelled.
    private func waitForSocket(
        writable: Bool, deadline: ContinuousClock.Instant, waitingFor: String
    )
        throws(WebSocketError)
    {
        let start = ContinuousClock.now
        while true {
            if isCancelled { throw WebSocketError(.cancelled) }
            let now = ContinuousClock.now
            guard now < deadline else { throw WebSocketError(.timedOut(after: now - start, waitingFor: waitingFor)) }
            let left = (deadline - now).milliseconds
            let ready = apitest_socket_wait(socket, writable ? 1 : 0, Int32(min(left, Self.waitSlice)))
            if ready != 0 { return }
        }
    }

    /// The error of a failed `curl_easy_send` or `curl_easy_recv`.
    private func ioError(_ code: CURLcode) -> WebSocketError {
        let message = curl_easy_strerror(code).map { String(cString: $0) } ?? ""
        return WebSocketError(.io(code: Int(code.rawValue), message: message))
    }
}
