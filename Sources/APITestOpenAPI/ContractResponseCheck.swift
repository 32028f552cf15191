/// The outcome of checking one response against its operation.
package struct ContractResponseCheck: Sendable, Hashable {
    /// The entry of `responses` used: `200`, `2XX` or `default`; nil when none applies (or the operation declares
    /// no responses).
    package var responseKey: String?
    /// Every mismatch found; empty when the response keeps the contract.
    package var violations: [ContractViolation]

    /// Creates a check's outcome.
    package init(responseKey: String?, violations: [ContractViolation]) {
        self.responseKey = responseKey
        self.violations = violations
    }
}
