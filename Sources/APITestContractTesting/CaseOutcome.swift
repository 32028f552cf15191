/// A case sent and what came of it.
package struct CaseOutcome: Sendable {
    /// The case.
    package var fuzzCase: FuzzCase
    /// What was sent.
    package var request: BuiltRequest
    /// Whether the contract holds the request valid (the generator's intent, confirmed by the contract's check).
    package var intent: FuzzCase.Intent
    /// The response, when one came.
    package var response: FuzzResponse?
    /// Why no response came (a refused connection, a time-out), as the HTTP layer says it.
    package var transportError: String?
    /// The checks that failed.
    package var failures: [CheckFailure] = []
    /// Whether the request routes to the case's operation (a path value such as `a/b` may route elsewhere).
    package var routes = true
    /// For a step of a stateful sequence, the outcomes of the sequence's steps before it.
    package var history: [CaseOutcome] = []

    /// An outcome.
    package init(
        fuzzCase: FuzzCase, request: BuiltRequest, intent: FuzzCase.Intent, response: FuzzResponse?,
        transportError: String?
    ) {
        self.fuzzCase = fuzzCase
        self.request = request
        self.intent = intent
        self.response = response
        self.transportError = transportError
    }
}
