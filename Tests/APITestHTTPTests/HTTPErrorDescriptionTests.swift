import APITestSupport
import CCurlShim
import Testing

@testable import APITestHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Every `HTTPError.Detail` renders its sentence from typed values in one place, with the words apitest has always
/// shown (reports and end-to-end cases compare them), and implies the reason it always had.
@Suite struct HTTPErrorDescriptionTests {
    /// One detail, the reason it implies and the sentence it renders.
    struct Row: Sendable, CustomTestStringConvertible {
        var detail: HTTPError.Detail
        var reason: HTTPError.Reason
        var message: String

        init(_ detail: HTTPError.Detail, _ reason: HTTPError.Reason, _ message: String) {
            self.detail = detail
            self.reason = reason
            self.message = message
        }

        var testDescription: String { "\(HTTPErrorDescriptionTests.name(of: detail)): \(message)" }
    }

    static let pinMismatch = TLSEvaluation(verdict: .pinMismatch, configuredPins: ["sha256//AAAA", "sha256//BBBB"])
    static let expired = TLSEvaluation(
        verdict: .certificateInvalid, problem: .expired, problemDetail: "certificate has expired")
    static let lineFeed = ForbiddenCharacter(field: .headerValue(name: "X-Token"), character: .lineFeed)

    /// libcurl's description of `code`: its words, which change between libcurl versions, around ours.
    static func curlText(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }

    static let rows: [Row] = [
        // libcurl
        Row(
            .curl(code: Int(CURLE_COULDNT_RESOLVE_HOST.rawValue), errorBuffer: "Could not resolve host: nowhere"),
            .dnsFailure, "could not resolve the host: Could not resolve host: nowhere"),
        Row(
            .curl(code: Int(CURLE_GOT_NOTHING.rawValue), errorBuffer: ""), .emptyReply,
            "the server closed the connection without a response: " + curlText(CURLE_GOT_NOTHING)),
        Row(
            .optionRefused(name: "CURLOPT_SSL_VERIFYPEER", code: Int(CURLE_UNKNOWN_OPTION.rawValue)),
            .invalidRequest, "libcurl refused CURLOPT_SSL_VERIFYPEER: " + curlText(CURLE_UNKNOWN_OPTION)),
        Row(
            .transferRefused(code: Int(CURLM_BAD_EASY_HANDLE.rawValue)), .other,
            "libcurl refused the transfer: " + String(cString: curl_multi_strerror(CURLM_BAD_EASY_HANDLE))),
        Row(.handleUnavailable, .other, "libcurl could not create a transfer"),
        // The session
        Row(.sessionShutDown, .cancelled, "the session manager has been shut down"),
        Row(.shutDownDuringTransfer, .cancelled, "the session manager was shut down"),
        // TLS
        Row(
            .uncheckedConnection, .tlsFailure,
            "TLS failure: the request was not sent: the connection was not checked under this security policy"),
        Row(
            .chainRejected(pinMismatch), .pinMismatch,
            "TLS failure: certificate pinning failed: no certificate of the chain matches a pin; the chain's pins: "
                + "; configured pins: sha256//AAAA, sha256//BBBB"),
        Row(.chainRejected(expired), .tlsFailure, "TLS failure: certificate expired: certificate has expired"),
        Row(.handshakeNotChecked, .tlsFailure, "TLS failure: the handshake was not checked"),
        Row(.notHTTPS(url: "http://h/"), .invalidRequest, "invalid request: 'http://h/' is not an https URL"),
        // The response
        Row(.bodyTooLarge(limit: 1024), .bodyTooLarge, "the response body is larger than the limit of 1024 bytes"),
        Row(.digestFailed, .other, "OpenSSL could not compute the response body's digest"),
        // The request body
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .refused(.missing)), .bodyFileUnreadable,
            "body file '/d/x' does not exist"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .refused(.directory)), .bodyFileUnreadable,
            "body file '/d/x' is a directory, not a file"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .refused(.notRegular)), .bodyFileUnreadable,
            "body file '/d/x' is not a regular file"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .refused(.unreadable)), .bodyFileUnreadable,
            "body file '/d/x' is not readable"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .statFailed(errno: ENOENT)), .bodyFileUnreadable,
            "cannot read body file '/d/x': No such file or directory"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .openFailed(errno: EACCES)), .bodyFileUnreadable,
            "cannot read body file /d/x: Permission denied"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .readFailed(errno: EIO)), .bodyFileUnreadable,
            "reading body file /d/x failed: Input/output error"),
        Row(
            .bodyFileUnreadable(path: "/d/x", problem: .notLoaded), .bodyFileUnreadable, "cannot read body file /d/x"),
        Row(
            .bodyFileShrank(path: "/d/x", announced: 100_000, read: 4096), .bodyFileChanged,
            "body file /d/x shrank during the upload: 100000 bytes announced, 4096 read"),
        Row(
            .bodyFileChangedSize(path: "/d/x", announced: 100, now: 150), .bodyFileChanged,
            "body file /d/x changed size during the upload: 100 bytes announced, 150 now"),
        // Building the request
        Row(
            .forbiddenCharacter(lineFeed), .forbiddenCharacter,
            "the request was not sent: the value of header 'X-Token' contains a line feed (LF); CR, LF and NUL cannot"
                + " go on the wire (a header or URL built from a captured or external value?)"),
        Row(.relativeURLWithoutBase(reference: "users"), .invalidRequest, "relative URL 'users' needs a baseURL"),
        Row(.baseURLNotAbsolute(base: "example.com"), .invalidRequest, "baseURL 'example.com' is not an absolute URL"),
        Row(
            .unsupportedScheme(url: "ftp://h/x"), .invalidRequest,
            "unsupported URL scheme in 'ftp://h/x': use http or https"),
        Row(.missingHost(url: "http:///x"), .invalidRequest, "URL 'http:///x' has no host"),
        Row(
            .propertyListCharacter(path: "$.a[0]", scalar: 1), .invalidRequest,
            "an XML property list cannot hold the character U+0001 (at $.a[0]); use plistFormat: binary"),
        Row(.propertyListNull(path: "$.a[0]"), .invalidRequest, "a property list cannot hold null (at $.a[0])"),
        Row(
            .streamedBodyNotSignable, .invalidRequest,
            "invalid request: AWS Signature Version 4 signs a body held in memory (json, form, body, xml, plist); "
                + "libcurl cannot hash one streamed from a file or a multipart form"),
    ]

    /// The name of `detail`'s case. The switch is exhaustive, so a new case does not compile until it is named
    /// here, and `everyDetailHasARow` then fails until the table has a row for it.
    static func name(of detail: HTTPError.Detail) -> String {
        switch detail {
        case .curl: "curl"
        case .optionRefused: "optionRefused"
        case .transferRefused: "transferRefused"
        case .handleUnavailable: "handleUnavailable"
        case .sessionShutDown: "sessionShutDown"
        case .shutDownDuringTransfer: "shutDownDuringTransfer"
        case .uncheckedConnection: "uncheckedConnection"
        case .chainRejected: "chainRejected"
        case .handshakeNotChecked: "handshakeNotChecked"
        case .notHTTPS: "notHTTPS"
        case .bodyTooLarge: "bodyTooLarge"
        case .digestFailed: "digestFailed"
        case .bodyFileUnreadable: "bodyFileUnreadable"
        case .bodyFileShrank: "bodyFileShrank"
        case .bodyFileChangedSize: "bodyFileChangedSize"
        case .forbiddenCharacter: "forbiddenCharacter"
        case .relativeURLWithoutBase: "relativeURLWithoutBase"
        case .baseURLNotAbsolute: "baseURLNotAbsolute"
        case .unsupportedScheme: "unsupportedScheme"
        case .missingHost: "missingHost"
        case .streamedBodyNotSignable: "streamedBodyNotSignable"
        case .propertyListCharacter: "propertyListCharacter"
        case .propertyListNull: "propertyListNull"
        }
    }

    static let allNames: Set<String> = [
        "curl", "optionRefused", "transferRefused", "handleUnavailable", "sessionShutDown", "shutDownDuringTransfer",
        "uncheckedConnection", "chainRejected", "handshakeNotChecked", "notHTTPS", "bodyTooLarge", "digestFailed",
        "bodyFileUnreadable", "bodyFileShrank", "bodyFileChangedSize", "forbiddenCharacter", "relativeURLWithoutBase",
        "baseURLNotAbsolute", "unsupportedScheme", "missingHost", "propertyListCharacter", "propertyListNull",
        "streamedBodyNotSignable",
    ]

    // MARK: - Every detail

    @Test(arguments: rows)
    func aDetailRendersItsSentenceAndImpliesItsReason(_ row: Row) {
        let error = HTTPError(row.detail)
        #expect(error.reason == row.reason)
        #expect(error.message == row.message)
        #expect(error.description == row.message)
    }

    @Test func everyDetailHasARow() {
        #expect(Set(Self.rows.map { Self.name(of: $0.detail) }) == Self.allNames)
    }

    // MARK: - libcurl's failures

    /// libcurl's code picks the reason, and the reason the words before libcurl's message.
    @Test(arguments: [
        (CURLE_UNSUPPORTED_PROTOCOL, HTTPError.Reason.invalidRequest, "invalid request"),
        (CURLE_URL_MALFORMAT, .invalidRequest, "invalid request"),
        (CURLE_COULDNT_RESOLVE_HOST, .dnsFailure, "could not resolve the host"),
        (CURLE_COULDNT_RESOLVE_PROXY, .proxyFailure, "proxy failure"),
        (CURLE_COULDNT_CONNECT, .connectionFailed, "could not connect"),
        (CURLE_OPERATION_TIMEDOUT, .timedOut, "timed out"),
        (CURLE_GOT_NOTHING, .emptyReply, "the server closed the connection without a response"),
        (CURLE_SEND_ERROR, .connectionReset, "the connection failed during the transfer"),
        (CURLE_RECV_ERROR, .connectionReset, "the connection failed during the transfer"),
        (CURLE_PARTIAL_FILE, .connectionReset, "the connection failed during the transfer"),
        (CURLE_HTTP2, .connectionReset, "the connection failed during the transfer"),
        (CURLE_HTTP2_STREAM, .connectionReset, "the connection failed during the transfer"),
        (CURLE_SSL_CONNECT_ERROR, .tlsFailure, "TLS failure"),
        (CURLE_PEER_FAILED_VERIFICATION, .tlsFailure, "TLS failure"),
        (CURLE_SSL_CACERT_BADFILE, .tlsFailure, "TLS failure"),
        (CURLE_SSL_PINNEDPUBKEYNOTMATCH, .tlsFailure, "TLS failure"),
        (CURLE_TOO_MANY_REDIRECTS, .tooManyRedirects, "too many redirects"),
        (CURLE_BAD_CONTENT_ENCODING, .badContentEncoding, "the body could not be decoded"),
        (CURLE_READ_ERROR, .bodyFileUnreadable, "transfer failed"),
        (CURLE_ABORTED_BY_CALLBACK, .bodyFileUnreadable, "transfer failed"),
        (CURLE_WRITE_ERROR, .other, "transfer failed"),
    ])
    func libcurlsCodeDecidesTheReasonAndItsWords(_ code: CURLcode, _ reason: HTTPError.Reason, _ prefix: String) {
        let error = CurlErrorMapper.error(for: CurlCompletion(code: code, detail: "libcurl's words"))
        #expect(error.reason == reason)
        #expect(error.detail == .curl(code: Int(code.rawValue), errorBuffer: "libcurl's words"))
        #expect(error.curlCode == Int(code.rawValue))
        #expect(error.message == "\(prefix): libcurl's words")
        #expect(HTTPError(error.detail).reason == reason, "the detail alone implies the same reason")
    }

    @Test func aRefusedConnectIsToldApartByItsErrnoAndSaysSo() {
        let refused = CurlErrorMapper.error(
            for: CurlCompletion(code: CURLE_COULDNT_CONNECT, detail: "Connection refused", osErrno: Int(ECONNREFUSED)))
        #expect(refused.reason == .connectionRefused)
        #expect(refused.message == "connection refused: Connection refused")
        #expect(refused.failedToConnect)
        // The detail alone, without the errno, is a connect that failed.
        #expect(HTTPError(refused.detail).reason == .connectionFailed)
        #expect(HTTPError(refused.detail).message == "could not connect: Connection refused")
    }

    // MARK: - Facts derived from the detail

    @Test func theLimitTheEvaluationAndTheFindingComeFromTheDetail() {
        #expect(HTTPError(.bodyTooLarge(limit: 42)).bodyLimit == 42)
        #expect(HTTPError(.digestFailed).bodyLimit == nil)
        #expect(HTTPError(.chainRejected(Self.expired)).tlsEvaluation == Self.expired)
        #expect(HTTPError(.handshakeNotChecked).tlsEvaluation == nil)
        #expect(HTTPError(.forbiddenCharacter(Self.lineFeed)).forbiddenCharacter == Self.lineFeed)
        #expect(HTTPError(.missingHost(url: "http:///")).forbiddenCharacter == nil)
    }

    @Test func libcurlsCodeIsKeptFromTheDetailUnlessGiven() {
        let code = Int(CURLE_UNKNOWN_OPTION.rawValue)
        #expect(HTTPError(.optionRefused(name: "CURLOPT_URL", code: code)).curlCode == code)
        #expect(HTTPError(.curl(code: 7, errorBuffer: "")).curlCode == 7)
        #expect(HTTPError(.transferRefused(code: 2)).curlCode == nil, "a multi code is not a transfer's code")
        #expect(HTTPError(.bodyTooLarge(limit: 1)).curlCode == nil)
        #expect(HTTPError(.bodyTooLarge(limit: 1), curlCode: 23).curlCode == 23)
        #expect(!HTTPError(.curl(code: 7, errorBuffer: "")).failedToConnect, "only the mapper knows the connect")
    }
}
