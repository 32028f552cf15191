import APITestAuth
import APITestChecks
import APITestHTTP
import APITestResults
import APITestSuite
import APITestSupport
import Foundation

/// The second stage of a step's attempt: the prepared request through the transport, sent once more with a renewed
/// token when the server refuses the one it had, or not sent at all to a host found unreachable earlier in the run.
struct StepSending {
    let executor: TestExecutor
    let step: Step
    let index: Int
    let testName: String
    let runtime: SuiteRuntime
    /// Whether the step retries: it then rides out an unreachable host, so it neither skips for one nor marks one.
    let retrying: Bool

    /// What the stage produced; the request as it was last sent (its token, its masker) is left in the caller's
    /// `Prepared`, which the stage updates in place rather than copying it into each case (a request, a masker and
    /// a context copied and destroyed at every step).
    enum Outcome {
        /// The response.
        case received(HTTPResponse)
        /// No response (a transfer failure, an unreachable host, a token that could not be renewed, an
        /// interruption): the attempt ends with this draft.
        case ended(StepDraft, TestStatus)
    }

    /// Sends `sent`'s request; a renewed token and its masker, and the request's number, go into `sent`.
    ///
    /// The paths most steps never take (an unreachable host, upload progress, a refused token, a failed transfer)
    /// are functions of their own, never inlined: an async function's frame holds the locals of all its paths, and
    /// a task keeps its deepest frames for as long as it lives (each of a load's iterations in flight, each of a
    /// run's workers; bench/README.md, issue 38 item 4).
    func run(_ sent: inout StepPreparation.Prepared) async -> Outcome {
        if !retrying, let mark = executor.reachability?.mark(for: sent.request.url) {
            return unreachable(mark, sent)
        }
        // Upload progress goes through one ordered stream per transfer, off the transfer thread (a reporter blocked
        // on its output must not stall every transfer): the loop keeps only the newest tick the reporter has not
        // taken yet, and every tick is out before the step's result.
        let progress = executor.events != nil && sent.request.body.streamsFromDisk ? relayProgress(&sent) : nil
        sent.command?.sequence = executor.sequence.next()
        sent.sentAt = Date()
        do {
            let response = try await send(&sent)
            // A server that refused the token as invalid (expired early, revoked) gets the request once more with
            // a renewed one; the second answer is the step's.
            if sent.oauth2 != nil, TestExecutor.rejectsToken(response) {
                return await resendWithRenewedToken(&sent, progress: progress)
            }
            if let progress { await progress.finish() }
            return .received(response)
        } catch {
            if let progress { await progress.finish() }
            return ended(error, sent)
        }
    }

    /// The outcome of a request not sent because its host was found unreachable earlier in the run.
    @inline(never)
    private func unreachable(_ mark: HostReachability.Mark, _ sent: StepPreparation.Prepared) -> Outcome {
        var draft = StepDraft(
            index: index, location: step.location,
            exchange: ExchangeRecorder.record(
                sent.request, nil, limit: executor.options.bodyPreviewLimit, masker: sent.masker))
        draft.error = TestError(.unreachable(mark), location: step.request.location)
        return .ended(draft, .errored)
    }

    /// The relay of `sent`'s upload progress to the run's events, set on its request.
    @inline(never)
    private func relayProgress(_ sent: inout StepPreparation.Prepared) -> UploadProgressRelay? {
        guard let events = executor.events else { return nil }
        let relay = UploadProgressRelay(
            events: events, suiteName: runtime.suite.name, testName: testName,
            threshold: TestExecutor.progressThreshold)
        sent.request.uploadProgress = relay.record
        return relay
    }

    /// `sent`'s request once more with a renewed token, after the server refused the one it had: the second
    /// answer is the step's; no renewed token ends the step with why.
    @inline(never)
    private func resendWithRenewedToken(
        _ sent: inout StepPreparation.Prepared, progress: UploadProgressRelay?
    ) async -> Outcome {
        guard let use = sent.oauth2 else { preconditionFailure("a token was sent") }
        do {
            switch await executor.renewToken(use, masker: &sent.masker, exchanges: &sent.tokenExchanges) {
            case .success(let renewed):
                sent.oauth2 = renewed
                sent.request.headers.set(name: "Authorization", value: "Bearer \(renewed.token.accessToken)")
                let response = try await executor.transport.perform(sent.request)
                if let progress { await progress.finish() }
                return .received(response)
            case .failure(let error):
                if let progress { await progress.finish() }
                let status: TestStatus = error.kind == .cancelled ? .cancelled : .errored
                return .ended(StepDraft(index: index, location: step.location, error: error), status)
            }
        } catch {
            if let progress { await progress.finish() }
            return ended(error, sent)
        }
    }

    /// The outcome of a transfer that ended without a response with `error`.
    @inline(never)
    private func ended(_ error: any Error, _ sent: StepPreparation.Prepared) -> Outcome {
        let status: TestStatus =
            (error as? HTTPError).map { $0.reason == .cancelled ? .cancelled : .errored } ?? .cancelled
        return .ended(failed(error, sent), status)
    }

    /// The draft of a transfer that ended without a response with `error`: an `HTTPError`, or the run was
    /// interrupted (`CancellationError`). A failure to connect marks the host unreachable, unless the step
    /// retries.
    private func failed(_ error: any Error, _ sent: StepPreparation.Prepared) -> StepDraft {
        let location = step.request.location
        let request = sent.request
        var draft = StepDraft(
            index: index, location: step.location,
            exchange: ExchangeRecorder.record(
                request, nil, limit: executor.options.bodyPreviewLimit, masker: sent.masker))
        draft.exchange?.startedAt = sent.sentAt
        guard let failure = error as? HTTPError else {
            draft.error = TestError(.interrupted, location: location)
            return draft
        }
        if !retrying {
            executor.reachability?.record(failure, url: request.url, suiteName: runtime.suite.name, testName: testName)
        }
        draft.error = TestError(.http(failure), location: location)
        return draft
    }
}
