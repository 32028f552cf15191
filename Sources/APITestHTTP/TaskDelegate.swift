import APITestSupport
import CCurlShim
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The state of one transfer while libcurl runs it: AFNetworking's per-task delegate.
///
/// Made on the calling task's thread (`SessionManager.perform`) and handed to the event-loop thread through the
/// loop's command queue, it lives there only from then on. libcurl's callbacks reach it through `Unmanaged`
/// userdata; it collects the status line, every header in order, the body (up to its limit) and streams the
/// request body. Where the transfer stands, how it ends and the caller's continuation are the business of its state
/// machine (`transfer`), which every event that can change the outcome goes through.
final class TaskDelegate {
    let id: UInt64
    let request: HTTPRequest
    let maxBodySize: Int
    /// The transfer's lifecycle; holds the caller's continuation until the transfer ends.
    ///
    /// This and the response state below are read and written by libcurl's callbacks on the loop thread alone,
    /// never while another access is open, several times for every header line: no dynamic exclusivity check.
    @exclusivity(unchecked) var transfer: StateMachine

    /// Records the result of setting the option `name`; the first refusal fails the transfer before it starts.
    ///
    /// A taken option (nearly all of the some twenty a transfer sets, on the loop thread) changes nothing, so only
    /// a refusal goes to the state machine: options are set in `CurlMultiLoop.configure` alone, before `start()`.
    @inline(__always)
    func check(_ name: String, _ code: CURLcode) {
        if code != CURLE_OK { transfer.optionApplied(name, code) }
    }

    // MARK: - Response state

    @exclusivity(unchecked) var statusCode = 0
    @exclusivity(unchecked) var reasonPhrase = ""
    /// The field lines of the latest response header, each without its line ending and followed by `\n`; they
    /// become the response's `HTTPHeaders` on the caller's thread (`HTTPResponse.receivedFieldLines`).
    @exclusivity(unchecked) var headerBlock: [UInt8] = []
    @exclusivity(unchecked) var body = Data()
    /// The latest response's `Content-Length`, when it announced one: a large kept body reserves it (up to its
    /// limit) at its first bytes instead of growing by copies.
    @exclusivity(unchecked) private(set) var announcedLength: Int?
    /// Bodies announced at least this large are reserved whole at their first bytes.
    static let reservedBodyThreshold = 64 * 1024
    /// Body bytes received, kept or not.
    @exclusivity(unchecked) var bodySize: Int64 = 0
    /// The digests computed as the body streams, for `.digest` handling.
    private(set) var digests: [StreamingDigest] = []
    /// Bytes of the body kept: all of it (up to `maxBodySize`) for `.keep`, a prefix for `.digest` and `.stream`.
    private let keptPrefix: Int?
    /// The reader of a streamed body (`.stream`).
    private let sink: ResponseStreamSink?
    /// Whether the sink was told that the current response's body started.
    private var sinkBegun = false
    /// Whether the current response's header block ended (its empty line came): field lines after it are trailers.
    private var headerBlockEnded = false
    /// The header fields of the latest request libcurl sent (for `recordsSentHeaders`).
    var sentHeaders: HTTPHeaders?
    /// The certificates the server sent on the connection of the latest response, leaf first.
    var peerCertificates: [CertificateInfo] = []
    /// Reads `peerCertificates` from the connection of `easy` when a response starts.
    var certificateSource: (easy: UnsafeMutableRawPointer, cache: PeerCertificateCache)?
    /// The handshake check of a transfer with a `SecurityPolicy`.
    var tlsState: TLSTransferState?
    /// A plaintext gRPC call's part in sharing h2c connections (`CurlMultiLoop+H2C.swift`).
    var h2c: H2CTransfer?

    // MARK: - Request body state

    /// The request body being sent, if any.
    private(set) var bodyStream: BodyStream?
    private var lastProgress = ContinuousClock.now

    // MARK: - libcurl resources

    var headerList: UnsafeMutablePointer<curl_slist>?
    var resolveList: UnsafeMutablePointer<curl_slist>?
    /// The `CURLOPT_CONNECT_TO` entries, freed with the transfer.
    var connectToList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(id: UInt64, request: HTTPRequest, maxBodySize: Int, continuation: TransferContinuation) {
        self.id = id
        self.request = request
        self.maxBodySize = maxBodySize
        self.transfer = StateMachine(continuation: continuation)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        switch request.responseBodyHandling {
        case .keep:
            keptPrefix = nil
            sink = nil
        case .stream(let reader, let prefix):
            keptPrefix = max(0, prefix)
            sink = reader
        case .digest(let algorithms, let prefix):
            keptPrefix = max(0, prefix)
            sink = nil
            for algorithm in BodyDigest.Algorithm.allCases where algorithms.contains(algorithm) {
                if let digest = StreamingDigest(algorithm) {
                    digests.append(digest)
                } else {
                    // The transfer still runs; it fails when it ends (see `StateMachine.digestFailed()`).
                    _ = transfer.digestFailed()
                }
            }
        }
    }

    /// The digests of the whole body, once it has arrived.
    func finishDigests() -> [BodyDigest.Algorithm: String]? {
        var result: [BodyDigest.Algorithm: String] = [:]
        for digest in digests {
            guard let value = digest.finish() else { return nil }
            result[digest.algorithm] = value
        }
        return result
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        if let resolveList { curl_slist_free_all(resolveList) }
        if let connectToList { curl_slist_free_all(connectToList) }
        errorBuffer.deallocate()
    }

    var curlErrorDetail: String { String(cString: errorBuffer) }

    // MARK: - Request body

    /// Prepares the request body for reading; returns its exact length, or throws when a body file cannot be read.
    func openBody() throws(HTTPError) -> Int64? {
        bodyStream = try BodyStream.make(for: request.body)
        return bodyStream?.length
    }

    /// Fills `buffer` with the next request-body bytes; `nil` aborts the transfer (see `bodyStream.failure`).
    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let bodyStream else { return 0 }
        let count = bodyStream.read(into: buffer)
        if count == nil, let failure = bodyStream.failure { transfer.bodyReadFailed(failure) }
        if let progress = request.uploadProgress, count != nil {
            let now = ContinuousClock.now
            if now - lastProgress >= .milliseconds(100) || bodyStream.sent == bodyStream.length {
                lastProgress = now
                progress(bodyStream.sent, bodyStream.length)
            }
        }
        return count
    }

    // MARK: - Response

    /// Takes one raw header line from libcurl (status lines included). Works on bytes: this runs for every
    /// header of every response.
    func receiveHeaderLine(_ raw: UnsafeRawBufferPointer) {
        var end = raw.count
        while end > 0, raw[end - 1] == UInt8(ascii: "\n") || raw[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end > 0 else {
            headerBlockEnded = true
            return
        }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        if end > 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/")
        {
            // A new response (an interim 1xx, or the next hop of a redirect): start over.
            transfer.responseStarted()
            sinkBegun = false
            headerBlockEnded = false
            headerBlock.removeAll(keepingCapacity: true)
            if headerBlock.capacity == 0 { headerBlock.reserveCapacity(512) }
            announcedLength = nil
            (statusCode, reasonPhrase) = Self.statusAndReason(of: line)
            if let source = certificateSource { peerCertificates = source.cache.certificates(for: source.easy) }
            return
        }
        if headerBlockEnded, let trailer = sink?.trailer {
            // A trailer (after the body, or after an empty one): its reader keeps it apart from the header fields.
            trailer(line)
            return
        }
        if let length = Self.contentLength(of: line) { announcedLength = length }
        if let h2c, H2CTransfer.isStatusField(line) { h2c.answeredWithoutBody() }
        // The field lines are only copied here: `HTTPHeaders(fieldLines:)` reads them on the caller's thread.
        headerBlock.append(contentsOf: line)
        headerBlock.append(UInt8(ascii: "\n"))
    }

    /// Takes a block of request header lines libcurl sent (its debug callback's `CURLINFO_HEADER_OUT`): a
    /// request line starts a new request (a redirect's or a retry's), then `Name: value` lines.
    func receiveSentHeaderBlock(_ raw: UnsafeRawBufferPointer) {
        let text = String(decoding: raw, as: UTF8.self)
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            guard !line.isEmpty else { continue }
            if let colon = line.firstIndex(of: ":"), !line[..<colon].contains(" ") {
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                if sentHeaders == nil { sentHeaders = HTTPHeaders() }
                sentHeaders?.add(name: String(line[..<colon]), value: String(value))
            } else {
                // The request line (`GET /path HTTP/1.1`): a new request's headers follow.
                sentHeaders = HTTPHeaders()
            }
        }
    }

    /// The status code and reason phrase of a status line (`HTTP/1.1 200 OK`): the words after the version,
    /// separated by runs of spaces; 0 and "" when missing. Read in place: this runs for every response.
    static func statusAndReason(of line: UnsafeRawBufferPointer) -> (Int, String) {
        var index = 0
        func skip(_ space: Bool) {
            while index < line.count, (line[index] == UInt8(ascii: " ")) == space { index += 1 }
        }
        skip(false) // the version
        skip(true)
        var status = 0
        var digits = 0
        var valid = true
        while index < line.count, line[index] != UInt8(ascii: " ") {
            let byte = line[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") && digits < 9 {
                status = status * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                valid = false
            }
            index += 1
        }
        skip(true)
        let reason = String(decoding: UnsafeRawBufferPointer(rebasing: line[index...]), as: UTF8.self)
        return (valid && digits > 0 ? status : 0, reason)
    }

    /// The name `contentLength(of:)` looks for, with its colon.
    private static let contentLengthName: StaticString = "content-length:"

    /// The value of a `Content-Length: 1234` field line (the name in any case), or `nil` for another field or a
    /// value that is not a plain decimal number.
    static func contentLength(of line: UnsafeRawBufferPointer) -> Int? {
        // Every header line of every response passes here, on the loop thread: the name is compared byte by byte
        // against a static string's bytes, not through a generic walk of a `String.UTF8View`.
        let isContentLength = contentLengthName.withUTF8Buffer { name in
            line.count > name.count
                && String.asciiCaseInsensitiveEquals(
                    name, UnsafeBufferPointer(rebasing: line.assumingMemoryBound(to: UInt8.self)[0..<name.count]))
        }
        guard isContentLength else { return nil }
        var index = contentLengthName.utf8CodeUnitCount
        while index < line.count, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") { index += 1 }
        var value = 0
        var digits = 0
        while index < line.count, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            guard digits < 18 else { return nil }
            value = value * 10 + Int(line[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        while index < line.count, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") { index += 1 }
        return digits > 0 && index == line.count ? value : nil
    }

    /// Appends body bytes, or counts and hashes them; returns false (libcurl must abort) once a kept body passes
    /// its limit or a digest fails.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        transfer.receivedBody()
        bodySize += Int64(bytes.count)
        guard let keptPrefix else {
            if body.count + bytes.count > maxBodySize {
                return !transfer.exceededSize(limit: maxBodySize).abortsTransfer
            }
            if body.isEmpty, let announced = announcedLength, announced >= Self.reservedBodyThreshold {
                // One buffer of the announced size (a compressed body's grows past it as usual): growing by
                // copies would hold the old and the new buffer at once, for a large body most of its size again.
                body.reserveCapacity(min(announced, maxBodySize))
            }
            body.append(contentsOf: bytes)
            return true
        }
        if body.count < keptPrefix {
            body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(keptPrefix - body.count)))
        }
        for digest in digests where !digest.update(bytes) {
            return !transfer.digestFailed().abortsTransfer
        }
        if let sink {
            if !sinkBegun {
                sinkBegun = true
                sink.begin(statusCode, HTTPHeaders(fieldLines: headerBlock))
            }
            if !sink.receive(bytes) {
                transfer.streamStopped()
                return false
            }
        }
        return true
    }
}
