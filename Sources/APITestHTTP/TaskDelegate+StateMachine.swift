import CCurlShim

extension TaskDelegate {
    /// The lifecycle of this delegate's transfer, holding the caller's continuation.
    typealias StateMachine = TransferStateMachine<TransferContinuation>
}

/// The continuation a transfer's caller waits on. Debug builds (the tests) check that it is resumed exactly once;
/// release builds rely on the state machine for that (its tests prove it) and save the checked continuation's
/// allocation per transfer.
#if DEBUG
    typealias TransferContinuation = CheckedContinuation<HTTPResponse, any Error>
#else
    typealias TransferContinuation = UnsafeContinuation<HTTPResponse, any Error>
#endif

/// Suspends the caller until the transfer's continuation is resumed.
func withTransferContinuation(_ body: (TransferContinuation) -> Void) async throws -> HTTPResponse {
    #if DEBUG
        try await withCheckedThrowingContinuation(body)
    #else
        try await withUnsafeThrowingContinuation(body)
    #endif
}

/// The lifecycle of one transfer: which events may happen in which state, what the loop must do after each, and
/// how the transfer ends. AsyncHTTPClient's `Transaction.StateMachine` is the model.
///
/// ```
/// configuring ──start──▶ running(sendingRequest ⇄ receivingHeaders ⇄ receivingBody) ──curlDone(OK)──▶ finishing
///      │                     │                                                                         │
///      └──fail/rejected──────┴──curlDone(error)/cancel/fail──────────▶ finished(outcome) ◀──responseBuilt─┘
/// ```
///
/// A value that only the loop thread changes, through its `TaskDelegate`; it touches neither libcurl nor the caller.
/// Events are mutating methods: those that may change what happens next return an `Action` for the loop (or a
/// libcurl callback) to perform; those that only record a fact (a status line arrived, the handshake check's
/// verdict) return nothing. The caller's continuation lives in the state until the transfer ends and is handed out
/// once, in a `succeed` or `fail` action: it cannot be resumed twice, and every way out of `running` resumes it.
///
/// Failures the transfer itself causes (a response body past its limit, a body file that cannot be read, a pin
/// mismatch) are recorded as they happen; when libcurl completes the transfer, the recorded failure of highest
/// precedence (see `Failure`) decides the error, and libcurl's code (`CurlErrorMapper`) only when none was recorded.
///
/// An event that cannot happen in the current state (a body before the transfer started) traps in debug builds;
/// release builds ignore it, stop libcurl from a callback, and never leave the caller waiting. Events that race
/// the end of a transfer (a cancellation or a shutdown after it finished, a second completion) are no-ops once it
/// has finished, and the outcome stays the first one.
struct TransferStateMachine<Continuation> {
    // MARK: - States

    /// Where the transfer stands.
    enum State {
        /// Created; libcurl's options are being set. Keeps the first option libcurl refused.
        case configuring(Continuation, rejectedOption: RejectedOption?, failures: [Failure])
        /// Handed to libcurl, which connects, sends and receives.
        case running(Continuation, phase: Phase, failures: [Failure])
        /// libcurl completed the transfer without an error; the loop reads the response from the handle.
        case finishing(Continuation)
        /// The caller has been resumed with this outcome.
        case finished(Outcome)
    }

    /// What a running transfer is busy with, as libcurl's callbacks show it; a redirect or an interim response
    /// goes back to `receivingHeaders`.
    enum Phase: Equatable {
        /// Connecting and sending the request; no response has started.
        case sendingRequest
        /// A status line arrived: header fields follow.
        case receivingHeaders
        /// Body bytes are arriving.
        case receivingBody
    }

    /// An option libcurl refused while the transfer was configured.
    struct RejectedOption: Equatable {
        /// The option's name, as in libcurl's documentation (`CURLOPT_URL`).
        var name: String
        /// libcurl's result for setting it.
        var code: CURLcode
    }

    /// A failure the transfer caused itself, recorded when it happens. When several were recorded, the one whose
    /// case comes first here decides the error: the order is the precedence of the failures.
    enum Failure: Equatable {
        /// The TLS check stopped the request from going over a connection this policy had not checked.
        case uncheckedConnection
        /// The request body could not be read, or a body file changed size, while it was sent.
        case bodyUnreadable(HTTPError)
        /// The kept response body passed its limit in bytes.
        case bodyTooLarge(limit: Int)
        /// A digest of the streamed response body could not be computed.
        case digestFailed
        /// The security policy refused the server's chain: no pin matched, or the chain is invalid.
        case chainRejected(TLSEvaluation)
        /// Not a failure: the reader of a streamed body stopped the transfer, which succeeds with what arrived.
        case streamStopped

        /// The failure's place in the precedence: lower decides first.
        var precedence: Int {
            switch self {
            case .uncheckedConnection: 0
            case .bodyUnreadable: 1
            case .bodyTooLarge: 2
            case .digestFailed: 3
            case .chainRejected: 4
            case .streamStopped: 5
            }
        }

        /// The error the transfer fails with, carrying libcurl's result code.
        func error(curlCode: Int?) -> HTTPError {
            switch self {
            case .uncheckedConnection:
                return HTTPError(.uncheckedConnection, curlCode: curlCode)
            case .bodyUnreadable(var error):
                error.curlCode = curlCode
                return error
            case .bodyTooLarge(let limit):
                return HTTPError(.bodyTooLarge(limit: limit), curlCode: curlCode)
            case .digestFailed:
                return HTTPError(.digestFailed, curlCode: curlCode)
            case .chainRejected(let evaluation):
                return HTTPError(.chainRejected(evaluation), curlCode: curlCode)
            case .streamStopped:
                // Never decisive (see `decisive`): the transfer succeeds.
                return HTTPError(.digestFailed, curlCode: curlCode)
            }
        }
    }

    /// How a finished transfer ended.
    enum Outcome: Equatable {
        /// The caller got the response.
        case succeeded
        /// The caller got this error.
        case failed(HTTPError)
        /// The calling task was cancelled; the caller got a `CancellationError`.
        case cancelled
    }

    /// What the loop (or the libcurl callback that reported the event) does next.
    enum Action {
        /// Nothing.
        case none
        /// Hand the transfer to libcurl's multi handle.
        case startTransfer
        /// Return libcurl's abort value from the callback: libcurl fails the transfer, then reports it done.
        case abortTransfer
        /// libcurl completed the transfer: read the response from the handle, then report `responseBuilt` (or
        /// `digestFailed` when the body's digests cannot be finished).
        case buildResponse
        /// Detach the transfer from libcurl and resume the caller with the response.
        case succeed(Continuation, HTTPResponse)
        /// Detach the transfer from libcurl (if it was attached) and resume the caller with the error.
        case fail(Continuation, any Error)

        /// Whether a libcurl callback must return its abort value.
        var abortsTransfer: Bool {
            if case .abortTransfer = self { true } else { false }
        }
    }

    /// The current state.
    private(set) var state: State

    /// A transfer being configured, whose caller waits on `continuation`.
    init(continuation: Continuation) {
        state = .configuring(continuation, rejectedOption: nil, failures: [])
    }

    /// The outcome once the transfer has finished, `nil` before.
    var outcome: Outcome? {
        if case .finished(let outcome) = state { outcome } else { nil }
    }

    // MARK: - Configuring

    /// Records the result of setting libcurl's option `name`; the first refusal fails the transfer at `start()`.
    mutating func optionApplied(_ name: String, _ code: CURLcode) {
        guard case .configuring(let continuation, let rejectedOption, let failures) = state else {
            return illegal("an option set after configuring")
        }
        if code != CURLE_OK, rejectedOption == nil {
            state = .configuring(
                continuation, rejectedOption: RejectedOption(name: name, code: code), failures: failures)
        }
    }

    /// The options are set: the transfer starts, unless libcurl refused one of them (then it would run with
    /// another setting than the one asked for, such as no TLS check or another timeout, so it fails unsent).
    mutating func start() -> Action {
        guard case .configuring(let continuation, let rejectedOption, let failures) = state else {
            illegal("start() after configuring")
            return .none
        }
        if let rejectedOption {
            let refused = HTTPError.Detail.optionRefused(
                name: rejectedOption.name, code: Int(rejectedOption.code.rawValue))
            return finish(continuation, failing: HTTPError(refused))
        }
        state = .running(continuation, phase: .sendingRequest, failures: failures)
        return .startTransfer
    }

    // MARK: - Running

    /// A status line arrived: a response starts (an interim one, or the next hop of a redirect).
    mutating func responseStarted() {
        setPhase(.receivingHeaders)
    }

    /// Response body bytes arrived.
    mutating func receivedBody() {
        setPhase(.receivingBody)
    }

    /// The kept response body would pass `limit` bytes: the transfer stops, failing with `.bodyTooLarge`.
    mutating func exceededSize(limit: Int) -> Action {
        guard case .running = state else {
            illegal("a response body outside a running transfer")
            return .abortTransfer
        }
        record(.bodyTooLarge(limit: limit))
        return .abortTransfer
    }

    /// A digest of the response body could not be computed. Before the start (no digest could be created) it
    /// is recorded and the transfer still runs; while the body streams, the transfer stops; while the response is
    /// built (the digests could not be finished), the transfer fails.
    mutating func digestFailed() -> Action {
        switch state {
        case .configuring:
            record(.digestFailed)
            return .none
        case .running:
            record(.digestFailed)
            return .abortTransfer
        case .finishing(let continuation):
            return finish(continuation, failing: Failure.digestFailed.error(curlCode: nil))
        case .finished:
            illegal("a digest failure after the transfer finished")
            return .none
        }
    }

    /// The reader of a streamed body (`ResponseBodyHandling.stream`) stopped the transfer: libcurl aborts it with a
    /// write error, and the transfer succeeds with what arrived unless another failure was recorded.
    mutating func streamStopped() {
        guard case .running = state else { return illegal("a stream stopped outside a running transfer") }
        record(.streamStopped)
    }

    /// The request body stopped with `error` (a file could not be read or changed size); libcurl aborts the
    /// upload, and the transfer fails with `error` unless a failure of higher precedence was recorded.
    mutating func bodyReadFailed(_ error: HTTPError) {
        guard case .running = state else { return illegal("a request body outside a running transfer") }
        record(.bodyUnreadable(error))
    }

    /// The TLS check stopped the request from going over a connection the policy had not checked.
    mutating func stoppedUncheckedConnection() {
        guard case .running = state else { return illegal("a TLS finding outside a running transfer") }
        record(.uncheckedConnection)
    }

    /// What the handshake check found; a verdict of `.pinMismatch` or `.certificateInvalid` is recorded as a
    /// rejection of the chain.
    mutating func tlsEvaluated(_ evaluation: TLSEvaluation) {
        guard case .running = state else { return illegal("a TLS finding outside a running transfer") }
        if evaluation.verdict == .pinMismatch || evaluation.verdict == .certificateInvalid {
            record(.chainRejected(evaluation))
        }
    }

    // MARK: - Ending

    /// libcurl completed the transfer. On success the loop builds the response, unless the request body failed
    /// or a digest did; on failure the recorded failure of highest precedence decides the error, libcurl's code
    /// when none was recorded. A second completion is a no-op.
    mutating func curlDone(_ completion: CurlCompletion) -> Action {
        let continuation: Continuation
        let failures: [Failure]
        switch state {
        case .running(let current, _, let recorded):
            (continuation, failures) = (current, recorded)
        case .configuring(let current, _, let recorded):
            illegal("libcurl completed a transfer that never started")
            (continuation, failures) = (current, recorded)
        case .finishing:
            illegal("libcurl completed a transfer twice")
            return .none
        case .finished:
            return .none
        }
        let curlCode = Int(completion.code.rawValue)
        let stoppedByReader = completion.code == CURLE_WRITE_ERROR && failures.contains(.streamStopped)
        if completion.code == CURLE_OK || (stoppedByReader && Self.decisive(failures) == nil) {
            // A response arrived: only a request body that stopped early overrides it (it then fails the way a
            // failed transfer would); a digest that failed on the way means the response cannot be complete.
            if failures.contains(where: { if case .bodyUnreadable = $0 { true } else { false } }),
                let decisive = Self.decisive(failures)
            {
                return finish(continuation, failing: decisive.error(curlCode: curlCode))
            }
            if failures.contains(.digestFailed) {
                return finish(continuation, failing: Failure.digestFailed.error(curlCode: nil))
            }
            state = .finishing(continuation)
            return .buildResponse
        }
        let error = Self.decisive(failures)?.error(curlCode: curlCode) ?? CurlErrorMapper.error(for: completion)
        return finish(continuation, failing: error)
    }

    /// The loop read the response of a transfer libcurl completed: the caller gets it.
    mutating func responseBuilt(_ response: HTTPResponse) -> Action {
        switch state {
        case .finishing(let continuation):
            state = .finished(.succeeded)
            return .succeed(continuation, response)
        case .configuring(let continuation, _, _), .running(let continuation, _, _):
            illegal("a response before libcurl completed the transfer")
            state = .finished(.succeeded)
            return .succeed(continuation, response)
        case .finished:
            return .none
        }
    }

    /// The calling task was cancelled: the caller gets a `CancellationError` at once. A no-op once finished.
    mutating func cancel() -> Action {
        guard let continuation = pendingContinuation else { return .none }
        state = .finished(.cancelled)
        return .fail(continuation, CancellationError())
    }

    /// The loop ends the transfer with `error` (the request was refused before it started, libcurl refused the
    /// transfer, the session shut down). A no-op once finished.
    mutating func fail(_ error: HTTPError) -> Action {
        guard let continuation = pendingContinuation else { return .none }
        return finish(continuation, failing: error)
    }

    // MARK: - Helpers

    /// The failure that decides the error among those recorded: the first by precedence.
    static func decisive(_ failures: [Failure]) -> Failure? {
        failures.lazy.filter { $0 != .streamStopped }.min { $0.precedence < $1.precedence }
    }

    /// The caller's continuation while the transfer has not finished.
    private var pendingContinuation: Continuation? {
        switch state {
        case .configuring(let continuation, _, _), .running(let continuation, _, _), .finishing(let continuation):
            continuation
        case .finished:
            nil
        }
    }

    private mutating func finish(_ continuation: Continuation, failing error: HTTPError) -> Action {
        state = .finished(.failed(error))
        return .fail(continuation, error)
    }

    /// Records `failure` in a configuring or running transfer; a later failure of the same kind replaces an
    /// earlier one.
    private mutating func record(_ failure: Failure) {
        switch state {
        case .configuring(let continuation, let rejectedOption, var failures):
            failures.removeAll { $0.precedence == failure.precedence }
            failures.append(failure)
            state = .configuring(continuation, rejectedOption: rejectedOption, failures: failures)
        case .running(let continuation, let phase, var failures):
            failures.removeAll { $0.precedence == failure.precedence }
            failures.append(failure)
            state = .running(continuation, phase: phase, failures: failures)
        case .finishing, .finished:
            illegal("a failure recorded after libcurl completed the transfer")
        }
    }

    private mutating func setPhase(_ phase: Phase) {
        guard case .running(let continuation, let current, let failures) = state else {
            return illegal("a response outside a running transfer")
        }
        if current != phase { state = .running(continuation, phase: phase, failures: failures) }
    }

    /// An event the current state does not allow: a bug in the loop. Traps in debug builds; release builds go on
    /// with the safe behaviour of the caller.
    private func illegal(_ event: String, file: StaticString = #file, line: UInt = #line) {
        assertionFailure("TransferStateMachine: \(event) (state: \(Self.name(of: state)))", file: file, line: line)
    }

    /// The state's name, without its continuation.
    static func name(of state: State) -> String {
        switch state {
        case .configuring: "configuring"
        case .running(_, let phase, _): "running(\(phase))"
        case .finishing: "finishing"
        case .finished(let outcome): "finished(\(outcome))"
        }
    }
}
