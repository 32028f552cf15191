import APITestSupport
import CCurlShim

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - The sentence for people

extension HTTPError {
    /// A sentence for people: what failed and, where known, libcurl's own detail. Rendered from `reason` and
    /// `detail` here, the one place an `HTTPError` becomes text.
    public var message: String { Self.message(reason: reason, detail: detail) }

    /// The error's `message`.
    public var description: String { message }

    /// The sentence for a failure of `reason` with `detail`. Only libcurl's failures depend on the reason (it picks
    /// the words before libcurl's message); every other detail implies its reason.
    static func message(reason: Reason, detail: Detail) -> String {
        switch detail {
        case .curl(let code, let errorBuffer):
            let text = errorBuffer.isEmpty ? curlText(code) : errorBuffer
            return "\(curlPrefix(reason)): \(text)"
        case .optionRefused(let name, let code):
            return "libcurl refused \(name): \(curlText(code))"
        case .transferRefused(let code):
            let text = String(cString: curl_multi_strerror(CURLMcode(rawValue: .init(truncatingIfNeeded: code))))
            return "libcurl refused the transfer: \(text)"
        case .handleUnavailable:
            return "libcurl could not create a transfer"
        case .sessionShutDown:
            return "the session manager has been shut down"
        case .shutDownDuringTransfer:
            return "the session manager was shut down"
        case .uncheckedConnection:
            return "TLS failure: the request was not sent: the connection was not checked under this security policy"
        case .chainRejected(let evaluation):
            return "TLS failure: " + evaluation.failureMessage
        case .handshakeNotChecked:
            return "TLS failure: the handshake was not checked"
        case .notHTTPS(let url):
            return "invalid request: '\(url)' is not an https URL"
        case .streamedBodyNotSignable:
            return
                "invalid request: AWS Signature Version 4 signs a body held in memory (json, form, body, xml, plist); "
                + "libcurl cannot hash one streamed from a file or a multipart form"
        case .bodyTooLarge(let limit):
            return "the response body is larger than the limit of \(limit) bytes"
        case .digestFailed:
            return "OpenSSL could not compute the response body's digest"
        case .bodyFileUnreadable(let path, let problem):
            return bodyFileMessage(path: path, problem: problem)
        case .bodyFileShrank(let path, let announced, let read):
            return "body file \(path) shrank during the upload: \(announced) bytes announced, \(read) read"
        case .bodyFileChangedSize(let path, let announced, let now):
            return "body file \(path) changed size during the upload: \(announced) bytes announced, \(now) now"
        case .forbiddenCharacter(let finding):
            return "the request was not sent: \(finding.description); CR, LF and NUL cannot go on the wire"
                + " (a header or URL built from a captured or external value?)"
        case .relativeURLWithoutBase(let reference):
            return "relative URL '\(reference)' needs a baseURL"
        case .baseURLNotAbsolute(let base):
            return "baseURL '\(base)' is not an absolute URL"
        case .unsupportedScheme(let url):
            return "unsupported URL scheme in '\(url)': use http or https"
        case .missingHost(let url):
            return "URL '\(url)' has no host"
        case .propertyListCharacter(let path, let scalar):
            let hex = String(scalar, radix: 16, uppercase: true)
            let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "an XML property list cannot hold the character U+\(code) (at \(path)); use plistFormat: binary"
        case .propertyListNull(let path):
            return "a property list cannot hold null (at \(path))"
        }
    }

    // MARK: - Parts

    /// The words before libcurl's message for a libcurl failure of `reason`: `connection refused`.
    private static func curlPrefix(_ reason: Reason) -> String {
        switch reason {
        case .dnsFailure: "could not resolve the host"
        case .connectionRefused: "connection refused"
        case .connectionFailed: "could not connect"
        case .timedOut: "timed out"
        case .emptyReply: "the server closed the connection without a response"
        case .connectionReset: "the connection failed during the transfer"
        case .tlsFailure: "TLS failure"
        case .tooManyRedirects: "too many redirects"
        case .badContentEncoding: "the body could not be decoded"
        case .proxyFailure: "proxy failure"
        case .invalidRequest: "invalid request"
        default: "transfer failed"
        }
    }

    /// libcurl's description of its result `code` (a `CURLcode`).
    private static func curlText(_ code: Int) -> String {
        String(cString: curl_easy_strerror(CURLcode(rawValue: .init(truncatingIfNeeded: code))))
    }

    /// The sentence for the body file at `path` that could not be read for `problem`.
    private static func bodyFileMessage(path: String, problem: BodyFileProblem) -> String {
        switch problem {
        case .refused(let problem): problem.message(key: "body file", path: path)
        case .statFailed(let number): "cannot read body file '\(path)': \(systemText(number))"
        case .openFailed(let number): "cannot read body file \(path): \(systemText(number))"
        case .readFailed(let number): "reading body file \(path) failed: \(systemText(number))"
        case .notLoaded: "cannot read body file \(path)"
        }
    }

    /// The system's description of the error number `number` (`strerror(3)`).
    private static func systemText(_ number: Int32) -> String {
        String(cString: strerror(number))
    }
}
