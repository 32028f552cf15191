import CCurlShim

/// What libcurl reported when it completed a transfer: its result code and, for a failure, the facts that tell
/// the failures apart (libcurl's own message, the connect's `errno`, whether a connection was ever made).
struct CurlCompletion: Sendable {
    /// libcurl's result for the transfer.
    var code: CURLcode
    /// libcurl's message for a failure (`CURLOPT_ERRORBUFFER`); empty when it wrote none.
    var detail = ""
    /// The operating system's error number for a failed connect (`CURLINFO_OS_ERRNO`).
    var osErrno = 0
    /// Microseconds from the start until the connection was made (`CURLINFO_CONNECT_TIME_T`); 0 if it never was.
    var connectTime: curl_off_t = 0

    /// A completion with libcurl's result `code` and the facts of a failure, if any.
    init(code: CURLcode, detail: String = "", osErrno: Int = 0, connectTime: curl_off_t = 0) {
        self.code = code
        self.detail = detail
        self.osErrno = osErrno
        self.connectTime = connectTime
    }
}
