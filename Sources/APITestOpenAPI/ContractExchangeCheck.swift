/// The outcome of checking one exchange (a request and its response) against a contract: what the request matched,
/// and, for an operation, the response entry used and the violations of each side.
package struct ContractExchangeCheck: Sendable, Hashable {
    /// The operation the request is for, or why there is none.
    package var match: OpenAPIMatch
    /// The response's check; nil unless `match` is an operation.
    package var response: ContractResponseCheck?
    /// The request's violations; empty unless `match` is an operation.
    package var requestViolations: [ContractViolation]

    /// Creates an outcome.
    package init(match: OpenAPIMatch, response: ContractResponseCheck?, requestViolations: [ContractViolation]) {
        self.match = match
        self.response = response
        self.requestViolations = requestViolations
    }
}
