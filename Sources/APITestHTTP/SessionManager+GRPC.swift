import APITestSupport
import CCurlShim
public import Foundation
import Synchronization

// MARK: - gRPC calls

extension SessionManager {
    /// Sends the gRPC call `call` as one HTTP/2 transfer and returns how it ended.
    ///
    /// `onHeaders` gets the response header fields when the first message arrives (the result carries them in every
    /// case); `onMessage` gets each response message as soon as its frame is complete, and may stop the call by
    /// returning false (it then ends CANCELLED, `.stoppedByReader`). Both run on the session's event-loop thread,
    /// one at a time, and must not block.
    ///
    /// A status from the server, OK or not, is the result's `status`; a failure of the transport or the protocol,
    /// or the deadline passing, is the result's `failure`, with the status gRPC gives it.
    ///
    /// - Throws: `GRPCError` when the call cannot be sent (its URL, method path or metadata), before anything is
    ///   sent; `CancellationError` when the calling task was cancelled (the transfer is cancelled).
    public func performGRPC(
        _ call: GRPCCallDescription,
        onHeaders: (@Sendable (HTTPHeaders) -> Void)? = nil,
        onMessage: @escaping @Sendable (Data) -> Bool = { _ in true }
    ) async throws -> GRPCCallResult {
        let reader = GRPCResponseReader(limit: call.maxResponseMessageSize, onHeaders: onHeaders, onMessage: onMessage)
        let request = try call.httpRequest(sink: reader.sink)
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await perform(request)
        } catch let error as HTTPError where Self.answerWasLostBeforeTheRequestWasSent(error, reader.finish()) {
            if let answer = try await headerAnswer(to: call, within: call.deadline.map { $0 - (.now - start) }) {
                return answer
            }
            return Self.failedCall(error, call, reader)
        } catch let error as HTTPError {
            return Self.failedCall(error, call, reader)
        }
        return reader.finish().result(of: response)
    }

    /// The result of `call` whose transfer failed with `error`.
    private static func failedCall(
        _ error: HTTPError, _ call: GRPCCallDescription, _ reader: GRPCResponseReader
    ) -> GRPCCallResult {
        let failure =
            if error.reason == .timedOut, let deadline = call.deadline {
                GRPCError(.deadlineExceeded(deadline: deadline))
            } else {
                GRPCError(.transport(error))
            }
        let read = reader.finish()
        return GRPCCallResult(
            status: failure.status, failure: failure, headers: HTTPHeaders(), trailers: read.trailers,
            isTrailersOnly: false, messageCount: read.count, response: nil)
    }

    /// The server's answer to `call` from its headers alone, when libcurl lost the answer to the call
    /// (`answerWasLostBeforeTheRequestWasSent`): the call sent again without its messages (its HEADERS frame ends
    /// the stream, so there is nothing left to send when the server answers). The server had answered the call
    /// without reading its messages; only the same kind of answer counts: a status other than OK in the answer's
    /// headers, no message (a trailers-only answer). Anything else (an OK, messages, a failure) is no answer: nil.
    /// `remaining` is what is left of the call's deadline, which the question must keep to (none left: nil).
    private func headerAnswer(
        to call: GRPCCallDescription, within remaining: Duration?
    ) async throws -> GRPCCallResult? {
        if let remaining, remaining <= .zero { return nil }
        var headersOnly = call
        headersOnly.messages = []
        headersOnly.deadline = remaining
        let reader = GRPCResponseReader(limit: call.maxResponseMessageSize, onHeaders: nil, onMessage: { _ in false })
        let request = try headersOnly.httpRequest(sink: reader.sink)
        let response: HTTPResponse
        do {
            response = try await perform(request)
        } catch is HTTPError {
            return nil
        }
        let answer = reader.finish().result(of: response)
        guard answer.failure == nil, answer.isTrailersOnly, !answer.status.isOK, answer.messageCount == 0 else {
            return nil
        }
        return answer
    }

    /// Whether a gRPC call failed as libcurl 7.88 fails a call the server answered before it had read the request:
    /// the server ended the stream cleanly with its answer (grpcio answers UNIMPLEMENTED to an unknown method at
    /// once, a server's authentication check answers UNAUTHENTICATED from the metadata alone) while libcurl was
    /// still to send the request's messages on a reused connection; libcurl then fails the send ("stream N closed",
    /// `CURLE_HTTP2_STREAM` with nothing in its error buffer) and drops the answer it had received, so the call would
    /// end UNAVAILABLE instead of with the server's status (`GRPCTLSConnectionReuseTests`: in every run of six
    /// rounds, over TLS; sending it again on a new connection failed the same way). Nothing of the answer reached
    /// the call (no message, no trailer, no failure of its own), and the server had not read the request's messages
    /// when it answered: `headerAnswer(to:)` asks again without them.
    static func answerWasLostBeforeTheRequestWasSent(_ error: HTTPError, _ read: GRPCResponseReader.Read) -> Bool {
        guard error.curlCode == Int(CURLE_HTTP2_STREAM.rawValue), case .curl(_, let buffer) = error.detail,
            buffer.isEmpty
        else { return false }
        return read.failure == nil && read.count == 0 && read.trailerLines.isEmpty
    }
}

// MARK: - The response reader

/// What a gRPC call's response body handling collects on the loop thread: the messages cut from the body, the
/// trailer fields, and the first failure. Read by the caller once the transfer has ended.
final class GRPCResponseReader: Sendable {
    /// What the reader holds when the call ends.
    struct Read {
        var failure: GRPCError?
        var trailerLines: [UInt8]
        var count: Int
        var decoder: GRPCMessageDecoder

        var trailers: HTTPHeaders { HTTPHeaders(fieldLines: trailerLines) }

        /// The result of the call whose HTTP response is `response`.
        func result(of response: HTTPResponse) -> GRPCCallResult {
            let headers = response.headers
            let trailers = self.trailers
            var result = GRPCCallResult(
                status: GRPCStatus(.ok), failure: nil, headers: headers, trailers: trailers, isTrailersOnly: false,
                messageCount: count, response: response)
            func fail(_ error: GRPCError) -> GRPCCallResult {
                result.failure = error
                result.status = error.status
                return result
            }
            if let failure { return fail(failure) }
            let contentType = headers["content-type"]
            let isGRPC = contentType.map { Self.isGRPCContentType($0) } ?? false
            let trailersOnly = trailers.isEmpty && response.bodySize == 0 && GRPCStatus.read(from: headers) != nil
            let status = trailersOnly ? GRPCStatus.read(from: headers) : GRPCStatus.read(from: trailers)
            if response.statusCode != 200, status == nil || !isGRPC {
                return fail(GRPCError(.notGRPC(httpStatus: response.statusCode, contentType: contentType)))
            }
            if !response.httpVersion.hasPrefix("HTTP/2") {
                return fail(GRPCError(.notHTTP2(version: response.httpVersion)))
            }
            guard isGRPC else {
                return fail(GRPCError(.notGRPC(httpStatus: response.statusCode, contentType: contentType)))
            }
            do throws(GRPCError) {
                try decoder.finish()
            } catch {
                return fail(error)
            }
            guard let status else { return fail(GRPCError(.missingStatus)) }
            result.status = status
            result.isTrailersOnly = trailersOnly
            return result
        }

        /// Whether a content type is gRPC's: `application/grpc`, or `application/grpc+<format>` / `;<parameters>`.
        static func isGRPCContentType(_ value: String) -> Bool {
            let lower = value.lowercased().trimmingCharacters(in: .whitespaces)
            guard lower.hasPrefix("application/grpc") else { return false }
            let rest = lower.dropFirst("application/grpc".count)
            return rest.isEmpty || rest.hasPrefix("+") || rest.hasPrefix(";")
        }
    }

    private let state: Mutex<Read>
    private let onHeaders: (@Sendable (HTTPHeaders) -> Void)?
    private let onMessage: @Sendable (Data) -> Bool

    init(limit: Int, onHeaders: (@Sendable (HTTPHeaders) -> Void)?, onMessage: @escaping @Sendable (Data) -> Bool) {
        state = Mutex(Read(failure: nil, trailerLines: [], count: 0, decoder: GRPCMessageDecoder(limit: limit)))
        self.onHeaders = onHeaders
        self.onMessage = onMessage
    }

    /// The body handling of the call's request: messages and trailers to this reader.
    var sink: ResponseStreamSink {
        ResponseStreamSink(
            begin: { [self] status, headers in begin(status: status, headers: headers) },
            receive: { [self] bytes in receive(bytes) },
            trailer: { [self] line in
                state.withLock { read in
                    read.trailerLines.append(contentsOf: line)
                    read.trailerLines.append(UInt8(ascii: "\n"))
                }
            })
    }

    /// The body starts: a body that is not gRPC's is not cut into messages (`receive` stops the transfer).
    private func begin(status: Int, headers: HTTPHeaders) {
        let isGRPC = status == 200 && (headers["content-type"].map { Read.isGRPCContentType($0) } ?? false)
        if !isGRPC {
            state.withLock { read in
                if read.failure == nil {
                    read.failure = GRPCError(.notGRPC(httpStatus: status, contentType: headers["content-type"]))
                }
            }
            return
        }
        onHeaders?(headers)
    }

    /// Body bytes: cut into messages, each handed to `onMessage`; false stops the transfer.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        state.withLock { read -> Bool in
            guard read.failure == nil else { return false }
            do throws(GRPCError) {
                let goOn = try read.decoder.feed(bytes) { message in onMessage(message) }
                read.count = read.decoder.count
                if !goOn { read.failure = GRPCError(.stoppedByReader) }
                return goOn
            } catch {
                read.count = read.decoder.count
                read.failure = error
                return false
            }
        }
    }

    /// What was read, once the transfer has ended.
    func finish() -> Read {
        state.withLock { $0 }
    }
}
