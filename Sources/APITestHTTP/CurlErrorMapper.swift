import APITestSupport
import CCurlShim

#if canImport(Glibc)
    import Glibc
#endif

/// Turns libcurl's result codes into `HTTPError`s: a reason, and libcurl's code and message as the detail (the
/// sentence for people is rendered from them, `HTTPError+Description.swift`).
///
/// Pure: it looks at what libcurl reported and nothing else. Failures the transfer itself caused (a body past its
/// limit, a pin mismatch, a body file that could not be read) are decided first by `TransferStateMachine`, which
/// comes here only when none of them happened.
enum CurlErrorMapper {
    /// The error for a transfer libcurl failed with `completion.code`.
    static func error(for completion: CurlCompletion) -> HTTPError {
        let code = Int(completion.code.rawValue)
        let reason = reason(forCode: code, osErrno: completion.osErrno)
        var error = HTTPError(reason, .curl(code: code, errorBuffer: completion.detail))
        switch reason {
        case .dnsFailure, .connectionRefused, .connectionFailed: error.failedToConnect = true
        case .timedOut: error.failedToConnect = completion.connectTime == 0
        default: break
        }
        return error
    }

    /// The reason of a failure with libcurl's result `code` (a `CURLcode`); a failed connect is `.connectionRefused`
    /// when its `osErrno` is `ECONNREFUSED`.
    static func reason(forCode code: Int, osErrno: Int = 0) -> HTTPError.Reason {
        switch CURLcode(rawValue: .init(truncatingIfNeeded: code)) {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: .invalidRequest
        case CURLE_COULDNT_RESOLVE_HOST: .dnsFailure
        case CURLE_COULDNT_RESOLVE_PROXY: .proxyFailure
        case CURLE_COULDNT_CONNECT: osErrno == Int(ECONNREFUSED) ? .connectionRefused : .connectionFailed
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_GOT_NOTHING: .emptyReply
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            .connectionReset
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            .tlsFailure
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_BAD_CONTENT_ENCODING: .badContentEncoding
        case CURLE_READ_ERROR, CURLE_ABORTED_BY_CALLBACK: .bodyFileUnreadable
        default: .other
        }
    }
}
