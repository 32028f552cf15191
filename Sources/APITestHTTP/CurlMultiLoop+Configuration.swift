import CCurlShim
import CTLSShim
import Foundation

// MARK: - Configuring a transfer

extension CurlMultiLoop {
    /// Sets every option of `easy` for the transfer of `delegate`: URL, method and body, headers, callbacks,
    /// timeouts, redirects, TLS, resolve entries and the cookie share. Each refusal is recorded on the delegate.
    /// A plain transfer on a handle whose last transfer was plain sets only its own options
    /// (`CurlMultiLoop+HandleReuse.swift`); any other starts from a reset handle.
    func configure(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate, bodySize: Int64?) {
        assertOnLoopThread()
        let request = delegate.request
        let plain = Self.isPlain(request, bodySize: bodySize)
        if plain, reusesPlainOptions(easy, for: request) {
            reconfigurePlain(easy, for: delegate)
            return
        }
        if plainHandles[easy] != nil { resetHandle(easy) }
        let userdata = Unmanaged.passUnretained(delegate).toOpaque()
        // `withCString` lends a native string's own bytes; passing the String itself would copy it to an array.
        delegate.check("CURLOPT_URL", request.url.withCString { apitest_easy_setopt_string(easy, CURLOPT_URL, $0) })
        delegate.check("CURLOPT_NOSIGNAL", apitest_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        // The loop must hear of every socket libcurl closes (see `watch(_:what:)`).
        delegate.check(
            "CURLOPT_CLOSESOCKETFUNCTION",
            apitest_easy_setopt_closesocket_callback(
                easy, closeSocketCallback, Unmanaged.passUnretained(self).toOpaque()))
        delegate.check(
            "CURLOPT_ERRORBUFFER", apitest_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, delegate.errorBuffer))
        delegate.check(
            "CURLOPT_HTTP_VERSION",
            apitest_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Self.curlHTTPVersion(request.transport.httpVersion)))
        delegate.check("CURLOPT_PROTOCOLS", apitest_easy_allow_http_only(easy, 0))
        delegate.check("CURLOPT_REDIR_PROTOCOLS", apitest_easy_allow_http_only(easy, 1))

        // Method and body.
        let method = request.method.uppercased()
        if let bodySize {
            delegate.check("CURLOPT_POST", apitest_easy_setopt_long(easy, CURLOPT_POST, 1))
            delegate.check(
                "CURLOPT_POSTFIELDSIZE_LARGE",
                apitest_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodySize)))
            if request.authentication?.signsRequest == true, case .data(let data) = request.body {
                // libcurl 7.88 hashes the payload it signs from the post fields only (a body it reads through the
                // read callback is signed as empty): hand it a copy of the bytes.
                data.withUnsafeBytes { bytes in
                    let code =
                        bytes.baseAddress.map {
                            apitest_easy_setopt_pointer(
                                easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0))
                        } ?? apitest_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
                    delegate.check("CURLOPT_COPYPOSTFIELDS", code)
                }
            } else {
                configureReading(easy, for: delegate, bodySize: bodySize)
            }
            if method != "POST" {
                delegate.check("CURLOPT_CUSTOMREQUEST", apitest_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
            }
        } else if method == "HEAD" {
            delegate.check("CURLOPT_NOBODY", apitest_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        } else if method != "GET" {
            delegate.check("CURLOPT_CUSTOMREQUEST", apitest_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
        }

        let list = headerList(
            easy, for: delegate, signs: request.authentication?.signsRequest == true, hasBody: bodySize != nil)
        delegate.headerList = list
        delegate.check("CURLOPT_HTTPHEADER", apitest_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list))

        delegate.check(
            "CURLOPT_HEADERFUNCTION", apitest_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, headerCallback))
        delegate.check("CURLOPT_HEADERDATA", apitest_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata))
        delegate.check(
            "CURLOPT_WRITEFUNCTION", apitest_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, writeCallback))
        delegate.check("CURLOPT_WRITEDATA", apitest_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata))
        if request.recordsSentHeaders {
            // libcurl passes what it sends to the debug callback only in verbose mode; with a debug callback set,
            // it prints nothing itself.
            delegate.check("CURLOPT_DEBUGFUNCTION", apitest_easy_setopt_debug_callback(easy, debugCallback))
            delegate.check("CURLOPT_DEBUGDATA", apitest_easy_setopt_pointer(easy, CURLOPT_DEBUGDATA, userdata))
            delegate.check("CURLOPT_VERBOSE", apitest_easy_setopt_long(easy, CURLOPT_VERBOSE, 1))
        }

        if let encoding = request.acceptEncoding {
            delegate.check(
                "CURLOPT_ACCEPT_ENCODING", apitest_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, encoding))
        }
        configureLimits(easy, for: delegate)

        // TLS: a request's policy, or full verification against the system's trust store.
        if let policy = request.security {
            configureSecurity(easy, policy: policy, for: delegate)
        } else {
            delegate.check("CURLOPT_SSL_VERIFYPEER", apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1))
            delegate.check("CURLOPT_SSL_VERIFYHOST", apitest_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2))
        }
        delegate.certificateSource = (easy, certificateCache)
        if !request.resolve.isEmpty {
            var resolve: UnsafeMutablePointer<curl_slist>?
            for entry in request.resolve { resolve = curl_slist_append(resolve, entry) }
            delegate.resolveList = resolve
            delegate.check("CURLOPT_RESOLVE", apitest_easy_setopt_slist(easy, CURLOPT_RESOLVE, resolve))
        }
        configureTransport(easy, for: delegate)
        configureAuthentication(easy, for: delegate)
        configureConnectionReuse(easy, for: delegate)
        if request.connectOnly {
            delegate.check("CURLOPT_CONNECT_ONLY", apitest_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1))
        }

        configureCookies(easy, for: delegate)
        if plain {
            settleEnvironmentProxy(easy, for: delegate)
            plainHandles[easy] = PlainHandleOptions(request, configuration: configuration)
        }
    }

    /// Attaches the cookie share of the request's jar, if it has one, turning the handle's cookie engine on once.
    func configureCookies(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        if let jar = delegate.request.cookieJar {
            switch share(for: jar) {
            case .success(let share):
                delegate.check("CURLOPT_SHARE", apitest_easy_setopt_share(easy, share))
            case .failure(let refused):
                // Without its jar (or the cookies it starts from) the test would run with other cookies.
                delegate.check(refused.option, CURLE_FAILED_INIT)
            }
            // Once per handle: the engine stays on through curl_easy_reset, and the option's list is never emptied.
            if cookieEngineOn.insert(easy).inserted {
                delegate.check("CURLOPT_COOKIEFILE", apitest_easy_setopt_string(easy, CURLOPT_COOKIEFILE, ""))
            }
        }
    }

    /// The timeouts and the redirect settings of `delegate`'s request.
    func configureLimits(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        let request = delegate.request
        delegate.check(
            "CURLOPT_TIMEOUT_MS",
            apitest_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, (request.timeout ?? configuration.timeout).milliseconds))
        delegate.check(
            "CURLOPT_CONNECTTIMEOUT_MS",
            apitest_easy_setopt_long(
                easy, CURLOPT_CONNECTTIMEOUT_MS, (request.connectTimeout ?? configuration.connectTimeout).milliseconds))
        delegate.check(
            "CURLOPT_FOLLOWLOCATION",
            apitest_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0))
        delegate.check("CURLOPT_MAXREDIRS", apitest_easy_setopt_long(easy, CURLOPT_MAXREDIRS, request.maxRedirects))
    }

    /// The header lines of `delegate`'s request: its own, then empty ones that suppress what libcurl would add on
    /// its own. libcurl 7.88 signs AWS SigV4 over the header lines it is given, the empty ones that only suppress a
    /// header included (`SignedHeaders=expect;host;...`): a signature the server, which never sees them, rejects;
    /// so a request that `signs` gets none.
    func headerList(
        _ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate, signs: Bool, hasBody: Bool
    ) -> UnsafeMutablePointer<curl_slist>? {
        let request = delegate.request
        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            // A signed request sends its User-Agent as curl does (CURLOPT_USERAGENT, not signed): AWS's own SDKs
            // never sign it (proxies rewrite it), and verifiers built on them (moto) drop it from the signed headers.
            if signs, field.name.lowercased() == "user-agent" {
                delegate.check("CURLOPT_USERAGENT", apitest_easy_setopt_string(easy, CURLOPT_USERAGENT, field.value))
                continue
            }
            list = Self.appendField(field.name, field.value, to: list)
        }
        for line in request.authenticationHeaderLines { list = line.withCString { curl_slist_append(list, $0) } }
        if !signs, !request.headers.contains("Expect") { list = curl_slist_append(list, "Expect:") }
        if !signs, hasBody, !request.headers.contains("Content-Type") {
            list = curl_slist_append(list, "Content-Type:")
        }
        return list
    }

    /// Appends the header line `name: value` (`name;` for an empty value, libcurl's way to send it empty) to
    /// `list`, made as a C string in a temporary buffer: the interpolated `String` made two others for every field
    /// of every request. libcurl copies the line up to its first NUL, as it did from `withCString`.
    static func appendField(
        _ name: String, _ value: String, to list: UnsafeMutablePointer<curl_slist>?
    ) -> UnsafeMutablePointer<curl_slist>? {
        var name = name
        var value = value
        return name.withUTF8 { name in
            value.withUTF8 { value in
                let count = name.count + (value.isEmpty ? 1 : 2 + value.count) + 1
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { line in
                    var end = line.initialize(fromContentsOf: name)
                    if value.isEmpty {
                        line[end] = UInt8(ascii: ";")
                        end += 1
                    } else {
                        line[end] = UInt8(ascii: ":")
                        line[end + 1] = UInt8(ascii: " ")
                        end += 2
                        end = line[end...].initialize(fromContentsOf: value)
                    }
                    line[end] = 0
                    return line.withMemoryRebound(to: CChar.self) { curl_slist_append(list, $0.baseAddress) }
                }
            }
        }
    }

    /// Has libcurl read the body of `delegate`'s request through the read and seek callbacks, as it is sent.
    private func configureReading(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate, bodySize: Int64) {
        let userdata = Unmanaged.passUnretained(delegate).toOpaque()
        delegate.check(
            "CURLOPT_READFUNCTION", apitest_easy_setopt_data_callback(easy, CURLOPT_READFUNCTION, readCallback))
        delegate.check("CURLOPT_READDATA", apitest_easy_setopt_pointer(easy, CURLOPT_READDATA, userdata))
        delegate.check("CURLOPT_SEEKFUNCTION", apitest_easy_setopt_seek_callback(easy, seekCallback))
        delegate.check("CURLOPT_SEEKDATA", apitest_easy_setopt_pointer(easy, CURLOPT_SEEKDATA, userdata))
        // A larger upload buffer than libcurl's 64 KiB halves the time of gigabyte uploads (fewer reads and
        // sends); small bodies keep the default, whose buffer is not a fresh 512 KiB mapping per transfer.
        if bodySize >= Self.largeUploadSize {
            delegate.check(
                "CURLOPT_UPLOAD_BUFFERSIZE", apitest_easy_setopt_long(easy, CURLOPT_UPLOAD_BUFFERSIZE, 512 * 1024))
        }
    }

    /// A libcurl option that a cookie share refused, by name.
    struct RefusedShareOption: Error {
        var option: String
    }

    /// The cookie share of `jar`, made on first use with a copy of its parent's cookies; fails naming the option
    /// libcurl refused.
    func share(for jar: CookieJar) -> Result<UnsafeMutableRawPointer, RefusedShareOption> {
        assertOnLoopThread()
        if let share = shares[jar.id] { return .success(share) }
        let share: UnsafeMutableRawPointer
        switch newShare() {
        case .success(let made): share = made
        case .failure(let refused): return .failure(refused)
        }
        if let parent = jar.parent, let parentShare = shares[parent.id],
            let refused = copyCookies(from: parentShare, to: share)
        {
            curl_share_cleanup(share)
            return .failure(RefusedShareOption(option: refused))
        }
        shares[jar.id] = share
        return .success(share)
    }

    /// Copies every cookie of one share into another: libcurl reads and writes a share's cookies only through a
    /// handle attached to it (`CURLINFO_COOKIELIST`, `CURLOPT_COOKIELIST`). Returns the name of the option libcurl
    /// refused, or nil when every cookie was copied.
    private func copyCookies(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer) -> String? {
        switch cookieLines(of: source) {
        case .success(let lines): importCookies(lines, into: target)
        case .failure(let refused): refused.option
        }
    }

    /// Every cookie of `share` as `CURLINFO_COOKIELIST` lines, read through a scratch easy handle.
    func cookieLines(of share: UnsafeMutableRawPointer) -> Result<[String], RefusedShareOption> {
        guard let easy = curl_easy_init() else { return .failure(RefusedShareOption(option: "curl_easy_init")) }
        defer {
            apitest_easy_setopt_share(easy, nil)
            curl_easy_cleanup(easy)
        }
        guard apitest_easy_setopt_share(easy, share) == CURLE_OK else {
            return .failure(RefusedShareOption(option: "CURLOPT_SHARE"))
        }
        guard apitest_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "") == CURLE_OK else {
            return .failure(RefusedShareOption(option: "CURLOPT_COOKIEFILE"))
        }
        var list: UnsafeMutablePointer<curl_slist>?
        guard apitest_easy_getinfo_slist(easy, CURLINFO_COOKIELIST, &list) == CURLE_OK else {
            return .failure(RefusedShareOption(option: "CURLINFO_COOKIELIST"))
        }
        defer { curl_slist_free_all(list) }
        var lines: [String] = []
        var node = list
        while let current = node {
            if let line = current.pointee.data { lines.append(String(cString: line)) }
            node = current.pointee.next
        }
        return .success(lines)
    }

    /// Adds cookie `lines` (`CURLINFO_COOKIELIST`'s form) to `share` through a scratch easy handle. Returns the
    /// name of the option libcurl refused, or nil when every cookie was added.
    func importCookies(_ lines: [String], into share: UnsafeMutableRawPointer) -> String? {
        guard !lines.isEmpty else { return nil }
        guard let easy = curl_easy_init() else { return "curl_easy_init" }
        defer {
            apitest_easy_setopt_share(easy, nil)
            curl_easy_cleanup(easy)
        }
        guard apitest_easy_setopt_share(easy, share) == CURLE_OK else { return "CURLOPT_SHARE" }
        guard apitest_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "") == CURLE_OK else { return "CURLOPT_COOKIEFILE" }
        for line in lines where apitest_easy_setopt_string(easy, CURLOPT_COOKIELIST, line) != CURLE_OK {
            return "CURLOPT_COOKIELIST"
        }
        return nil
    }

    /// Makes `jar`'s share on this loop, before its first transfer, with the cookies `lines` its parent held on
    /// another loop; a jar that already has its share here keeps it. Returns the option libcurl refused (the
    /// transfer then fails naming it: it would run without the cookies it starts from), or nil.
    func seedJar(_ jar: CookieJar, with lines: [String]) -> String? {
        assertOnLoopThread()
        guard shares[jar.id] == nil else { return nil }
        switch newShare() {
        case .failure(let refused):
            return refused.option
        case .success(let share):
            if let refused = importCookies(lines, into: share) {
                curl_share_cleanup(share)
                return refused
            }
            shares[jar.id] = share
            return nil
        }
    }

    /// A share of cookies.
    private func newShare() -> Result<UnsafeMutableRawPointer, RefusedShareOption> {
        guard let share = curl_share_init() else { return .failure(RefusedShareOption(option: "curl_share_init")) }
        guard apitest_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) == CURLSHE_OK
        else {
            curl_share_cleanup(share)
            return .failure(RefusedShareOption(option: "CURLSHOPT_SHARE"))
        }
        return .success(share)
    }
}

// MARK: - libcurl data callbacks

private let writeCallback: apitest_data_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let delegate = Unmanaged<TaskDelegate>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    return delegate.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
}

private let headerCallback: apitest_data_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let delegate = Unmanaged<TaskDelegate>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    delegate.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length))
    return length
}

/// Only the request headers sent are of interest: the rest (libcurl's text, body bytes) is ignored.
private let debugCallback: apitest_debug_callback = { _, type, data, size, userdata in
    guard type == CURLINFO_HEADER_OUT, let data, let userdata else { return 0 }
    let delegate = Unmanaged<TaskDelegate>.fromOpaque(userdata).takeUnretainedValue()
    delegate.receiveSentHeaderBlock(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libcurl asks to rewind the body before sending it again; only a rewind to the start is possible.
private let seekCallback: apitest_seek_callback = { userdata, offset, origin in
    guard let userdata, offset == 0, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    let delegate = Unmanaged<TaskDelegate>.fromOpaque(userdata).takeUnretainedValue()
    delegate.bodyStream?.rewind()
    return Int32(CURL_SEEKFUNC_OK)
}

private let readCallback: apitest_data_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
    let delegate = Unmanaged<TaskDelegate>.fromOpaque(userdata).takeUnretainedValue()
    return delegate.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        ?? Int(CURL_READFUNC_ABORT)
}
