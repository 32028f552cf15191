import APITestAuth
import APITestChecks
import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import Foundation

/// The first stage of a step's attempt: the OAuth2 token the request sends (obtained first), the request built
/// from the context, a masker that knows every credential it carries, the response body's plan, and the request
/// as a curl command when the run records every request.
struct StepPreparation {
    let executor: TestExecutor
    let step: Step
    let index: Int
    let runtime: SuiteRuntime
    /// Checked before `expect` when polling: it decides, with `expect`, how much of the body is kept.
    let until: Expectations?
    /// The step's span in a traced run: the request then carries a `traceparent` naming it.
    var spanID: SpanID? = nil

    /// A request ready to send.
    struct Prepared {
        var request: HTTPRequest
        /// The suite's secrets, those the test derived from them, the token's and the request's credentials.
        var masker: SecretMasker
        /// The token the request sends, to renew when the server refuses it.
        var oauth2: TestExecutor.OAuth2Use?
        /// The context the request was built from (captures of this step come after it).
        var context: TemplateContext
        /// The request as a curl command, made before sending when the run records every request.
        var command: ReproduceCommand?
        /// The token requests sent for the request's token (and its renewal), when every exchange is shown.
        var tokenExchanges: [ExchangeDraft] = []
        /// The events of a step with `expect.events`, checked as they arrived (made when the request is sent).
        var eventStream: EventStreamChecker?
        /// When the request was handed to the transport (wall clock), for the exchange's `startedAt`.
        var sentAt: Date?
    }

    /// What the stage produced.
    enum Outcome {
        /// The request, ready to send.
        case ready(Prepared)
        /// The request could not be built, or its token could not be had: the attempt ends with this draft.
        case ended(StepDraft, TestStatus, sealer: SecretMasker)
    }

    /// Prepares the request from `context`.
    ///
    /// A request without OAuth2 is prepared without a suspension point, by synchronous functions never inlined, so
    /// that this async function's frame stays small: a task keeps its deepest frames for as long as it lives (each
    /// of a load's iterations in flight, each of a run's workers; bench/README.md, issue 38 item 4).
    func run(context: TemplateContext) async -> Outcome {
        // Read once: each `step.request` passed on was a copy of it.
        let spec = step.request
        // Only a request with OAuth2 awaits a token: the call alone costs a suspension point a request.
        if let setting = RequestBuilder.oauth2(of: spec, defaults: runtime.suite.defaults) {
            return await runWithToken(setting, spec, context: context)
        }
        return prepare(
            spec, context: context, masker: runtime.masker.adding(context.derivedSecretTexts), oauth2: nil,
            tokenExchanges: [])
    }

    /// Prepares the request of a step with OAuth2: its token first.
    @inline(never)
    private func runWithToken(_ setting: OAuth2Spec, _ spec: RequestSpec, context: TemplateContext) async -> Outcome {
        var masker = runtime.masker.adding(context.derivedSecretTexts)
        var tokenExchanges: [ExchangeDraft] = []
        let oauth2: TestExecutor.OAuth2Use
        do {
            oauth2 = try await executor.obtainToken(
                setting, for: spec, runtime: runtime, context: context, masker: &masker,
                exchanges: &tokenExchanges)
        } catch {
            return ended(error, masker: masker, tokenExchanges: tokenExchanges)
        }
        return prepare(spec, context: context, masker: masker, oauth2: oauth2, tokenExchanges: tokenExchanges)
    }

    /// The request built from `context` (with the token of `oauth2`), its masker, body plan and command.
    @inline(never)
    private func prepare(
        _ spec: RequestSpec, context: TemplateContext, masker: SecretMasker, oauth2: TestExecutor.OAuth2Use?,
        tokenExchanges: [ExchangeDraft]
    ) -> Outcome {
        var masker = masker
        var request: HTTPRequest
        do {
            request = try executor.builder.build(
                spec, runtime: runtime, context: context, accessToken: oauth2?.token.accessToken)
        } catch {
            return ended(error, masker: masker, tokenExchanges: tokenExchanges)
        }
        if let spanID, let tracing = executor.options.tracing { Self.addTraceContext(tracing, spanID, to: &request) }
        masker = masker.adding(SecretMasker.credentials(of: request))
        if runtime.usesFunctions {
            masker = masker.adding(TestExecutor.computedSecrets(of: step, runtime: runtime, context))
        }
        let options = executor.options
        request.recordsSentHeaders = options.recordsSentHeaders
        // An archive of the run (--report-har) has an entry per redirect hop.
        request.recordsRedirectHops = options.recordsExchangeArchive
        request.responseBodyHandling = ResponseBodyPlan.handling(
            for: step, until: until,
            previewBytes: ExchangeRecorder.previewBytes(limit: options.bodyPreviewLimit, masker: masker),
            checkedByContract: runtime.checksContract)
        // Made in the return: a `Prepared` kept in a variable (for its command) was copied into the outcome.
        let command =
            options.recordsRequestCommands
            ? executor.reproduce(step, runtime: runtime, context: context, sent: request, masker: masker) : nil
        return .ready(
            Prepared(
                request: request, masker: masker, oauth2: oauth2, context: context, command: command,
                tokenExchanges: tokenExchanges))
    }

    /// The outcome of a request that could not be built, or whose token could not be had.
    @inline(never)
    private func ended(_ error: TestError, masker: SecretMasker, tokenExchanges: [ExchangeDraft]) -> Outcome {
        let status: TestStatus = error.kind == .cancelled ? .cancelled : .errored
        var draft = StepDraft(index: index, location: step.location, error: error)
        draft.tokenExchanges = tokenExchanges
        return .ended(draft, status, sealer: masker)
    }

    /// The curl command of `prepared`'s request (as prepared, or as sent after renewing its token): the one made
    /// before sending when the run records every request, else made now, for a step that did not pass.
    func command(for prepared: Prepared) -> ReproduceCommand? {
        prepared.command
            ?? executor.reproduce(
                step, runtime: runtime, context: prepared.context, sent: prepared.request, masker: prepared.masker)
    }
}
