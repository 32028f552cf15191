import CCurlShim
import Foundation
import Testing

import enum APITestSupport.TransferFailureReason

@testable import APITestHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The transfer lifecycle on its own, without libcurl: every legal path and the action the loop is told to take,
/// events that race the end of a transfer, and the precedence that decides which error a failed transfer reports.
@Suite struct TransferStateMachineTests {
    /// The continuation stand-in: a token whose identity shows which caller an action resumes.
    typealias Machine = TransferStateMachine<Int>

    /// The caller's token in every test.
    static let caller = 7

    /// Actions of the machine under test.
    typealias Action = Machine.Action

    // MARK: - Helpers

    /// A machine whose options were all accepted, started.
    static func running() -> Machine {
        var machine = Machine(continuation: caller)
        machine.optionApplied("CURLOPT_URL", CURLE_OK)
        machine.optionApplied("CURLOPT_TIMEOUT_MS", CURLE_OK)
        let action = machine.start()
        #expect(action.isStartTransfer)
        return machine
    }

    /// A response for `responseBuilt`.
    static func response() -> HTTPResponse {
        HTTPResponse(
            statusCode: 200, httpVersion: "HTTP/1.1", headers: HTTPHeaders(), body: Data("ok".utf8),
            effectiveURL: "http://127.0.0.1/")
    }

    /// A handshake check's finding with `verdict`.
    static func evaluation(_ verdict: TLSEvaluation.Verdict) -> TLSEvaluation {
        TLSEvaluation(
            verdict: verdict, problem: verdict == .certificateInvalid ? .expired : nil,
            configuredPins: ["sha256//AAAA"])
    }

    /// The error of a `fail` action that resumes `caller`; `nil` (and a recorded issue) for any other action.
    static func failure(_ action: Machine.Action, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPError? {
        guard case .fail(let continuation, let error) = action else {
            Issue.record("expected .fail, got \(action)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(continuation == caller, sourceLocation: sourceLocation)
        guard let error = error as? HTTPError else {
            Issue.record("expected an HTTPError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }

    /// The error a running machine with `events` applied ends with when libcurl completes with `completion`.
    static func ending(
        _ completion: CurlCompletion, after events: (inout Machine) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> HTTPError? {
        var machine = running()
        events(&machine)
        let error = failure(machine.curlDone(completion), sourceLocation: sourceLocation)
        if let error { #expect(machine.outcome == .failed(error), sourceLocation: sourceLocation) }
        return error
    }

    // MARK: - Legal paths

    @Test func aSuccessfulTransferGoesThroughEveryPhaseAndResumesTheCallerWithTheResponse() throws {
        var machine = Self.running()
        #expect(machine.phase == .sendingRequest)
        machine.responseStarted()
        #expect(machine.phase == .receivingHeaders)
        machine.receivedBody()
        #expect(machine.phase == .receivingBody)
        // The next hop of a redirect starts over with its headers.
        machine.responseStarted()
        #expect(machine.phase == .receivingHeaders)
        machine.receivedBody()
        machine.tlsEvaluated(Self.evaluation(.trusted))
        #expect(machine.curlDone(CurlCompletion(code: CURLE_OK)).isBuildResponse)
        #expect(Machine.name(of: machine.state) == "finishing")
        #expect(machine.outcome == nil)
        guard case .succeed(let continuation, let response) = machine.responseBuilt(Self.response()) else {
            Issue.record("expected .succeed")
            return
        }
        #expect(continuation == Self.caller)
        #expect(response.statusCode == 200)
        #expect(machine.outcome == .succeeded)
    }

    @Test func aRefusedOptionFailsTheTransferAtStartNamingTheFirstRefusal() throws {
        var machine = Machine(continuation: Self.caller)
        machine.optionApplied("CURLOPT_URL", CURLE_OK)
        machine.optionApplied("CURLOPT_SSL_VERIFYPEER", CURLE_UNKNOWN_OPTION)
        machine.optionApplied("CURLOPT_CAINFO", CURLE_BAD_FUNCTION_ARGUMENT)
        let error = try #require(Self.failure(machine.start()))
        #expect(error.reason == .invalidRequest)
        #expect(error.message.hasPrefix("libcurl refused CURLOPT_SSL_VERIFYPEER: "), "\(error.message)")
        #expect(error.curlCode == Int(CURLE_UNKNOWN_OPTION.rawValue))
        #expect(machine.outcome == .failed(error))
    }

    @Test func aRequestRefusedBeforeItStartsFailsWithTheLoopsError() throws {
        var machine = Machine(continuation: Self.caller)
        let refused = HTTPError(
            .forbiddenCharacter(ForbiddenCharacter(field: .headerValue(name: "X-A"), character: .lineFeed)))
        #expect(try #require(Self.failure(machine.fail(refused))) == refused)
        #expect(machine.outcome == .failed(refused))
    }

    @Test func aFailedTransferReportsLibcurlsMappedError() throws {
        let error = try #require(
            Self.ending(CurlCompletion(code: CURLE_COULDNT_RESOLVE_HOST, detail: "no such host"), after: { _ in }))
        #expect(error.reason == .dnsFailure)
        #expect(error.message == "could not resolve the host: no such host")
        #expect(error.failedToConnect)
        #expect(error.curlCode == Int(CURLE_COULDNT_RESOLVE_HOST.rawValue))
    }

    @Test func cancellingARunningTransferResumesTheCallerWithCancellationError() {
        var machine = Self.running()
        machine.responseStarted()
        guard case .fail(let continuation, let error) = machine.cancel() else {
            Issue.record("expected .fail")
            return
        }
        #expect(continuation == Self.caller)
        #expect(error is CancellationError)
        #expect(machine.outcome == .cancelled)
    }

    @Test func aShutdownFailsARunningTransferWithCancelled() throws {
        var machine = Self.running()
        let shutdown = HTTPError(.shutDownDuringTransfer)
        #expect(try #require(Self.failure(machine.fail(shutdown))) == shutdown)
        #expect(machine.outcome == .failed(shutdown))
    }

    @Test func aBodyPastItsLimitOrAFailedDigestAbortsTheTransferFromTheCallback() {
        var machine = Self.running()
        machine.receivedBody()
        #expect(machine.exceededSize(limit: 10).abortsTransfer)
        var digesting = Self.running()
        #expect(digesting.digestFailed().abortsTransfer)
        #expect(!Action.none.abortsTransfer)
    }

    // MARK: - Exactly once

    @Test func aSecondCompletionIsANoOpAndKeepsTheFirstOutcome() throws {
        var machine = Self.running()
        let first = try #require(Self.failure(machine.curlDone(CurlCompletion(code: CURLE_RECV_ERROR))))
        #expect(machine.curlDone(CurlCompletion(code: CURLE_OK)).isNone)
        #expect(machine.curlDone(CurlCompletion(code: CURLE_OPERATION_TIMEDOUT)).isNone)
        #expect(machine.outcome == .failed(first))
        #expect(first.reason == .connectionReset)
    }

    @Test func everyEndingEventAfterTheEndIsANoOp() throws {
        var succeeded = Self.running()
        _ = succeeded.curlDone(CurlCompletion(code: CURLE_OK))
        guard case .succeed = succeeded.responseBuilt(Self.response()) else {
            Issue.record("expected .succeed")
            return
        }
        #expect(succeeded.cancel().isNone)
        #expect(succeeded.fail(HTTPError(.shutDownDuringTransfer)).isNone)
        #expect(succeeded.curlDone(CurlCompletion(code: CURLE_RECV_ERROR)).isNone)
        #expect(succeeded.responseBuilt(Self.response()).isNone)
        #expect(succeeded.outcome == .succeeded)

        var cancelled = Self.running()
        _ = cancelled.cancel()
        #expect(cancelled.cancel().isNone)
        #expect(cancelled.fail(HTTPError(.shutDownDuringTransfer)).isNone)
        #expect(cancelled.outcome == .cancelled)

        var refused = Machine(continuation: Self.caller)
        let error = try #require(
            Self.failure(refused.fail(HTTPError(.bodyFileUnreadable(path: "/x", problem: .notLoaded)))))
        #expect(refused.cancel().isNone)
        #expect(refused.outcome == .failed(error))
    }

    /// Cancel and timeout race: whichever the loop sees first decides, the other is a no-op.
    @Test func cancelBeforeTimeoutCancelsAndTimeoutBeforeCancelTimesOut() throws {
        var cancelledFirst = Self.running()
        guard case .fail(_, let error) = cancelledFirst.cancel() else {
            Issue.record("expected .fail")
            return
        }
        #expect(error is CancellationError)
        #expect(cancelledFirst.curlDone(CurlCompletion(code: CURLE_OPERATION_TIMEDOUT)).isNone)
        #expect(cancelledFirst.outcome == .cancelled)

        var timedOutFirst = Self.running()
        let timeout = try #require(
            Self.failure(timedOutFirst.curlDone(CurlCompletion(code: CURLE_OPERATION_TIMEDOUT, connectTime: 1500))))
        #expect(timeout.reason == .timedOut)
        #expect(!timeout.failedToConnect)
        #expect(timedOutFirst.cancel().isNone)
        #expect(timedOutFirst.outcome == .failed(timeout))
    }

    // MARK: - Precedence (kept from the flag-based CurlErrorMapper)

    @Test func aBodyPastItsLimitBeatsTheWriteErrorItCauses() throws {
        let error = try #require(
            Self.ending(CurlCompletion(code: CURLE_WRITE_ERROR)) { machine in
                machine.receivedBody()
                _ = machine.exceededSize(limit: 1024)
            })
        #expect(error.reason == .bodyTooLarge)
        #expect(error.message == "the response body is larger than the limit of 1024 bytes")
        #expect(error.bodyLimit == 1024)
        #expect(error.curlCode == Int(CURLE_WRITE_ERROR.rawValue))
        // Without the recorded limit, the write error is libcurl's.
        let plain = try #require(Self.ending(CurlCompletion(code: CURLE_WRITE_ERROR)) { _ in })
        #expect(plain.reason == .other)
        #expect(plain.bodyLimit == nil)
    }

    @Test func thePolicysRefusalBeatsTheSSLErrorItCauses() throws {
        let mismatch = Self.evaluation(.pinMismatch)
        let pinned = try #require(
            Self.ending(CurlCompletion(code: CURLE_SSL_CONNECT_ERROR, detail: "handshake aborted")) {
                $0.tlsEvaluated(mismatch)
            })
        #expect(pinned.reason == .pinMismatch)
        #expect(pinned.message == "TLS failure: " + mismatch.failureMessage)
        #expect(pinned.tlsEvaluation == mismatch)
        #expect(pinned.curlCode == Int(CURLE_SSL_CONNECT_ERROR.rawValue))

        let invalid = Self.evaluation(.certificateInvalid)
        let refused = try #require(
            Self.ending(CurlCompletion(code: CURLE_PEER_FAILED_VERIFICATION)) { $0.tlsEvaluated(invalid) })
        #expect(refused.reason == .tlsFailure)
        #expect(refused.message == "TLS failure: " + invalid.failureMessage)
        #expect(refused.tlsEvaluation == invalid)

        // A trusted chain is no refusal: the SSL error is libcurl's, in its words.
        let plain = try #require(
            Self.ending(CurlCompletion(code: CURLE_SSL_CONNECT_ERROR, detail: "handshake aborted")) {
                $0.tlsEvaluated(Self.evaluation(.trusted))
            })
        #expect(plain.reason == .tlsFailure)
        #expect(plain.message == "TLS failure: handshake aborted")
        #expect(plain.tlsEvaluation == nil)
    }

    @Test func anUncheckedConnectionBeatsEveryOtherFailure() throws {
        let error = try #require(
            Self.ending(CurlCompletion(code: CURLE_SSL_CONNECT_ERROR)) { machine in
                machine.bodyReadFailed(HTTPError(.bodyFileUnreadable(path: "/x", problem: .openFailed(errno: EACCES))))
                _ = machine.exceededSize(limit: 1)
                _ = machine.digestFailed()
                machine.tlsEvaluated(Self.evaluation(.pinMismatch))
                machine.stoppedUncheckedConnection()
            })
        #expect(error.reason == .tlsFailure)
        #expect(
            error.message
                == "TLS failure: the request was not sent: the connection was not checked under this security policy")
        #expect(error.tlsEvaluation == nil)
    }

    @Test func theRecordedFailuresDecideInTheirOrderOfPrecedence() throws {
        let unreadable = HTTPError(.bodyFileShrank(path: "/x", announced: 10, read: 4))
        // Recorded in reverse order of precedence: the order of arrival does not matter.
        let body = try #require(
            Self.ending(CurlCompletion(code: CURLE_ABORTED_BY_CALLBACK)) { machine in
                machine.tlsEvaluated(Self.evaluation(.pinMismatch))
                _ = machine.digestFailed()
                _ = machine.exceededSize(limit: 1)
                machine.bodyReadFailed(unreadable)
            })
        #expect(body.reason == .bodyFileChanged)
        #expect(body.message == unreadable.message)
        #expect(body.curlCode == Int(CURLE_ABORTED_BY_CALLBACK.rawValue))

        let size = try #require(
            Self.ending(CurlCompletion(code: CURLE_WRITE_ERROR)) { machine in
                machine.tlsEvaluated(Self.evaluation(.pinMismatch))
                _ = machine.digestFailed()
                _ = machine.exceededSize(limit: 5)
            })
        #expect(size.reason == .bodyTooLarge)

        let digest = try #require(
            Self.ending(CurlCompletion(code: CURLE_WRITE_ERROR)) { machine in
                machine.tlsEvaluated(Self.evaluation(.pinMismatch))
                _ = machine.digestFailed()
            })
        #expect(digest.reason == .other)
        #expect(digest.message == "OpenSSL could not compute the response body's digest")
        #expect(digest.curlCode == Int(CURLE_WRITE_ERROR.rawValue))
    }

    @Test func aLaterFailureOfTheSameKindReplacesTheEarlierOne() throws {
        let error = try #require(
            Self.ending(CurlCompletion(code: CURLE_ABORTED_BY_CALLBACK)) { machine in
                machine.bodyReadFailed(HTTPError(.bodyFileUnreadable(path: "/x", problem: .readFailed(errno: EIO))))
                machine.bodyReadFailed(HTTPError(.bodyFileChangedSize(path: "/x", announced: 10, now: 12)))
            })
        #expect(error.reason == .bodyFileChanged)
        #expect(error.detail == .bodyFileChangedSize(path: "/x", announced: 10, now: 12))
    }

    // MARK: - libcurl reports success

    @Test func aRequestBodyThatStoppedOverridesLibcurlsSuccess() throws {
        let unreadable = HTTPError(.bodyFileUnreadable(path: "/x", problem: .readFailed(errno: EIO)))
        let error = try #require(Self.ending(CurlCompletion(code: CURLE_OK)) { $0.bodyReadFailed(unreadable) })
        #expect(error.message == unreadable.message)
        #expect(error.curlCode == 0)
        // ... unless the connection was not checked, which comes first.
        let unchecked = try #require(
            Self.ending(CurlCompletion(code: CURLE_OK)) { machine in
                machine.bodyReadFailed(unreadable)
                machine.stoppedUncheckedConnection()
            })
        #expect(unchecked.reason == .tlsFailure)
        #expect(unchecked.curlCode == 0)
    }

    @Test func otherRecordedFailuresDoNotOverrideLibcurlsSuccess() {
        var machine = Self.running()
        _ = machine.exceededSize(limit: 1)
        machine.tlsEvaluated(Self.evaluation(.pinMismatch))
        machine.stoppedUncheckedConnection()
        #expect(machine.curlDone(CurlCompletion(code: CURLE_OK)).isBuildResponse)
    }

    @Test func aDigestThatFailedFailsASuccessfulTransferWithoutACurlCode() throws {
        var streaming = Self.running()
        _ = streaming.digestFailed()
        let error = try #require(Self.failure(streaming.curlDone(CurlCompletion(code: CURLE_OK))))
        #expect(error.reason == .other)
        #expect(error.message == "OpenSSL could not compute the response body's digest")
        #expect(error.curlCode == nil)

        // The digests could not be finished while the response was built.
        var finishing = Self.running()
        #expect(finishing.curlDone(CurlCompletion(code: CURLE_OK)).isBuildResponse)
        let late = try #require(Self.failure(finishing.digestFailed()))
        #expect(late == error)
        #expect(finishing.outcome == .failed(error))
    }

    @Test func aDigestThatCouldNotBeCreatedLetsTheTransferRunAndFailsItAtTheEnd() throws {
        var machine = Machine(continuation: Self.caller)
        #expect(machine.digestFailed().isNone)
        #expect(machine.start().isStartTransfer)
        machine.receivedBody()
        let error = try #require(Self.failure(machine.curlDone(CurlCompletion(code: CURLE_OK))))
        #expect(error.reason == .other)
        #expect(error.curlCode == nil)

        var failing = Machine(continuation: Self.caller)
        _ = failing.digestFailed()
        _ = failing.start()
        let failed = try #require(Self.failure(failing.curlDone(CurlCompletion(code: CURLE_RECV_ERROR))))
        #expect(failed.reason == .other)
        #expect(failed.curlCode == Int(CURLE_RECV_ERROR.rawValue))
    }

    // MARK: - libcurl's codes

    @Test func libcurlsCodesMapToReasonsWithTheConnectFacts() {
        let refused = CurlErrorMapper.error(
            for: CurlCompletion(code: CURLE_COULDNT_CONNECT, osErrno: Int(ECONNREFUSED)))
        #expect(refused.reason == .connectionRefused)
        #expect(refused.failedToConnect)
        let unreachable = CurlErrorMapper.error(
            for: CurlCompletion(code: CURLE_COULDNT_CONNECT, osErrno: Int(EHOSTUNREACH)))
        #expect(unreachable.reason == .connectionFailed)
        let connectTimeout = CurlErrorMapper.error(for: CurlCompletion(code: CURLE_OPERATION_TIMEDOUT))
        #expect(connectTimeout.reason == .timedOut)
        #expect(connectTimeout.failedToConnect)
        let empty = CurlErrorMapper.error(for: CurlCompletion(code: CURLE_GOT_NOTHING))
        #expect(empty.reason == .emptyReply)
        // Without libcurl's own message, its description of the code.
        #expect(
            empty.message
                == "the server closed the connection without a response: "
                + String(cString: curl_easy_strerror(CURLE_GOT_NOTHING)))
    }
}

// MARK: - Reading actions

extension TransferStateMachine.Action {
    /// Whether the action is `.none`.
    var isNone: Bool {
        if case .none = self { true } else { false }
    }

    /// Whether the action is `.startTransfer`.
    var isStartTransfer: Bool {
        if case .startTransfer = self { true } else { false }
    }

    /// Whether the action is `.buildResponse`.
    var isBuildResponse: Bool {
        if case .buildResponse = self { true } else { false }
    }
}

extension TransferStateMachine {
    /// The phase of a running transfer, `nil` in any other state.
    var phase: Phase? {
        if case .running(_, let phase, _) = state { phase } else { nil }
    }
}
