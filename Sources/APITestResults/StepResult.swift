package import APITestSupport

/// The outcome of one step: its request, the response facts, and its failed assertions.
package struct StepResult: Sendable, Hashable, Codable {
    package var index: Int
    package var location: SourceLocation
    /// What was sent and received; `nil` when the request could not be built.
    package var exchange: Exchange?
    package var failures: [AssertionFailure]
    /// What is wrong but does not fail the step: requests that break the OpenAPI contract or match no operation of
    /// it (unless the contract is `strict`).
    package var warnings: [AssertionFailure] = []
    /// Every assertion the step checked, passed or not, in the order they were checked.
    package var checks: [AssertionCheck]
    package var error: TestError?
    /// Names of the values this step captured.
    package var captured: [String]
    /// How many times the request was sent (more than 1 when the step has `retry`); the result is the last one's.
    package var attempts: Int
    /// The last request sent (or about to be sent) as a curl command: set for a step that failed or errored once
    /// its request was built, and for every step when the run records every request (`--curl`).
    package var reproduce: ReproduceCommand?
    /// The requests of the attempts before the last one, as curl commands, when the run records every request.
    package var earlierAttempts: [ReproduceCommand] = []
    /// What reports call the step: its `name`, and for an iteration of a step's `forEach` which one
    /// (`delete pet › 3/17 (id=42)`); nil for `step N`.
    package var label: String?
    /// Why the step was not sent (`when: false ({{ count }} > 0)`, `forEach: no items`); nil when it ran.
    package var skipped: String?

    package init(
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

// MARK: - Names

extension StepResult {
    /// What reports call the step: its label, else `step N`.
    package var displayName: String { label ?? "step \(index + 1)" }
}
