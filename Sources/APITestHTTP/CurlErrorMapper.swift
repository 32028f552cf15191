import CCurlShim

#if canImport(Glibc)
    import Glibc
#endif

/// Turns libcurl's result codes into `HTTPError`s with a reason and a sentence a person can act on.
///
/// Pure: it looks at what libcurl reported and nothing else. Failures the transfer itself caused (a body past its
/// limit, a pin mismatch, a body file that could not be read) are decided first by `TransferStateMachine`, which
/// comes here only when none of them happened.
enum CurlErrorMapper {
    /// The error for a transfer libcurl failed with `completion.code`.
    static func error(for completion: CurlCompletion) -> HTTPError {
        let code = completion.code
        let detail = completion.detail
        let fallback = String(cString: curl_easy_strerror(code))
        let text = detail.isEmpty ? fallback : detail
        let reason: HTTPError.Reason
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: reason = .invalidRequest
        case CURLE_COULDNT_RESOLVE_HOST: reason = .dnsFailure
        case CURLE_COULDNT_RESOLVE_PROXY: reason = .proxyFailure
        case CURLE_COULDNT_CONNECT:
            reason = completion.osErrno == Int(ECONNREFUSED) ? .connectionRefused : .connectionFailed
        case CURLE_OPERATION_TIMEDOUT: reason = .timedOut
        case CURLE_GOT_NOTHING: reason = .emptyReply
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            reason = .connectionReset
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            reason = .tlsFailure
        case CURLE_TOO_MANY_REDIRECTS: reason = .tooManyRedirects
        case CURLE_BAD_CONTENT_ENCODING: reason = .badContentEncoding
        case CURLE_READ_ERROR, CURLE_ABORTED_BY_CALLBACK: reason = .bodyFileUnreadable
        default: reason = .other
        }
        let prefix: String
        switch reason {
        case .dnsFailure: prefix = "could not resolve the host"
        case .connectionRefused: prefix = "connection refused"
        case .connectionFailed: prefix = "could not connect"
        case .timedOut: prefix = "timed out"
        case .emptyReply: prefix = "the server closed the connection without a response"
        case .connectionReset: prefix = "the connection failed during the transfer"
        case .tlsFailure: prefix = "TLS failure"
        case .tooManyRedirects: prefix = "too many redirects"
        case .badContentEncoding: prefix = "the body could not be decoded"
        case .proxyFailure: prefix = "proxy failure"
        case .invalidRequest: prefix = "invalid request"
        default: prefix = "transfer failed"
        }
        var error = HTTPError(reason, "\(prefix): \(text)", curlCode: Int(code.rawValue))
        switch reason {
        case .dnsFailure, .connectionRefused, .connectionFailed: error.failedToConnect = true
        case .timedOut: error.failedToConnect = completion.connectTime == 0
        default: break
        }
        return error
    }
}
