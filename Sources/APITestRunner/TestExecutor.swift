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
struct TestExecutor: Sendable {
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

    /// Bodies at least this large report their upload progress.
    static let progressThreshold: Int64 = 4 * 1024 * 1024

    init(
        transport: any HTTPTransport, options: RunOptions, events: EventSink? = nil,
        reachability: HostReachability? = nil, resultDetail: ResultDetail = .everyStep,
        contracts: ContractChecker = ContractChecker(coverage: ContractCoverageRecorder())
    ) {
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

    func run(_ test: TestCase, in runtime: SuiteRuntime, setup: SetupOutcome = .none) async -> TestResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result = TestResult(
            suiteName: runtime.suite.name, suiteFile: runtime.suite.file, name: test.name, location: test.location,
            status: .passed, duration: .zero, steps: [])
        if let reason = test.skip {
            result.status = .skipped
            result.reason = reason
            return result
        }
        if let setupError = runtime.setupError {
            result.status = .errored
            result.steps = [StepResult(index: 0, location: test.location, exchange: nil, error: setupError)]
            return result
        }
        var context: TemplateContext
        switch setup {
        case .none: context = runtime.context
        case .passed(let captured): context = captured
        case .cancelled(let error):
            result.status = .cancelled
            result.reason = "interrupted"
            result.steps = [StepResult(index: 0, location: test.location, exchange: nil, error: error)]
            return result
        case .failed(let error):
            result.status = .errored
            result.reason = "not run: setup failed"
            result.steps = [StepResult(index: 0, location: test.location, exchange: nil, error: error)]
            return result
        }
        if runtime.usesBuiltins { context.setBuiltins() }
        for binding in test.bindings { context.set(binding.name, binding.value, secret: false) }
        if let when = test.when {
            do {
                if try !when.expression.holds(context, source: when.source, location: when.location) {
                    result.status = .skipped
                    result.reason = "when: false (\(when.source))"
                    return result
                }
            } catch {
                result.status = .errored
                let failure = TestError(.template(error), location: when.location, masker: runtime.masker)
                result.steps = [StepResult(index: 0, location: when.location, exchange: nil, error: failure)]
                return result
            }
        }
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

    /// Runs a step, again and again when it has a retry, until it holds or its attempts are spent.
    func run(
        _ step: Step, index: Int, testName: String, runtime: SuiteRuntime, context: inout TemplateContext
    ) async -> (StepResult, TestStatus) {
        // Most steps have no retry: told apart in place (matching an optional copies nothing out of the step).
        var hasRetry = true
        if case .none = step.retry, case .none = runtime.suite.defaults.retry { hasRetry = false }
        guard hasRetry, let retry = step.retry ?? runtime.suite.defaults.retry, retry.attempts > 1 || retry.until != nil
        else {
            let (result, status, _) = await attempt(
                step, index: index, testName: testName, runtime: runtime, context: &context)
            return (result, status)
        }
        var attempts = 0
        var earlierAttempts: [ReproduceCommand] = []
        while true {
            attempts += 1
            var attemptContext = context
            var (result, status, untilHeld) = await attempt(
                step, index: index, testName: testName, runtime: runtime, context: &attemptContext,
                until: retry.until, retrying: true)
            result.attempts = attempts
            if options.recordsRequestCommands {
                result.earlierAttempts = earlierAttempts
                if let command = result.reproduce { earlierAttempts.append(command) }
            }
            // Sending again cannot help once `until` held (the result is then `expect`'s), nor when the request
            // could not even be built (a template or URL error) or the server failed its pins.
            let hopeless =
                result.error.map { !$0.isRetryable || result.exchange == nil } ?? false
            let done =
                status == .passed || status == .cancelled || attempts >= retry.attempts || untilHeld || hopeless
            if done {
                context = attemptContext
                if status != .passed, status != .cancelled, !untilHeld, !hopeless {
                    // Say why the polling ended, before the failures (or the error) of the last attempt.
                    let what = retry.until == nil ? "the step still fails" : "'until' never held"
                    result.failures.insert(
                        AssertionFailure(
                            location: retry.location, subject: "retry",
                            message: "\(what) after \(attempts) attempt\(attempts == 1 ? "" : "s"), "
                                + "\(DurationFormatter.format(retry.interval)) apart"),
                        at: 0)
                }
                return (result, status)
            }
            do {
                try await Task.sleep(for: retry.interval)
            } catch {
                result.error = TestError(.interrupted, location: step.location)
                return (result, .cancelled)
            }
        }
    }

    /// Sends the step's request once and checks the response: against `until` first when polling (a step whose
    /// `until` does not hold yet fails this attempt), then against `expect`. A step that retries rides out an
    /// unreachable host, so it neither skips for one nor marks one.
    private func attempt(
        _ step: Step, index: Int, testName: String, runtime: SuiteRuntime, context: inout TemplateContext,
        until: Expectations? = nil, retrying: Bool = false
    ) async
        -> (StepResult, TestStatus, untilHeld: Bool)
    {
        // The suite's secrets, those this test derived from them (captures), and the request's credentials.
        var masker = runtime.masker.adding(context.derivedSecretTexts)
        var request: HTTPRequest
        // The OAuth2 token the request sends, obtained first (the grant's secrets join the masker).
        var oauth2: OAuth2Use?
        do {
            // Only a request with OAuth2 awaits a token: the call alone costs a suspension point a request.
            if let setting = RequestBuilder.oauth2(of: step.request, defaults: runtime.suite.defaults) {
                oauth2 = try await obtainToken(
                    setting, for: step.request, runtime: runtime, context: context, masker: &masker)
            }
            request = try builder.build(
                step.request, runtime: runtime, context: context, accessToken: oauth2?.token.accessToken)
        } catch {
            let masked = error.masked(by: masker)
            let status: TestStatus = masked.kind == .cancelled ? .cancelled : .errored
            return (StepResult(index: index, location: step.location, exchange: nil, error: masked), status, false)
        }
        masker = masker.adding(SecretMasker.credentials(of: request))
        if runtime.usesFunctions { masker = masker.adding(Self.computedSecrets(of: step, runtime: runtime, context)) }
        // The context the request was built from: captures of this step come after it.
        let requestContext = context
        var command =
            options.recordsRequestCommands
            ? reproduce(step, runtime: runtime, context: requestContext, sent: request, masker: masker) : nil
        /// The command for a step that did not pass (every step's when the run records them all).
        func reproduceCommand() -> ReproduceCommand? {
            command ?? reproduce(step, runtime: runtime, context: requestContext, sent: request, masker: masker)
        }
        request.recordsSentHeaders = options.recordsSentHeaders
        request.responseBodyHandling = ResponseBodyPlan.handling(
            for: step, until: until,
            previewBytes: ExchangeRecorder.previewBytes(limit: options.bodyPreviewLimit, masker: masker),
            checkedByContract: runtime.suite.contract != nil)
        if !retrying, var unreachable = unreachableResult(for: request, step: step, index: index, masker: masker) {
            unreachable.reproduce = reproduceCommand()
            return (unreachable, .errored, false)
        }
        // Upload progress goes through one ordered stream per transfer, off the transfer thread (a reporter blocked
        // on its output must not stall every transfer): the loop keeps only the newest tick the reporter has not
        // taken yet, and every tick is out before the step's result.
        var progress: UploadProgressRelay?
        if let events, request.body.streamsFromDisk {
            let relay = UploadProgressRelay(
                events: events, suiteName: runtime.suite.name, testName: testName, threshold: Self.progressThreshold)
            request.uploadProgress = relay.record
            progress = relay
        }
        var response: HTTPResponse
        command?.sequence = sequence.next()
        do {
            response = try await transport.perform(request)
            // A server that refused the token as invalid (expired early, revoked) gets the request once more with
            // a renewed one; the second answer is the step's.
            if let use = oauth2, Self.rejectsToken(response) {
                switch await renewToken(use, masker: &masker) {
                case .success(let renewed):
                    oauth2 = renewed
                    request.headers.set(name: "Authorization", value: "Bearer \(renewed.token.accessToken)")
                    response = try await transport.perform(request)
                case .failure(let error):
                    await progress?.finish()
                    var result = StepResult(index: index, location: step.location, exchange: nil, error: error)
                    result.reproduce = reproduceCommand()
                    return (result, error.kind == .cancelled ? .cancelled : .errored, false)
                }
            }
            await progress?.finish()
        } catch {
            await progress?.finish()
            // No response: a transfer failure, or the run was interrupted (CancellationError).
            let failure = error as? HTTPError
            if let failure, !retrying {
                reachability?.record(failure, url: request.url, suiteName: runtime.suite.name, testName: testName)
            }
            let status: TestStatus = failure == nil || failure?.reason == .cancelled ? .cancelled : .errored
            let testError =
                failure.map { TestError(.http($0), location: step.request.location, masker: masker) }
                ?? TestError(.interrupted, location: step.request.location)
            let exchange = ExchangeRecorder.record(request, nil, masker: masker, limit: options.bodyPreviewLimit)
            var result = StepResult(index: index, location: step.location, exchange: exchange, error: testError)
            result.reproduce = reproduceCommand()
            return (result, status, false)
        }
        var body = ResponseBody(
            response, chain: runtime.decoders,
            removesKeysWithNullValues: runtime.suite.responseDecoding.removesKeysWithNullValues)
        // Decoding waits its turn when other tests' large bodies are being checked.
        // JSON is read through a tape, schemas included; only a property list is decoded into a tree of values.
        let buildsTree = body.serializer is PropertyListResponseSerializer
        // Small bodies cost nothing: no trip to the budget's actor.
        let decodeCost = decodeBudget.cost(ofBody: response.body.count, buildsTree: buildsTree)
        if decodeCost > 0 { await decodeBudget.reserve(decodeCost) }
        var failures: [AssertionFailure] = []
        var checks: [AssertionCheck] = []
        var untilHeld = false
        // Checks that held are listed only for a reporter that shows them; those that failed are in `failures`.
        let listsChecks = resultDetail == .everyStep
        if let until {
            (failures, checks) = checker.check(
                until, stepLocation: step.location, body: &body, context: context, masker: masker,
                requireSuccessStatus: false, listsChecks: listsChecks)
            untilHeld = failures.isEmpty
        }
        if failures.isEmpty {
            let expected = checker.check(
                step.expect, stepLocation: step.location, body: &body, context: context, masker: masker,
                decoding: runtime.suite.responseDecoding, listsChecks: listsChecks)
            failures += expected.failures
            checks += expected.checks
        }
        var warnings: [AssertionFailure] = []
        if let contract = runtime.suite.contract {
            // The checks' own tape when it holds the body as received; else the bytes, parsed if a schema asks.
            let contractBody: any ContractBody =
                body.tapeAsReceived().map { ContractChecker.ParsedResponse(tape: $0, isEmpty: response.body.isEmpty) }
                ?? ContractChecker.ResponseBytes(data: response.body)
            let held = contracts.check(
                request, response, body: contractBody, against: contract, stepLocation: step.location)
            failures += held.failures
            warnings = held.warnings
        }
        var captured: [String] = []
        if failures.isEmpty {
            let capture = checker.capture(step.captures, body: &body, into: &context, masker: masker)
            captured = capture.captured
            failures += capture.failures
        }
        body = ResponseBody(response) // drops the decoded forms before the reservation ends
        if decodeCost > 0 { await decodeBudget.release(decodeCost) }
        // A step that did not pass is recorded whole, whatever the reporter reads of passing ones.
        let exchange = ExchangeRecorder.record(
            request, response, masker: masker, limit: options.bodyPreviewLimit,
            detail: resultDetail.forStep(passed: failures.isEmpty))
        if Task.isCancelled {
            // The run is being interrupted: checks stop early then (a regular expression stops matching), so what
            // they found says nothing of the response. The step ends as interrupted, not failed or passed.
            var result = StepResult(
                index: index, location: step.location, exchange: exchange,
                error: TestError(.interrupted, location: step.location))
            result.reproduce = reproduceCommand()
            return (result, .cancelled, false)
        }
        failures = failures.map { failure in
            var masked = failure
            masked.message = PredicateEvaluator.truncated(masker.mask(failure.message), limit: 800)
            masked.expected = masker.mask(failure.expected).map { PredicateEvaluator.truncated($0, limit: 1000) }
            masked.actual = masker.mask(failure.actual).map { PredicateEvaluator.truncated($0, limit: 1000) }
            return masked
        }
        checks = checks.map { check in
            var masked = check
            masked.expected = PredicateEvaluator.truncated(masker.mask(check.expected))
            return masked
        }
        var result = StepResult(
            index: index, location: step.location, exchange: exchange, failures: failures, checks: checks,
            captured: captured)
        result.warnings = warnings.map { warning in
            var masked = warning
            masked.message = PredicateEvaluator.truncated(masker.mask(warning.message), limit: 800)
            return masked
        }
        result.reproduce = failures.isEmpty ? command : reproduceCommand()
        return (result, failures.isEmpty ? .passed : .failed, untilHeld)
    }
}
