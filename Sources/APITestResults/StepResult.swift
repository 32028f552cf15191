package import APITestSupport

/// The outcome of one step: its request, the response facts, and its failed assertions.
///
/// Sealed: outside this module a step's result comes only from ``StepDraft/sealed(by:)``, which masks every text
/// and cuts the long ones, or from a report apitest wrote, decoded from its JSON (``init(reported:)``, `StepResult+Reported.swift`). Its memberwise initializer is
/// internal and its fields read-only outside the module, so unmasked text cannot reach a report through it; what
/// changes after sealing (``relabel(_:sealedBy:)``, ``amendError(sealedBy:_:)``) is sealed again.
package struct StepResult: Sendable, Hashable, Codable {
    package internal(set) var index: Int
    package internal(set) var location: SourceLocation
    /// What was sent and received; `nil` when the request could not be built.
    package internal(set) var exchange: Exchange?
    package internal(set) var failures: [AssertionFailure]
    /// What is wrong but does not fail the step: requests that break the OpenAPI contract or match no operation of
    /// it (unless the contract is `strict`).
    package internal(set) var warnings: [AssertionFailure] = []
    /// Every assertion the step checked, passed or not, in the order they were checked.
    package internal(set) var checks: [AssertionCheck]
    package internal(set) var error: TestError?
    /// Names of the values this step captured.
    package internal(set) var captured: [String]
    /// How many times the request was sent (more than 1 when the step has `retry`); the result is the last one's.
    package internal(set) var attempts: Int
    /// The last request sent (or about to be sent) as a curl command: set for a step that failed or errored once
    /// its request was built, and for every step when the run records every request (`--curl`).
    package internal(set) var reproduce: ReproduceCommand?
    /// The requests of the attempts before the last one, as curl commands, when the run records every request.
    package internal(set) var earlierAttempts: [ReproduceCommand] = []
    /// What reports call the step: its `name`, and for an iteration of a step's `forEach` which one
    /// (`delete pet › 3/17 (id=42)`); nil for `step N`.
    package internal(set) var label: String?
    /// Why the step was not sent (`when: false ({{ count }} > 0)`, `forEach: no items`); nil when it ran.
    package internal(set) var skipped: String?
    /// The OAuth2 token requests this step sent for its token, before its own request, when every exchange is
    /// recorded (`--verbose`); nil when it sent none (its token was already at hand, or another step fetched it).
    package internal(set) var tokenExchanges: [Exchange]?
    /// The step's span in a traced run (`OTEL_EXPORTER_OTLP_ENDPOINT`): the id its requests' `traceparent` named and
    /// when it ran; nil when the run is not traced, or the step was not run. Ids and times only, nothing to mask.
    package internal(set) var trace: StepTrace?
    /// The exchanges of the attempts before the last one when the step has a `retry`, in order, when the run
    /// records every attempt's exchange (the HAR report); nil otherwise. ``exchange`` is the last attempt's.
    package internal(set) var earlierExchanges: [Exchange]?

    /// The memberwise initializer, for the sealing point and the report reader of this module only.
    init(
        index: Int, location: SourceLocation, exchange: Exchange?, failures: [AssertionFailure] = [],
        checks: [AssertionCheck] = [], error: TestError? = nil, captured: [String] = [], attempts: Int = 1
    ) {
        self.attempts = attempts
        self.index = index
        self.location = location
        self.exchange = exchange
        self.failures = failures
        self.checks = checks
        self.error = error
        self.captured = captured
    }
}

extension StepResult {
    /// Every field at once, for the sealing point (``StepDraft/sealed(by:)``): a result made whole, not filled in
    /// after its making.
    init(
        index: Int, location: SourceLocation, exchange: Exchange?, failures: [AssertionFailure],
        warnings: [AssertionFailure], checks: [AssertionCheck], error: TestError?, captured: [String], attempts: Int,
        reproduce: ReproduceCommand?, earlierAttempts: [ReproduceCommand], label: String?, skipped: String?,
        tokenExchanges: [Exchange]?, trace: StepTrace?, earlierExchanges: [Exchange]?
    ) {
        self.index = index
        self.location = location
        self.exchange = exchange
        self.failures = failures
        self.warnings = warnings
        self.checks = checks
        self.error = error
        self.captured = captured
        self.attempts = attempts
        self.reproduce = reproduce
        self.earlierAttempts = earlierAttempts
        self.label = label
        self.skipped = skipped
        self.tokenExchanges = tokenExchanges
        self.trace = trace
        self.earlierExchanges = earlierExchanges
    }
}

// MARK: - Changes after sealing

extension StepResult {
    /// Calls the step `label` (a group's name before its own, say), masked by `sealer`, the values it quotes (a
    /// `forEach` item) masked whole and then cut.
    package mutating func relabel(_ label: MessageText, sealedBy sealer: some SecretSealing) {
        self.label = label.rendered(masking: sealer.mask)
    }

    /// Changes the step's error with `change`, its message masked again by `sealer`; nothing without an error.
    package mutating func amendError(sealedBy sealer: some SecretSealing, _ change: (inout TestError) -> Void) {
        guard var amended = error else { return }
        change(&amended)
        error = amended.sealed(by: sealer)
    }
}

// MARK: - Names

extension StepResult {
    /// What reports call the step: its label, else `step N`.
    package var displayName: String { label ?? "step \(index + 1)" }
}
