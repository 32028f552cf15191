import APITestAuth
import APITestChecks
import APITestHTTP
import APITestJSON
import APITestOpenAPI
import APITestResults
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation

/// Runs the steps of one test in order, sharing captures between them, and produces its result.
///
/// A final class, not a struct: every stage of a step's attempt (``StepAttempt``, ``StepPreparation``,
/// ``StepSending``, ``StepChecking``) holds the executor, and a struct of a dozen services was copied into each
/// (some 970 instructions a test); a reference costs one retain. All its properties are constants.
final class TestExecutor: Sendable {
    let transport: any HTTPTransport
    let options: RunOptions
    let builder: RequestBuilder
    let checker = ResponseChecker()
    /// Receives upload progress for large request bodies.
    let events: EventSink?
    /// Hosts found unreachable during the run; steps to them error at once (`nil`: always send).
    let reachability: HostReachability?
    /// Bounds the memory of the bodies being checked at once, across every test of the run.
    let decodeBudget: DecodeBudget
    /// What the run's reporter reads of a passing step (a step that does not pass is always recorded whole).
    let resultDetail: ResultDetail
    /// Holds responses to their suite's OpenAPI contract and counts coverage.
    let contracts: ContractChecker
    /// Writes requests as curl commands (`StepResult.reproduce`).
    let reproducer: ReproduceBuilder
    /// Numbers the requests in the order they are sent, across the run (for `--curl`).
    let sequence: RequestSequence
    /// The run's OAuth2 access tokens, one per grant, shared by every suite.
    let tokens = OAuth2TokenStore()
    /// The schemas of the gRPC servers read through reflection, once per server in the run.
    let grpcSchemas = GRPCReflectedSchemas()
    /// What tests are timed by and retries wait on.
    let clock: any RunClock
    /// Counts the run's gRPC calls by method and status; `nil` when no suite has a `grpc:` step.
    let grpcCoverage: GRPCCoverageRecorder?

    /// Bodies at least this large report their upload progress.
    static let progressThreshold: Int64 = 4 * 1024 * 1024

    init(
        transport: any HTTPTransport, options: RunOptions, events: EventSink? = nil,
        reachability: HostReachability? = nil, resultDetail: ResultDetail = .everyStep,
        contracts: ContractChecker = ContractChecker(coverage: ContractCoverageRecorder()),
        clock: any RunClock = SystemClock(), grpcCoverage: GRPCCoverageRecorder? = nil
    ) {
        self.clock = clock
        self.grpcCoverage = grpcCoverage
        self.resultDetail = resultDetail
        self.contracts = contracts
        self.transport = transport
        self.options = options
        self.builder = RequestBuilder(maxResponseSize: options.maxResponseSize, transportOverrides: options.transport)
        self.reproducer = ReproduceBuilder(options: options)
        self.sequence = RequestSequence()
        self.events = events
        self.reachability = reachability
        self.decodeBudget = DecodeBudget(capacity: options.decodeMemoryBudget)
    }

    /// Runs `test` with what its suite's setup left; its result's steps are sealed by the masker of each.
    func run(_ test: TestCase, in runtime: SuiteRuntime, setup: SetupOutcome = .none) async -> TestResult {
        let start = clock.now
        // Worked out in a synchronous function of its own: its sealed results' temporaries would otherwise be
        // slots of this async frame, which the test's task keeps (see `run(_:index:testName:runtime:context:)`).
        var (result, starting) = Self.starting(test, in: runtime, setup: setup)
        guard var context = starting else { return result }
        // The test's own cookies: a copy of those setup left, which no other test sees.
        let testRuntime = runtime.withOwnCookieJar()
        defer { transport.close(testRuntime.cookieJar) }
        let outcome = await run(test.steps, testName: test.name, runtime: testRuntime, context: &context)
        result.steps = outcome.steps
        result.status = outcome.status
        if outcome.status == .cancelled { result.reason = "interrupted" }
        result.duration = clock.now - start
        return result
    }

    /// The start of `test`'s run: its result so far, and the context its steps start from, or `nil` when the test
    /// ends before its first step (skipped, its setup failed or was interrupted, or its `when` false or in error).
    @inline(never)
    static func starting(
        _ test: TestCase, in runtime: SuiteRuntime, setup: SetupOutcome
    ) -> (TestResult, TemplateContext?) {
        var result = TestResult(
            suiteName: runtime.suite.name, suiteFile: runtime.suite.file, name: test.name, location: test.location,
            status: .passed, duration: .zero, steps: [])
        if let reason = test.skip {
            result.status = .skipped
            result.reason = reason
            return (result, nil)
        }
        if let setupError = runtime.setupError {
            result.status = .errored
            result.steps = [StepDraft(index: 0, location: test.location, error: setupError).sealed(by: runtime.masker)]
            return (result, nil)
        }
        var context: TemplateContext
        switch setup {
        case .none: context = runtime.context
        case .passed(let captured): context = captured
        case .cancelled(let error):
            result.status = .cancelled
            result.reason = "interrupted"
            result.steps = [StepDraft(index: 0, location: test.location, error: error).sealed(by: runtime.masker)]
            return (result, nil)
        case .failed(let error):
            result.status = .errored
            result.reason = "not run: setup failed"
            result.steps = [StepDraft(index: 0, location: test.location, error: error).sealed(by: runtime.masker)]
            return (result, nil)
        }
        if runtime.usesBuiltins { context.setBuiltins() }
        for binding in test.bindings { context.set(binding.name, binding.value, secret: false) }
        if let when = test.when {
            do {
                if try !when.expression.holds(context, source: when.source, location: when.location) {
                    result.status = .skipped
                    result.reason = "when: false (\(when.source))"
                    return (result, nil)
                }
            } catch {
                result.status = .errored
                let failure = TestError(.template(error), location: when.location)
                result.steps = [StepDraft(index: 0, location: when.location, error: failure).sealed(by: runtime.masker)]
                return (result, nil)
            }
        }
        return (result, context)
    }

    /// Runs steps in order until one does not pass; captures accumulate in `context`.
    ///
    /// With `runsEveryStep` (a teardown, which should clean up all it can), a step that fails or errors does not
    /// stop the others; the result is then the first status that is not `passed`. An interruption always stops.
    func run(
        _ steps: [Step], testName: String, runtime: SuiteRuntime, context: inout TemplateContext,
        runsEveryStep: Bool = false
    ) async -> (steps: [StepResult], status: TestStatus) {
        var results: [StepResult] = []
        var overall = TestStatus.passed
        var index = 0
        while index < steps.count {
            let step = steps[index]
            let stepResults: [StepResult]
            let status: TestStatus
            if let group = step.control?.group {
                let members = Array(steps[index..<min(steps.count, index + group.count)])
                (stepResults, status) = await runGroup(
                    group, members, firstIndex: index, testName: testName, runtime: runtime, context: &context)
                index += members.count
            } else {
                (stepResults, status) = await runControlled(
                    step, index: index, testName: testName, runtime: runtime, context: &context)
                index += 1
            }
            results += stepResults
            guard status != .passed else { continue }
            if !runsEveryStep || status == .cancelled { return (results, status) }
            if overall == .passed { overall = status }
        }
        return (results, overall)
    }

    /// Runs a step, again and again when it has a retry, until it holds or its attempts are spent, waiting on the
    /// executor's clock between attempts: the sealing point of every step sent (the last attempt's draft, sealed
    /// by the masker of every secret that attempt met).
    ///
    /// A plain step (no WebSocket, subscription or retry) runs here in a small async frame; the others in
    /// ``runWithOptions(_:index:testName:runtime:context:)``. An async function's frame holds the locals of all its
    /// paths, and a task keeps the largest frames it ever had until it ends: a load's iteration task (which waits
    /// for the next arrival) and a run's worker held the retry loop's 28 KiB for every step.
    func run(
        _ step: Step, index: Int, testName: String, runtime: SuiteRuntime, context: inout TemplateContext
    ) async -> (StepResult, TestStatus) {
        // Told apart in place: matching an optional copies nothing out of the step.
        var plain = false
        if case .none = step.websocket, case .none = step.retry, case .none = runtime.suite.defaults.retry {
            plain = !(step.request.isGraphQL && GraphQLSubscriptionRunner.isSubscription(step, context: context))
        }
        guard plain else {
            return await runWithOptions(step, index: index, testName: testName, runtime: runtime, context: &context)
        }
        let span = StepSpan(options.tracing)
        let outcome = await StepAttempt(
            executor: self, step: step, index: index, testName: testName, runtime: runtime, until: nil,
            retrying: false, spanID: span.id
        ).run(context: context)
        context = outcome.context
        return (Self.sealed(outcome, span: span), outcome.status)
    }

    /// A plain step's result: `outcome`'s draft traced by `span` and sealed by its sealer, in a synchronous function
    /// of its own (the sealing's temporaries would otherwise be slots of the caller's async frame).
    @inline(never)
    static func sealed(_ outcome: StepAttempt.Outcome, span: StepSpan) -> StepResult {
        span.sealed(outcome.draft, by: outcome.sealer)
    }

    /// ``run(_:index:testName:runtime:context:)`` of a WebSocket step, a GraphQL subscription or a step with a
    /// retry, in a frame of its own (never inlined into the plain step's).
    @inline(never)
    func runWithOptions(
        _ step: Step, index: Int, testName: String, runtime: SuiteRuntime, context: inout TemplateContext
    ) async -> (StepResult, TestStatus) {
        if let spec = step.websocket {
            return await runWebSocket(step, spec: spec, index: index, runtime: runtime, context: &context)
        }
        if step.request.isGraphQL, GraphQLSubscriptionRunner.isSubscription(step, context: context) {
            return await runGraphQLSubscription(step, index: index, runtime: runtime, context: &context)
        }
        // Most steps have no retry: told apart in place (matching an optional copies nothing out of the step).
        var hasRetry = true
        if case .none = step.retry, case .none = runtime.suite.defaults.retry { hasRetry = false }
        // A traced run's step span: its id goes out in every request's `traceparent` (StepPreparation).
        let span = StepSpan(options.tracing)
        guard hasRetry, let retry = step.retry ?? runtime.suite.defaults.retry, retry.attempts > 1 || retry.until != nil
        else {
            let outcome = await StepAttempt(
                executor: self, step: step, index: index, testName: testName, runtime: runtime, until: nil,
                retrying: false, spanID: span.id
            ).run(context: context)
            context = outcome.context
            return (span.sealed(outcome.draft, by: outcome.sealer), outcome.status)
        }
        let attempt = StepAttempt(
            executor: self, step: step, index: index, testName: testName, runtime: runtime, until: retry.until,
            retrying: true, spanID: span.id)
        var attempts = 0
        var earlierAttempts: [ReproduceCommand] = []
        var earlierExchanges: [Exchange] = []
        while true {
            attempts += 1
            var outcome = await attempt.run(context: context)
            outcome.draft.attempts = attempts
            if options.recordsRequestCommands {
                outcome.draft.earlierAttempts = earlierAttempts
                if let command = outcome.draft.reproduce { earlierAttempts.append(command) }
            }
            // Each attempt's exchange sealed by its own attempt's masker (for the HAR report).
            outcome.draft.earlierExchanges = earlierExchanges
            if options.recordsExchangeArchive, let exchange = outcome.draft.exchange {
                earlierExchanges.append(exchange.sealed(by: outcome.sealer))
            }
            if let ending = Self.retryEnding(of: &outcome, attempts: attempts, retry: retry) {
                context = outcome.context
                return (span.sealed(outcome.draft, by: outcome.sealer), ending)
            }
            do {
                try await clock.sleep(for: retry.interval)
            } catch {
                outcome.draft.error = TestError(.interrupted, location: step.location)
                return (span.sealed(outcome.draft, by: outcome.sealer), .cancelled)
            }
        }
    }

    /// The status a retried step ends with after `outcome`, its attempt number `attempts`, or nil to try again.
    /// Sending again cannot help once `until` held (the result is then `expect`'s), nor when the request could not
    /// even be built (a template or URL error) or the server failed its pins. A step that ends still failing says
    /// why the polling ended, before the failures (or the error) of its last attempt.
    static func retryEnding(
        of outcome: inout StepAttempt.Outcome, attempts: Int, retry: RetrySpec
    ) -> TestStatus? {
        let status = outcome.status
        let hopeless = outcome.draft.error.map { !$0.isRetryable || outcome.draft.exchange == nil } ?? false
        let done =
            status == .passed || status == .cancelled || attempts >= retry.attempts || outcome.untilHeld || hopeless
        guard done else { return nil }
        if status != .passed, status != .cancelled, !outcome.untilHeld, !hopeless {
            let what = retry.until == nil ? "the step still fails" : "'until' never held"
            outcome.draft.failures.insert(
                AssertionFailure(
                    location: retry.location, subject: "retry",
                    message: "\(what) after \(attempts) attempt\(attempts == 1 ? "" : "s"), "
                        + "\(DurationFormatter.format(retry.interval)) apart"),
                at: 0)
        }
        return status
    }
}
