import CCurlShim
import Foundation

// MARK: - Reusing a pooled handle's options

/// A pooled easy handle keeps its options between two plain transfers instead of being reset and configured from
/// nothing (issue 38: `curl_easy_reset` and the options set again cost about 3k instructions a transfer, and
/// libcurl's reading of the proxy variables from the environment 1.5k more).
///
/// A **plain** transfer (``CurlMultiLoop/isPlain(_:bodySize:)``) is a GET without a body, authentication, TLS
/// policy, `--resolve` or transport override, recorded headers, connect-only, fresh or shared h2c connection.
/// `configure(_:for:bodySize:)` sets, for such a transfer, only options that every plain transfer sets: the same
/// constants (signal handling, callbacks, protocols, full TLS verification, the proxy decided from the
/// environment), the per-transfer options that ``CurlMultiLoop/reconfigurePlain(_:for:)`` sets again each time
/// (URL, error buffer, headers, callback data, cookie share), and the settings of ``PlainHandleOptions`` (HTTP
/// version, `Accept-Encoding`, timeouts, redirects), which it sets again when they differ from the handle's. A
/// handle whose last transfer was plain is in `plainHandles` and goes back to the pool unreset; any other transfer
/// on it first resets it, and a handle that ran any other transfer is reset when it goes back, as before. So no
/// option of one transfer reaches the next: every option a plain configuration may leave is one the next plain
/// transfer sets anew, sets when it differs, or the same constant. An option added to `configure` for plain
/// transfers must be added to `reconfigurePlain` or to `PlainHandleOptions` too.
extension CurlMultiLoop {
    /// Whether `request` is a plain transfer, whose handle may keep its options for the next plain one.
    static func isPlain(_ request: HTTPRequest, bodySize: Int64?) -> Bool {
        guard bodySize == nil, request.method == "GET" || request.method.uppercased() == "GET" else { return false }
        return request.authentication == nil && !request.recordsSentHeaders && request.security == nil
            && request.resolve.isEmpty && !request.connectOnly
            && !request.forcesFreshConnection && !request.speaksPlaintextPriorKnowledge
            && Self.hasNoTransportOverride(request.transport)
    }

    /// Whether `transport` sets nothing but the HTTP version (compared with a default made once: making one for
    /// every transfer cost more than the rest of the check).
    static func hasNoTransportOverride(_ transport: TransportOptions) -> Bool {
        // Without an HTTP version (most requests), compared as it is: the copy below cost more than the comparison.
        if transport.httpVersion == nil { return transport == noTransportOverride }
        var bare = transport
        bare.httpVersion = nil
        return bare == noTransportOverride
    }

    /// `TransportOptions` that override nothing.
    private static let noTransportOverride = TransportOptions()

    /// Whether the process's environment names no proxy variable (`http_proxy`, `https_proxy`, `all_proxy`,
    /// `no_proxy`, in either case, or any other `*_proxy`), read once. libcurl 7.88 looks up to five of them up
    /// with `getenv` on every transfer whose `CURLOPT_PROXY` and `CURLOPT_NOPROXY` are unset (url.c,
    /// `create_conn_helper_init_proxy` and `detect_proxy`); when none exists, an empty `CURLOPT_PROXY` (no proxy)
    /// and an empty `CURLOPT_NOPROXY` (no exception) decide the same and skip the lookups. With any of them set,
    /// libcurl reads the environment as before.
    static let environmentNamesNoProxy: Bool = {
        !ProcessInfo.processInfo.environment.keys.contains { $0.lowercased().hasSuffix("_proxy") }
    }()

    /// Whether the plain transfer of `request` may keep the options `easy`'s last transfer left: it was plain, and
    /// both had a cookie jar or neither did. A handle whose cookie engine a jar turned on gets a transfer without a
    /// jar only reset, as before: libcurl would otherwise keep that transfer's cookies for the next.
    func reusesPlainOptions(_ easy: UnsafeMutableRawPointer, for request: HTTPRequest) -> Bool {
        guard let previous = plainHandles[easy] else { return false }
        if request.cookieJar != nil { return previous.hasJar }
        return !previous.hasJar && !cookieEngineOn.contains(easy)
    }

    /// Tells libcurl the proxy the environment decides, when it names none and the request sets neither
    /// (``environmentNamesNoProxy``): the options stay on the handle for its next plain transfers.
    func settleEnvironmentProxy(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        guard Self.environmentNamesNoProxy else { return }
        let transport = delegate.request.transport
        if transport.proxy == nil {
            delegate.check("CURLOPT_PROXY", apitest_easy_setopt_string(easy, CURLOPT_PROXY, ""))
        }
        if transport.noProxy == nil {
            delegate.check("CURLOPT_NOPROXY", apitest_easy_setopt_string(easy, CURLOPT_NOPROXY, ""))
        }
    }

    /// Sets the per-transfer options of a plain transfer on a handle whose last transfer was plain too: the rest
    /// are still as that transfer's configuration left them (see the extension's note).
    func reconfigurePlain(_ easy: UnsafeMutableRawPointer, for delegate: TaskDelegate) {
        let request = delegate.request
        let userdata = Unmanaged.passUnretained(delegate).toOpaque()
        delegate.check("CURLOPT_URL", request.url.withCString { apitest_easy_setopt_string(easy, CURLOPT_URL, $0) })
        delegate.check(
            "CURLOPT_ERRORBUFFER", apitest_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, delegate.errorBuffer))
        let list = headerList(easy, for: delegate, signs: false, hasBody: false)
        delegate.headerList = list
        delegate.check("CURLOPT_HTTPHEADER", apitest_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list))
        delegate.check("CURLOPT_HEADERDATA", apitest_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata))
        delegate.check("CURLOPT_WRITEDATA", apitest_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata))
        let options = PlainHandleOptions(request, configuration: configuration)
        if let previous = plainHandles[easy], previous != options {
            options.set(on: easy, for: delegate, changedFrom: previous)
            plainHandles[easy] = options
        }
        delegate.certificateSource = (easy, certificateCache)
        configureCookies(easy, for: delegate)
    }

    /// Resets `easy` for the pool: it no longer holds a plain transfer's options.
    func resetHandle(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        plainHandles.removeValue(forKey: easy)
    }

    /// Returns `easy` to the pool after a transfer: unreset when that transfer was plain (its options serve the
    /// next plain one), reset otherwise.
    func recycleHandle(_ easy: UnsafeMutableRawPointer) {
        if plainHandles[easy] == nil { curl_easy_reset(easy) }
    }

    /// Forgets `easy` before it is cleaned up (its address may come back for a new handle).
    func forgetHandle(_ easy: UnsafeMutableRawPointer) {
        cookieEngineOn.remove(easy)
        plainHandles.removeValue(forKey: easy)
    }
}

// MARK: - The settings a plain transfer sets when they differ

/// The options of a plain transfer that its handle's next plain transfer sets only when its own differ.
struct PlainHandleOptions: Equatable {
    var httpVersion: Int
    /// `CURLOPT_ACCEPT_ENCODING`: nil leaves it unset (no `Accept-Encoding`), `""` every encoding libcurl decodes.
    var acceptEncoding: String?
    var timeout: Duration
    var connectTimeout: Duration
    var followRedirects: Bool
    var maxRedirects: Int
    /// Whether the transfer had a cookie jar (its share attached).
    var hasJar: Bool

    /// The settings of `request` (the session's timeouts where it has none), as `configure` sets them.
    init(_ request: HTTPRequest, configuration: SessionConfiguration) {
        httpVersion = CurlMultiLoop.curlHTTPVersion(request.transport.httpVersion)
        acceptEncoding = request.acceptEncoding
        // Compared as durations; converted to milliseconds only when set.
        timeout = request.timeout ?? configuration.timeout
        connectTimeout = request.connectTimeout ?? configuration.connectTimeout
        followRedirects = request.followRedirects
        maxRedirects = request.maxRedirects
        hasJar = request.cookieJar != nil
    }

    /// Sets on `easy` each setting that differs from `previous`, the handle's.
    func set(on easy: UnsafeMutableRawPointer, for delegate: TaskDelegate, changedFrom previous: Self) {
        if httpVersion != previous.httpVersion {
            delegate.check("CURLOPT_HTTP_VERSION", apitest_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, httpVersion))
        }
        if acceptEncoding != previous.acceptEncoding {
            // NULL unsets it, as on a reset handle.
            let code =
                acceptEncoding.map { apitest_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, $0) }
                ?? apitest_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, nil)
            delegate.check("CURLOPT_ACCEPT_ENCODING", code)
        }
        if timeout != previous.timeout {
            delegate.check(
                "CURLOPT_TIMEOUT_MS", apitest_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeout.milliseconds))
        }
        if connectTimeout != previous.connectTimeout {
            delegate.check(
                "CURLOPT_CONNECTTIMEOUT_MS",
                apitest_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connectTimeout.milliseconds))
        }
        if followRedirects != previous.followRedirects {
            delegate.check(
                "CURLOPT_FOLLOWLOCATION",
                apitest_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, followRedirects ? 1 : 0))
        }
        if maxRedirects != previous.maxRedirects {
            delegate.check("CURLOPT_MAXREDIRS", apitest_easy_setopt_long(easy, CURLOPT_MAXREDIRS, maxRedirects))
        }
    }
}
