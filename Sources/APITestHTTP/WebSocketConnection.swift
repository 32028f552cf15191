import CCurlShim
import Dispatch
import Synchronization

// MARK: - WebSocketConnection

/// A client WebSocket connection (RFC 6455) over a libcurl `CURLOPT_CONNECT_ONLY` handle: libcurl makes the
/// connection (DNS, `resolve`, connect-to, unix socket, proxy tunnel, TLS with the request's `SecurityPolicy` and its
/// pins) and this type speaks HTTP/1.1's upgrade and the framing through `curl_easy_send`/`curl_easy_recv`.
///
/// Each connection has a serial queue of its own on which its blocking I/O runs (waiting on the socket with `poll`
/// in short slices, so a cancelled task or a deadline ends a wait promptly); the async methods hand work to it and
/// never block the caller's thread. Pings are answered with pongs as they are read; every frame sent and received is
/// kept, bounded, in `transcript`.
public final class WebSocketConnection: @unchecked Sendable {
    /// How a connection is opened and held.
    public struct Options: Sendable {
        /// The subprotocols offered (`Sec-WebSocket-Protocol`), in order of preference.
        public var subprotocols: [String]
        /// The largest message accepted, in bytes (a larger one fails with 1009).
        public var maxMessageSize: Int
        /// The most frames `transcript` keeps (the latest ones).
        public var transcriptLimit: Int

        /// 16 MiB messages by default.
        public static let defaultMaxMessageSize = 16 * 1024 * 1024

        /// Options offering `subprotocols`, with messages of at most `maxMessageSize` bytes.
        public init(
            subprotocols: [String] = [], maxMessageSize: Int = defaultMaxMessageSize, transcriptLimit: Int = 200
        ) {
            self.subprotocols = subprotocols
            self.maxMessageSize = maxMessageSize
            self.transcriptLimit = transcriptLimit
        }
    }

    /// One frame sent or received, for reports: its direction, opcode, flags and payload.
    public struct FrameRecord: Sendable, Hashable {
        /// Which way the frame went.
        public enum Direction: String, Sendable, Hashable {
            case sent, received
        }

        /// Which way the frame went.
        public var direction: Direction
        /// Its opcode.
        public var opcode: WebSocketFrame.Opcode
        /// Its FIN bit.
        public var fin: Bool
        /// Its payload, unmasked (cut at `FrameRecord.payloadLimit` bytes).
        public var payload: [UInt8]
        /// The payload's whole length.
        public var length: Int

        /// The most payload bytes a record keeps.
        public static let payloadLimit = 4096
    }

    let options: Options
    let queue = DispatchQueue(label: "apitest-websocket")
    /// The connect-only handle and its socket; nil once closed. Used on `queue` only.
    var easy: UnsafeMutableRawPointer?
    var socket: Int32 = -1
    /// What libcurl needs to stay alive while the handle is open (option lists, the TLS check, the error buffer).
    var resources = CurlResources()
    private var reader: WebSocketMessageReader
    /// Set once the client sent its close frame / the server's close frame was read.
    private(set) var closeSent = false
    private(set) var closeReceived = false
    private let cancelled = Atomic<Bool>(false)
    private let records = Mutex<[FrameRecord]>([])

    /// The server's answer to the upgrade.
    public internal(set) var handshakeResponse = WebSocketHandshake.Response(status: 0, reason: "", headers: [:])
    /// The subprotocol the server chose, nil for none.
    public internal(set) var subprotocol: String?
    /// The TLS findings of the handshake, when the connection used a security policy.
    public internal(set) var tlsEvaluation: TLSEvaluation?

    init(options: Options) {
        self.options = options
        self.reader = WebSocketMessageReader(limit: options.maxMessageSize)
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
    }

    /// The frames sent and received so far (the latest `transcriptLimit`).
    public var transcript: [FrameRecord] { records.withLock { $0 } }

    // MARK: - Opening

    /// Opens a connection for `request`, whose URL is `ws://`, `wss://`, `http://` or `https://`: connects through
    /// libcurl under the request's transport and security settings, sends the upgrade with the request's header
    /// fields, and checks the answer. `request.connectTimeout` (10 s when nil) bounds the connect,
    /// `request.timeout` (30 s when nil) the handshake.
    public static func connect(
        _ request: HTTPRequest, options: Options = Options()
    ) async throws(WebSocketError)
        -> WebSocketConnection
    {
        let connection = WebSocketConnection(options: options)
        try await connection.run { () throws(WebSocketError) in try connection.open(request) }
        return connection
    }

    // MARK: - Actions

    /// Sends one frame (masked with a fresh key). Sending a data frame after the close handshake started fails.
    public func send(_ frame: WebSocketFrame, timeout: Duration = .seconds(30)) async throws(WebSocketError) {
        try await run { () throws(WebSocketError) in try self.write(frame, deadline: .now + timeout) }
    }

    /// Sends a text message.
    public func send(text: String, timeout: Duration = .seconds(30)) async throws(WebSocketError) {
        try await send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)), timeout: timeout)
    }

    /// Sends a binary message.
    public func send(binary: [UInt8], timeout: Duration = .seconds(30)) async throws(WebSocketError) {
        try await send(WebSocketFrame(opcode: .binary, payload: binary), timeout: timeout)
    }

    /// The next event within `timeout`: a message, a ping (already answered with a pong), a pong, or the server's
    /// close frame (answered with a close frame when the client had not sent one).
    public func receive(timeout: Duration) async throws(WebSocketError) -> WebSocketEvent {
        try await run { () throws(WebSocketError) in
            try Self.timed(timeout) { () throws(WebSocketError) in
                try self.readEvent(deadline: .now + timeout, waitingFor: "message")
            }
        }
    }

    /// Starts the close handshake with `code` and `reason` (nil code: an empty close frame) unless it was started,
    /// then reads until the server's close frame, which it returns (nil when the server had closed already).
    /// Messages that arrive meanwhile are dropped, as section 7.1.2 allows.
    public func close(
        code: UInt16? = 1000, reason: String = "", timeout: Duration = .seconds(5)
    )
        async throws(WebSocketError) -> WebSocketEvent?
    {
        try await run { () throws(WebSocketError) in
            try Self.timed(timeout) { () throws(WebSocketError) in
                let deadline = ContinuousClock.now + timeout
                if !self.closeSent, !self.closeReceived {
                    try self.write(
                        WebSocketFrame(
                            opcode: .close, payload: WebSocketFrame.closePayload(code: code, reason: reason)),
                        deadline: deadline)
                }
                guard !self.closeReceived else {
                    self.shutdown()
                    return nil
                }
                while true {
                    let event = try self.readEvent(deadline: deadline, waitingFor: "close frame")
                    if case .close = event { return event }
                }
            }
        }
    }

    /// Closes the connection at once, without a close handshake. Idempotent.
    public func abort() {
        queue.sync { shutdown() }
    }

    // MARK: - Running on the queue

    /// Runs `work` on the connection's queue; the calling task's cancellation stops its waits.
    private func run<Value: Sendable>(
        _ work: @escaping @Sendable () throws(WebSocketError) -> Value
    )
        async throws(WebSocketError) -> Value
    {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, WebSocketError>, Never>) in
                queue.async {
                    do throws(WebSocketError) {
                        continuation.resume(returning: .success(try work()))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    /// Runs `work`, its timeout error naming `timeout` (the time the action allowed) rather than the last wait's.
    private static func timed<Value>(
        _ timeout: Duration, _ work: () throws(WebSocketError) -> Value
    )
        throws(WebSocketError) -> Value
    {
        do throws(WebSocketError) {
            return try work()
        } catch {
            guard case .timedOut(_, let waitingFor) = error.kind else { throw error }
            throw WebSocketError(.timedOut(after: timeout, waitingFor: waitingFor))
        }
    }

    /// Whether the calling task was cancelled.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    // MARK: - Frames

    /// Masks and sends `frame`, and records it.
    private func write(_ frame: WebSocketFrame, deadline: ContinuousClock.Instant) throws(WebSocketError) {
        guard easy != nil, !closeSent || frame.opcode == .pong else { throw WebSocketError(.alreadyClosed) }
        if frame.opcode == .close { closeSent = true }
        record(frame, .sent)
        try sendBytes(frame.encoded(maskingKey: WebSocketFrame.randomMaskingKey()), deadline: deadline)
    }

    /// Reads the next event: answers a ping with a pong and the server's close with a close (echoing its code);
    /// a protocol violation sends the close code it calls for and ends the connection.
    private func readEvent(
        deadline: ContinuousClock.Instant, waitingFor: String
    ) throws(WebSocketError)
        -> WebSocketEvent
    {
        guard easy != nil, !closeReceived else { throw WebSocketError(.alreadyClosed) }
        while true {
            let event: WebSocketEvent?
            do throws(WebSocketError) {
                event = try reader.nextEvent { self.record($0, .received) }
            } catch {
                fail(error)
                throw error
            }
            if let event {
                switch event {
                case .ping(let payload):
                    if !closeSent { try write(WebSocketFrame(opcode: .pong, payload: payload), deadline: deadline) }
                case .close(let code, _):
                    closeReceived = true
                    if !closeSent {
                        // Echo the code (section 5.5.1); best effort, the server may have gone.
                        try? write(
                            WebSocketFrame(
                                opcode: .close, payload: WebSocketFrame.closePayload(code: code, reason: "")),
                            deadline: deadline)
                    }
                    // Both close frames are out: the TCP connection may go (section 7.1.1).
                    shutdown()
                case .message, .pong: break
                }
                return event
            }
            let bytes: [UInt8]
            do throws(WebSocketError) {
                bytes = try receiveBytes(deadline: deadline, waitingFor: waitingFor)
            } catch {
                if case .connectionClosed = error.kind { shutdown() }
                throw error
            }
            reader.append(bytes)
        }
    }

    /// Ends the connection after `error`: sends the close code it calls for (best effort), then closes.
    private func fail(_ error: WebSocketError) {
        if let code = error.closeCode, !closeSent {
            try? write(
                WebSocketFrame(opcode: .close, payload: WebSocketFrame.closePayload(code: code, reason: "")),
                deadline: .now + .seconds(1))
        }
        shutdown()
    }

    /// Records a frame for the transcript, keeping the latest `transcriptLimit`.
    private func record(_ frame: WebSocketFrame, _ direction: FrameRecord.Direction) {
        let kept =
            frame.payload.count > FrameRecord.payloadLimit
            ? Array(frame.payload.prefix(FrameRecord.payloadLimit)) : frame.payload
        let entry = FrameRecord(
            direction: direction, opcode: frame.opcode, fin: frame.fin, payload: kept, length: frame.payload.count)
        let limit = options.transcriptLimit
        records.withLock { records in
            records.append(entry)
            if records.count > limit { records.removeFirst(records.count - limit) }
        }
    }

    /// Bytes already read past the handshake's answer: the first frames.
    func takeEarlyFrames(_ bytes: ArraySlice<UInt8>) {
        reader.append(bytes)
    }

    /// Frees the handle (which closes the socket). Idempotent; on the queue.
    func shutdown() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        socket = -1
        resources = CurlResources()
    }
}
