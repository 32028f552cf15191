import CCurlShim
import Foundation

// MARK: - The response of a completed transfer

extension CurlMultiLoop {
    /// The response of a transfer libcurl completed, with the handshake check's `evaluation`; `nil` when the
    /// digests of a streamed body could not be finished.
    func makeResponse(
        _ easy: UnsafeMutableRawPointer, _ delegate: TaskDelegate, evaluation: TLSEvaluation?
    ) -> HTTPResponse? {
        guard let digests = delegate.finishDigests() else { return nil }
        var code = 0
        apitest_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
        var version = 0
        apitest_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        var redirects = 0
        apitest_easy_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        var port = 0
        apitest_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &port)
        var uploaded: curl_off_t = 0
        apitest_easy_getinfo_off_t(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded)
        let address = remoteAddress(easy, port: port)
        var response = HTTPResponse(
            statusCode: code != 0 ? code : delegate.statusCode,
            httpVersion: Self.versionName(version),
            reasonPhrase: delegate.reasonPhrase,
            headers: HTTPHeaders(),
            body: delegate.body,
            timings: TransferTimings(
                nameLookup: duration(easy, CURLINFO_NAMELOOKUP_TIME_T),
                connect: duration(easy, CURLINFO_CONNECT_TIME_T),
                tlsHandshake: duration(easy, CURLINFO_APPCONNECT_TIME_T),
                preTransfer: duration(easy, CURLINFO_PRETRANSFER_TIME_T),
                firstByte: duration(easy, CURLINFO_STARTTRANSFER_TIME_T),
                total: duration(easy, CURLINFO_TOTAL_TIME_T),
                redirect: duration(easy, CURLINFO_REDIRECT_TIME_T)),
            remoteAddress: address,
            effectiveURL: effectiveURL(easy, of: delegate.request),
            redirectCount: redirects,
            bytesUploaded: Int64(uploaded),
            peerCertificates: delegate.peerCertificates,
            tlsEvaluation: evaluation)
        response.receivedFieldLines = delegate.headerBlock
        var localPort = 0
        apitest_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &localPort)
        response.localPort = localPort
        response.bodySize = delegate.bodySize
        response.sentHeaders = delegate.sentHeaders
        switch delegate.request.responseBodyHandling {
        case .digest:
            response.bodyIsComplete = false
            response.bodyDigests = digests
        case .stream:
            response.bodyIsComplete = false
        case .keep:
            break
        }
        return response
    }

    /// `ip:port` of the transfer's peer (`[ip]:port` for IPv6), the text of the last transfer's when the address is
    /// the same (most transfers of a run go to one server: no string is made for them).
    func remoteAddress(_ easy: UnsafeMutableRawPointer, port: Int) -> String {
        var pointer: UnsafePointer<CChar>?
        apitest_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &pointer)
        guard let pointer else { return ":\(port)" }
        if let text = remoteAddressCache.text(ip: pointer, port: port) { return text }
        let ip = String(cString: pointer)
        // An IPv6 address has colons (bytes, not Foundation's string search: this runs for every response).
        let address = ip.utf8.contains(UInt8(ascii: ":")) ? "[\(ip)]:\(port)" : "\(ip):\(port)"
        remoteAddressCache = RemoteAddressCache(ip: pointer, port: port, text: address)
        return address
    }

    /// The URL the transfer ended at: the request's own text when libcurl's has the same bytes (no redirect, a URL
    /// already in libcurl's normal form), without making another string of it.
    func effectiveURL(_ easy: UnsafeMutableRawPointer, of request: HTTPRequest) -> String {
        var pointer: UnsafePointer<CChar>?
        apitest_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer)
        guard let pointer else { return "" }
        var url = request.url
        let same = url.withUTF8 { bytes in
            guard strlen(pointer) == bytes.count, let base = bytes.baseAddress else { return false }
            return memcmp(pointer, base, bytes.count) == 0
        }
        return same ? url : String(cString: pointer)
    }

    func duration(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> Duration {
        var micros: curl_off_t = 0
        apitest_easy_getinfo_off_t(easy, info, &micros)
        return .microseconds(Int64(micros))
    }

    static func versionName(_ version: Int) -> String {
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): return "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): return "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): return "HTTP/3"
        default: return "HTTP"
        }
    }
}

// MARK: - The last peer address

/// The text of the last transfer's peer address on a loop, with the IP address (libcurl's text) and port it was made
/// of.
struct RemoteAddressCache {
    private var ip: [CChar] = []
    private var port = -1
    private var address = ""

    init() {}

    init(ip: UnsafePointer<CChar>, port: Int, text: String) {
        self.ip = Array(UnsafeBufferPointer(start: ip, count: strlen(ip)))
        self.port = port
        self.address = text
    }

    /// The cached text when `ip` and `port` are the cached ones.
    func text(ip other: UnsafePointer<CChar>, port otherPort: Int) -> String? {
        guard otherPort == port, !ip.isEmpty, strlen(other) == ip.count else { return nil }
        return ip.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memcmp(base, other, bytes.count) == 0
        } ? address : nil
    }
}
