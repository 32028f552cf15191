package import APITestSupport

/// A step's result as the runner assembles it, before sealing: every text as the step produced it, secrets
/// included. The one way to a ``StepResult`` is ``sealed(by:)`` (`StepDraft+Sealing.swift`), which masks every
/// text and cuts the long ones, so nothing unmasked reaches a report.
package struct StepDraft: Sendable {
    package var index: Int
    package var location: SourceLocation
    /// What was sent and received; `nil` when the request could not be built, or when the reporter reads nothing
    /// of a passing step.
    package var exchange: ExchangeDraft?
    package var failures: [AssertionFailure]
    /// What is wrong but does not fail the step (see ``StepResult/warnings``).
    package var warnings: [AssertionFailure] = []
    package var checks: [AssertionCheck]
    package var error: TestError?
    /// Names of the values this step captured.
    package var captured: [String]
    /// How many times the request was sent.
    package var attempts: Int
    /// The last request as a curl command, as the reproduce writer made it (see ``StepResult/reproduce``).
    package var reproduce: ReproduceCommand?
    /// The requests of the attempts before the last one, when the run records every request.
    package var earlierAttempts: [ReproduceCommand] = []
    /// What reports call the step (see ``StepResult/label``).
    package var label: MessageText?
    /// Why the step was not sent; nil when it ran.
    package var skipped: String?
    /// The OAuth2 token requests the step sent for its token (see ``StepResult/tokenExchanges``).
    package var tokenExchanges: [ExchangeDraft] = []
    /// The step's span in a traced run (see ``StepResult/trace``); nil when the run is not traced.
    package var trace: StepTrace?
    /// The exchanges of the attempts before the last one (a step's `retry`), each sealed by its own attempt's
    /// masker (and masked again by the step's when the step is sealed), when the run records every exchange (see
    /// ``StepResult/earlierExchanges``).
    package var earlierExchanges: [Exchange] = []

    /// A draft of step `index`, written at `location`.
    package init(
        index: Int, location: SourceLocation, exchange: ExchangeDraft? = nil, failures: [AssertionFailure] = [],
        checks: [AssertionCheck] = [], error: TestError? = nil, captured: [String] = [], attempts: Int = 1
    ) {
        self.index = index
        self.location = location
        self.exchange = exchange
        self.failures = failures
        self.checks = checks
        self.error = error
        self.captured = captured
        self.attempts = attempts
    }
}
