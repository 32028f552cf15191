import APITestChecks
import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite

/// One sending of a step's request, through its stages: ``StepPreparation`` → ``StepSending`` → ``StepChecking``
/// (with ``StepCapture``) → the draft of the step's result. Each stage is a value that takes what the one before
/// produced and returns an outcome; the draft leaves unsealed, with the masker that seals it (the retry loop,
/// `TestExecutor.run(_:index:testName:runtime:context:)`, seals the last attempt's).
struct StepAttempt {
    let executor: TestExecutor
    let step: Step
    let index: Int
    let testName: String
    let runtime: SuiteRuntime
    /// Checked before `expect` when polling.
    let until: Expectations?
    /// Whether the step retries (see ``StepSending/retrying``).
    let retrying: Bool
    /// The step's span in a traced run, which its request's `traceparent` names; nil when the run is not traced.
    var spanID: SpanID? = nil

    /// How an attempt ended.
    struct Outcome {
        var draft: StepDraft
        var status: TestStatus
        /// Whether `until` held: the polling is over.
        var untilHeld = false
        /// What seals the draft: the suite's secrets and every credential the attempt met.
        var sealer: SecretMasker
        /// The context with the step's captures.
        var context: TemplateContext
    }

    /// Sends the step's request once from `context` and checks the response.
    ///
    /// A gRPC call and the draft's making are functions of their own (never inlined): an async function's frame
    /// holds the locals of all its paths and of what it inlines, and a task keeps its largest frames until it ends
    /// (a load's iteration task, a run's worker); this one took 19.7 KiB with them.
    func run(context: TemplateContext) async -> Outcome {
        // Asked first without copying the `GRPCSpec?` out of the step (an HTTP step's every attempt did).
        if step.isGRPCCall, let outcome = await runGRPC(context: context) { return outcome }
        let preparation = StepPreparation(
            executor: executor, step: step, index: index, runtime: runtime, until: until, spanID: spanID)
        var sent: StepPreparation.Prepared
        switch await preparation.run(context: context) {
        case .ready(let ready): sent = ready
        case .ended(let draft, let status, let sealer):
            return Outcome(draft: draft, status: status, sealer: sealer, context: context)
        }
        let sending = StepSending(
            executor: executor, step: step, index: index, testName: testName, runtime: runtime, retrying: retrying)
        let response: HTTPResponse
        switch await sending.run(&sent) {
        case .received(let received): response = received
        case .ended(var draft, let status):
            draft.reproduce = preparation.command(for: sent)
            draft.tokenExchanges = sent.tokenExchanges
            return Outcome(draft: draft, status: status, sealer: sent.masker, context: context)
        }
        let checked = await StepChecking(executor: executor, step: step, runtime: runtime, until: until)
            .run(response, sent)
        return outcome(of: checked, response, sent, preparation)
    }

    /// The gRPC call of a `grpc:` step; nil when the step has no `grpc` (then sent as HTTP).
    @inline(never)
    private func runGRPC(context: TemplateContext) async -> Outcome? {
        guard let grpc = step.grpc else { return nil }
        return await GRPCStepRunner(
            executor: executor, step: step, spec: grpc, index: index, runtime: runtime, until: until
        ).run(context: context)
    }

    /// The attempt's outcome from what the checks of `response` to `sent`'s request found.
    @inline(never)
    private func outcome(
        of checked: StepChecking.Outcome, _ response: HTTPResponse, _ sent: StepPreparation.Prepared,
        _ preparation: StepPreparation
    ) -> Outcome {
        let passed = checked.failures.isEmpty
        // A step that did not pass is recorded whole, whatever the reporter reads of passing ones.
        var draft = StepDraft(
            index: index, location: step.location,
            exchange: ExchangeRecorder.record(
                sent.request, response, limit: executor.options.bodyPreviewLimit, masker: sent.masker,
                detail: executor.resultDetail.forStep(passed: passed),
                keepsBinary: executor.options.recordsExchangeArchive))
        draft.exchange?.startedAt = sent.sentAt
        draft.tokenExchanges = sent.tokenExchanges
        if let first = sent.eventStream?.timeToFirstEvent { draft.exchange?.timings?.firstEvent = first }
        if Task.isCancelled {
            // The run is being interrupted: checks stop early then (a regular expression stops matching), so what
            // they found says nothing of the response. The step ends as interrupted, not failed or passed.
            draft.error = TestError(.interrupted, location: step.location)
            draft.reproduce = preparation.command(for: sent)
            return Outcome(draft: draft, status: .cancelled, sealer: sent.masker, context: checked.context)
        }
        draft.failures = checked.failures
        draft.checks = checked.checks
        draft.warnings = checked.warnings
        draft.captured = checked.captured
        draft.reproduce = passed ? sent.command : preparation.command(for: sent)
        return Outcome(
            draft: draft, status: passed ? .passed : .failed, untilHeld: checked.untilHeld, sealer: sent.masker,
            context: checked.context)
    }
}
