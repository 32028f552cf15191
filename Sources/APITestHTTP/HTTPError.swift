public import APITestSupport

/// Why a transfer failed before a complete response arrived: the HTTP layer's one error type.
///
/// An error is a value: a `reason` (the kind of failure, for callers that react differently to each) and a
/// `detail` (which failure exactly, with its data: libcurl's code and message, the option libcurl refused, the body
/// file and its sizes, the field that held a forbidden character, ...). Code that fails a transfer builds these
/// values and never text; the sentence for people, `message`, is computed from them in one place
/// (`HTTPError+Description.swift`), as Hurl's and Alamofire's errors render theirs.
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for callers that react differently to each: the one list the results layer reports
    /// too (`TestError.Kind.transfer`), declared in `APITestSupport` below both.
    public typealias Reason = TransferFailureReason

    /// Which failure it was, with the data that tells it apart: one case per way a transfer fails.
    public enum Detail: Sendable, Hashable {
        // MARK: libcurl

        /// libcurl failed the transfer with `code` (a `CURLcode`); `errorBuffer` is libcurl's own message
        /// (`CURLOPT_ERRORBUFFER`), empty when it wrote none.
        case curl(code: Int, errorBuffer: String)
        /// libcurl refused the option `name` (as its documentation spells it, `CURLOPT_URL`) with `code` (a
        /// `CURLcode`); the transfer was not started.
        case optionRefused(name: String, code: Int)
        /// libcurl's multi handle refused to take the transfer, with `code` (a `CURLMcode`).
        case transferRefused(code: Int)
        /// libcurl could not create a handle for the transfer.
        case handleUnavailable

        // MARK: The session

        /// The request was made after the session manager had been shut down.
        case sessionShutDown
        /// The session manager shut down while the transfer was queued or running.
        case shutDownDuringTransfer

        // MARK: TLS

        /// The TLS check stopped the request from going over a connection this policy had not checked.
        case uncheckedConnection
        /// The security policy refused the server's chain (no pin matched, or the chain is invalid): its findings.
        case chainRejected(TLSEvaluation)
        /// A handshake check (`checkHandshake`) got a response without the check's findings.
        case handshakeNotChecked
        /// A handshake check was asked for a URL that is not https.
        case notHTTPS(url: String)

        // MARK: The response

        /// The kept response body passed `limit` bytes.
        case bodyTooLarge(limit: Int)
        /// A digest of the response body could not be computed.
        case digestFailed

        // MARK: The request body

        /// The body file at `path` could not be read, for `problem`.
        case bodyFileUnreadable(path: String, problem: BodyFileProblem)
        /// The body file at `path` ended before the `announced` size was sent: `read` bytes were.
        case bodyFileShrank(path: String, announced: Int64, read: Int64)
        /// The body file at `path` no longer has the `announced` size once it was sent: it has `now` bytes.
        case bodyFileChangedSize(path: String, announced: Int64, now: Int64)

        // MARK: Building the request

        /// A field bound for the wire held CR, LF or NUL; nothing was sent.
        case forbiddenCharacter(ForbiddenCharacter)
        /// The relative URL `reference` has no base URL to be resolved against.
        case relativeURLWithoutBase(reference: String)
        /// The base URL `base` has no scheme.
        case baseURLNotAbsolute(base: String)
        /// The resolved URL `url` is neither http nor https.
        case unsupportedScheme(url: String)
        /// The resolved URL `url` has no host.
        case missingHost(url: String)
        /// An XML property list body held a character XML 1.0 cannot hold (U+`scalar`) at the JSONPath `path`.
        case propertyListCharacter(path: String, scalar: UInt32)
        /// A property list body held null at the JSONPath `path`; property lists cannot hold it.
        case propertyListNull(path: String)
        /// AWS Signature Version 4 was asked for a body streamed from a file or a multipart form: libcurl 7.88
        /// hashes only a body held in memory, and would sign the wrong payload.
        case streamedBodyNotSignable
    }

    /// Why a body file could not be read.
    public enum BodyFileProblem: Sendable, Hashable {
        /// The check every file gets before it is opened (`ReadableFile`): missing, a folder, not a regular file,
        /// or not readable.
        case refused(ReadableFile.Problem)
        /// `stat(2)` failed with this `errno` after the check passed.
        case statFailed(errno: Int32)
        /// `open(2)` failed with this `errno` when the upload reached the file.
        case openFailed(errno: Int32)
        /// `read(2)` failed with this `errno` during the upload.
        case readFailed(errno: Int32)
        /// Its contents could not be loaded into memory (a multipart form encoded in one piece).
        case notLoaded
    }

    /// The kind of failure; for every detail but libcurl's own failures, the one the detail implies.
    public var reason: Reason
    /// Which failure it was, with its data; `message` is rendered from it and `reason`.
    public var detail: Detail
    /// libcurl's result code, when the failure came from libcurl (for a failure the transfer caused itself, the
    /// result of the transfer it stopped).
    public var curlCode: Int?
    /// True when no connection to the server was made: the host was not found, refused the connection, could not
    /// be reached, or did not answer the connect in time. The runner treats the host as unreachable.
    public var failedToConnect = false

    /// An error of `reason` for `detail`. `curlCode` defaults to the libcurl code `detail` holds, if any.
    public init(_ reason: Reason, _ detail: Detail, curlCode: Int? = nil) {
        self.reason = reason
        self.detail = detail
        self.curlCode = curlCode ?? detail.curlCode
    }

    /// An error for `detail` with the reason it implies (`Detail.reason`).
    public init(_ detail: Detail, curlCode: Int? = nil) {
        self.init(detail.reason, detail, curlCode: curlCode)
    }

    // MARK: - Facts derived from the detail

    /// The handshake check's findings when a `SecurityPolicy` refused the server.
    public var tlsEvaluation: TLSEvaluation? {
        if case .chainRejected(let evaluation) = detail { evaluation } else { nil }
    }

    /// The limit in bytes that a body passed, for `.bodyTooLarge`.
    public var bodyLimit: Int? {
        if case .bodyTooLarge(let limit) = detail { limit } else { nil }
    }

    /// The field and character when the request was refused with `.forbiddenCharacter`.
    public var forbiddenCharacter: ForbiddenCharacter? {
        if case .forbiddenCharacter(let finding) = detail { finding } else { nil }
    }
}

extension HTTPError.Detail {
    /// The reason a failure of this detail has. libcurl's failures take theirs from the code
    /// (`CurlErrorMapper`), which tells a refused connection from another failed connect only with the connect's
    /// `errno`: without it, `.connectionFailed`.
    public var reason: HTTPError.Reason {
        switch self {
        case .curl(let code, _): CurlErrorMapper.reason(forCode: code)
        case .optionRefused: .invalidRequest
        case .transferRefused, .handleUnavailable: .other
        case .sessionShutDown, .shutDownDuringTransfer: .cancelled
        case .uncheckedConnection, .handshakeNotChecked: .tlsFailure
        case .chainRejected(let evaluation): evaluation.verdict == .pinMismatch ? .pinMismatch : .tlsFailure
        case .notHTTPS, .streamedBodyNotSignable: .invalidRequest
        case .bodyTooLarge: .bodyTooLarge
        case .digestFailed: .other
        case .bodyFileUnreadable: .bodyFileUnreadable
        case .bodyFileShrank, .bodyFileChangedSize: .bodyFileChanged
        case .forbiddenCharacter: .forbiddenCharacter
        case .relativeURLWithoutBase, .baseURLNotAbsolute, .unsupportedScheme, .missingHost: .invalidRequest
        case .propertyListCharacter, .propertyListNull: .invalidRequest
        }
    }

    /// The libcurl result code the detail holds, if any.
    var curlCode: Int? {
        switch self {
        case .curl(let code, _), .optionRefused(_, let code): code
        default: nil
        }
    }
}
