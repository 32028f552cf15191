import APITestHTTP
import APITestJSON
import APITestResults
import APITestSuite
import APITestSupport
import Foundation

/// Runs the steps of one test in order, sharing captures between them, and produces its result.
struct TestExecutor: Sendable {
    let session: SessionManager
    let options: RunOptions
    let builder: RequestBuilder
    let checker = ResponseChecker()
    /// Receives upload progress for large request bodies.
    let events: EventSink?
    /// Hosts found unreachable during the run; steps to them error at once (`nil`: always send).
    let reachability: HostReachability?

    /// Bodies at least this large report their upload progress.
    static let progressThreshold: Int64 = 4 * 1024 * 1024

    init(
        session: SessionManager, options: RunOptions, events: EventSink? = nil,
        reachability: HostReachability? = nil
    ) {
        self.session = session
        self.options = options
        self.builder = RequestBuilder()
        self.events = events
        self.reachability = reachability
    }

    func run(_ test: TestCase, in runtime: SuiteRuntime) async -> TestResult {
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
        var context = runtime.context
        for (index, step) in test.steps.enumerated() {
            let (stepResult, status) = await run(
                step, index: index, testName: test.name, runtime: runtime, context: &context)
            result.steps.append(stepResult)
            if status != .passed {
                result.status = status
                if status == .cancelled { result.reason = "interrupted" }
                break
            }
        }
        result.duration = clock.now - start
        return result
    }

    private func run(
        _ step: Step, index: Int, testName: String, runtime: SuiteRuntime, context: inout TemplateContext
    ) async
        -> (StepResult, TestStatus)
    {
        let masker = runtime.masker
        var request: HTTPRequest
        do {
            request = try builder.build(step.request, runtime: runtime, context: context)
        } catch {
            var masked = error
            masked.message = masker.mask(error.message)
            return (StepResult(index: index, location: step.location, exchange: nil, error: masked), .errored)
        }
        if let unreachable = unreachableResult(for: request, step: step, index: index, masker: masker) {
            return (unreachable, .errored)
        }
        if let events, request.body.streamsFromDisk {
            let suiteName = runtime.suite.name
            let testName = testName
            request.uploadProgress = { sent, total in
                guard total >= Self.progressThreshold else { return }
                // Off the transfer thread: a reporter blocked on its output must not stall every transfer.
                Task {
                    events.emit(.uploadProgress(suiteName: suiteName, testName: testName, sent: sent, total: total))
                }
            }
        }
        let response: HTTPResponse
        do {
            response = try await session.perform(request)
        } catch {
            // No response: a transfer failure, or the run was interrupted (CancellationError).
            let failure = error as? HTTPError
            if let failure {
                reachability?.record(failure, url: request.url, suiteName: runtime.suite.name, testName: testName)
            }
            let status: TestStatus = failure == nil || failure?.reason == .cancelled ? .cancelled : .errored
            let testError = TestError(
                kind: failure?.reason.rawValue ?? "cancelled",
                message: failure.map { masker.mask($0.message) } ?? "interrupted",
                location: step.request.location)
            let exchange = ExchangeRecorder.record(request, nil, masker: masker, limit: options.bodyPreviewLimit)
            return (StepResult(index: index, location: step.location, exchange: exchange, error: testError), status)
        }
        let exchange = ExchangeRecorder.record(request, response, masker: masker, limit: options.bodyPreviewLimit)
        var body = ResponseChecker.Body(response)
        var (failures, checks) = checker.check(step.expect, stepLocation: step.location, body: &body, context: context)
        var captured: [String] = []
        if failures.isEmpty {
            let capture = checker.capture(step.captures, body: &body, into: &context)
            captured = capture.captured
            failures += capture.failures
        }
        failures = failures.map { failure in
            var masked = failure
            masked.message = PredicateEvaluator.truncated(masker.mask(failure.message), limit: 800)
            masked.expected = masker.mask(failure.expected).map { PredicateEvaluator.truncated($0) }
            masked.actual = masker.mask(failure.actual).map { PredicateEvaluator.truncated($0) }
            return masked
        }
        checks = checks.map { check in
            var masked = check
            masked.expected = PredicateEvaluator.truncated(masker.mask(check.expected))
            return masked
        }
        let result = StepResult(
            index: index, location: step.location, exchange: exchange, failures: failures, checks: checks,
            captured: captured)
        return (result, failures.isEmpty ? .passed : .failed)
    }
}
