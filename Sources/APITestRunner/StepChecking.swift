import APITestChecks
import APITestHTTP
import APITestOpenAPI
import APITestResults
import APITestSecrets
import APITestSuite

/// The third stage of a step's attempt: the response against `until` first when polling (an attempt whose `until`
/// does not hold yet fails), then against `expect`, then against the suite's OpenAPI contract; when all held, the
/// captures (``StepCapture``). The body is decoded once for all of them, within the run's decode budget.
struct StepChecking {
    let executor: TestExecutor
    let step: Step
    let runtime: SuiteRuntime
    let until: Expectations?

    /// What the stage produced.
    struct Outcome {
        var failures: [AssertionFailure] = []
        /// The checks made, when the reporter lists them (those that failed are in `failures` too).
        var checks: [AssertionCheck] = []
        /// Requests that break the contract without failing the step.
        var warnings: [AssertionFailure] = []
        /// Whether `until` held: the polling is over.
        var untilHeld = false
        /// The names captured.
        var captured: [String] = []
        /// The context with the captures.
        var context: TemplateContext
    }

    /// Checks `response` to `sent`'s request.
    func run(_ response: HTTPResponse, _ sent: StepPreparation.Prepared) async -> Outcome {
        var body = ResponseBody(
            response, chain: runtime.decoders,
            removesKeysWithNullValues: runtime.suite.responseDecoding.removesKeysWithNullValues)
        // Decoding waits its turn when other tests' large bodies are being checked. JSON is read through a tape,
        // schemas included; only a property list is decoded into a tree of values. Small bodies cost nothing: no
        // trip to the budget's actor.
        let budget = executor.decodeBudget
        let cost = budget.cost(
            ofBody: response.body.count, buildsTree: body.decodesIntoTree)
        if cost > 0 { await budget.reserve(cost) }
        var outcome = Outcome(context: sent.context)
        // The events of an `events` step were checked as they arrived; the checks of the whole stream now. A
        // stream stopped by a time limit before its response started has only those failures to show.
        let stream = sent.eventStream?.finish(context: sent.context)
        if sent.eventStream?.hasBegun != false { check(&body, response, sent, into: &outcome) }
        if let stream { outcome.failures += stream.failures }
        if outcome.failures.isEmpty {
            let captures =
                stream == nil ? step.captures : step.captures.filter { !EventStreamChecker.isEventCapture($0) }
            let capture = StepCapture(checker: executor.checker, captures: captures)
                .run(&body, context: stream?.context ?? sent.context, masker: sent.masker)
            outcome.context = capture.context
            outcome.captured = (stream?.captured ?? []) + capture.captured
            outcome.failures = capture.failures
        }
        body = ResponseBody(response) // drops the decoded forms before the reservation ends
        if cost > 0 { await budget.release(cost) }
        return outcome
    }

    /// `until`, `expect` and the contract on `body`, into `outcome` (filled in place: returning it copied it).
    private func check(
        _ body: inout ResponseBody, _ response: HTTPResponse, _ sent: StepPreparation.Prepared,
        into outcome: inout Outcome
    ) {
        let checker = executor.checker
        // Checks that held are listed only for a reporter that shows them; those that failed are in `failures`.
        let listsChecks = executor.resultDetail == .everyStep
        if let until {
            (outcome.failures, outcome.checks) = checker.check(
                until, stepLocation: step.location, body: &body, context: sent.context, masker: sent.masker,
                requireSuccessStatus: false, listsChecks: listsChecks)
            outcome.untilHeld = outcome.failures.isEmpty
        }
        if outcome.failures.isEmpty {
            // `expect` read once: each `step.expect.…` copied the whole of it out of the step.
            let expect = step.expect
            let expected = checker.check(
                expect, stepLocation: step.location, body: &body, context: sent.context, masker: sent.masker,
                decoding: runtime.suite.responseDecoding, listsChecks: listsChecks)
            // No failure so far (see above); appending to empty lists only copied them.
            if outcome.checks.isEmpty {
                (outcome.failures, outcome.checks) = expected
            } else {
                outcome.failures += expected.failures
                outcome.checks += expected.checks
            }
            if let snapshot = expect.snapshot {
                checkSnapshot(snapshot, response, masker: sent.masker, into: &outcome)
            }
            let graphql = expect.graphql
            if graphql != nil || step.request.isGraphQL {
                outcome.failures += checker.checkGraphQL(
                    graphql, requestLocation: step.request.location, body: &body, context: sent.context,
                    masker: sent.masker)
            }
        }
        // Asked first: binding the optional copied the contract out of the suite for every step.
        if runtime.checksContract, let contract = runtime.suite.contract {
            // The checks' own tape when it holds the body as received; else the bytes, parsed if a schema asks.
            let contractBody: any ContractBody =
                body.tapeAsReceived().map { ContractChecker.ParsedResponse(tape: $0, isEmpty: response.body.isEmpty) }
                ?? ContractChecker.ResponseBytes(data: response.body)
            let held = executor.contracts.check(
                sent.request, response, body: contractBody, against: contract, stepLocation: step.location)
            outcome.failures += held.failures
            outcome.warnings = held.warnings
        }
    }
}
