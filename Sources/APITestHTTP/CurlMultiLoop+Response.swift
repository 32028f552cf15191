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
        let ip = string(easy, CURLINFO_PRIMARY_IP)
        // An IPv6 address has colons (bytes, not Foundation's string search: this runs for every response).
        let address = ip.utf8.contains(UInt8(ascii: ":")) ? "[\(ip)]:\(port)" : "\(ip):\(port)"
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
            effectiveURL: string(easy, CURLINFO_EFFECTIVE_URL),
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

    func string(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> String {
        var pointer: UnsafePointer<CChar>?
        apitest_easy_getinfo_string(easy, info, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
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
