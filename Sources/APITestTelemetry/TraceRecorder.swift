package import APITestResults
import APITestSupport
import Synchronization

/// The reporter that turns a run's events into spans: one for the run, one per suite, one per attempt of each test,
/// one per step that ran, in the parent-child tree run → suite → test attempt → step, with the OpenTelemetry `test.*`,
/// `cicd.*`, `http.*` and `url.*` attributes. Spans go to the ``OTLPExporter`` in batches as tests finish and the rest
/// when the run ends; ``finish()`` waits (a bounded time) for the last export.
///
/// What a span says comes from sealed results (masked and cut as every report shows them) and from names written
/// in the suite; no header value is exported. Step spans have the ids the runner sent in their requests'
/// `traceparent` (``StepResult/trace``).
package final class TraceRecorder: Reporter {
    /// Spans handed to the exporter at once while the run goes on.
    static let batchSize = 512

    private let settings: TelemetrySettings
    private let exporter: OTLPExporter
    /// Whether a flaky test fails the run (`--flaky fail`): the run and suite spans' status follow the exit code.
    private let flakyFails: Bool
    private let runSpanID = SpanID.random()
    private let state = Mutex(State())

    /// What the recorder keeps between events.
    private struct State {
        var runStart: UInt64 = 0
        /// Each suite's span, by name, in the order they started.
        var suites: [String: SuiteSpan] = [:]
        var suiteOrder: [String] = []
        /// When each test in flight started, by suite and test name.
        var testStarts: [TestKey: UInt64] = [:]
        /// Spans not yet handed to the exporter.
        var pending: [TelemetrySpan] = []
    }

    private struct TestKey: Hashable {
        var suite: String
        var test: String
    }

    /// A suite's span as its tests finish: its extent and how its tests ended.
    private struct SuiteSpan {
        var id = SpanID.random()
        var file = ""
        var start: UInt64
        var end: UInt64
        var tests = 0
        var skipped = 0
        var failed = false
        var aborted = false
    }

    /// A recorder exporting through `exporter` under `settings`; `flakyFails` as `--flaky` says.
    package init(settings: TelemetrySettings, exporter: OTLPExporter, flakyFails: Bool = true) {
        self.settings = settings
        self.exporter = exporter
        self.flakyFails = flakyFails
    }

    /// Passing steps carry their request line and status: a step span's `http.*` and `url.full`.
    package var resultDetail: ResultDetail { .requestLines }

    package func handle(_ event: RunEvent) {
        let now = WallClock.nanosecondsSinceEpoch()
        let batch: [TelemetrySpan]? = state.withLock { state in
            switch event {
            case .runStarted:
                state.runStart = now
            case .testStarted(let suiteName, let testName):
                state.testStarts[TestKey(suite: suiteName, test: testName)] = now
                if state.suites[suiteName] == nil {
                    state.suites[suiteName] = SuiteSpan(start: now, end: now)
                    state.suiteOrder.append(suiteName)
                }
            case .testFinished(let result):
                let key = TestKey(suite: result.suiteName, test: result.name)
                let start = state.testStarts.removeValue(forKey: key) ?? now
                var suite = state.suites[result.suiteName] ?? SuiteSpan(start: start, end: now)
                if state.suites[result.suiteName] == nil { state.suiteOrder.append(result.suiteName) }
                state.pending += spans(of: result, start: start, end: now, parent: suite.id)
                suite.file = result.suiteFile
                suite.end = max(suite.end, now)
                suite.tests += 1
                switch result.status {
                case .skipped: suite.skipped += 1
                case .cancelled: suite.aborted = true
                case .failed, .errored: suite.failed = true
                case .passed: if result.isFlaky && flakyFails { suite.failed = true }
                }
                state.suites[result.suiteName] = suite
            case .uploadProgress:
                break
            case .runFinished(let summary):
                for name in state.suiteOrder {
                    if let suite = state.suites[name] { state.pending.append(span(ofSuite: name, suite)) }
                }
                state.pending.append(runSpan(summary, start: state.runStart, end: now))
                defer { state.pending = [] }
                return state.pending
            }
            guard state.pending.count >= Self.batchSize else { return nil }
            defer { state.pending = [] }
            return state.pending
        }
        if let batch { exporter.export(batch) }
    }

    /// Waits until the spans handed over are exported, or the export timeout has passed; the one warning to show
    /// when some could not be exported, nil when all were.
    package func finish() async -> String? {
        let rest = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        if !rest.isEmpty { exporter.export(rest) }
        return await exporter.finish()
    }

    // MARK: - Spans

    private func span(
        _ name: String, id: SpanID, parent: SpanID?, kind: TelemetrySpan.Kind = .internal, start: UInt64,
        end: UInt64, attributes: [TelemetrySpan.Attribute], status: TelemetrySpan.Status
    ) -> TelemetrySpan {
        TelemetrySpan(
            traceID: settings.trace.traceID, spanID: id, parentSpanID: parent, traceState: settings.trace.traceState,
            name: name, kind: kind, startNanoseconds: start, endNanoseconds: end, attributes: attributes,
            status: status)
    }

    /// The run's span: the root (or the CI parent's child), with the pipeline's attributes and the counts.
    private func runSpan(_ summary: RunSummary, start: UInt64, end: UInt64) -> TelemetrySpan {
        var attributes = settings.pipeline
        let counts: [(String, Int)] = [
            ("passed", summary.passed), ("failed", summary.failed), ("errored", summary.errored),
            ("skipped", summary.skipped), ("cancelled", summary.cancelled), ("flaky", summary.flaky),
        ]
        for (name, count) in counts { attributes.append(.init("apitest.tests.\(name)", .int(Int64(count)))) }
        var status = TelemetrySpan.Status.unset
        if !summary.succeeded(flakyFails: flakyFails) {
            let parts = counts.filter { $0.1 > 0 && $0.0 != "passed" && $0.0 != "skipped" }.map { "\($0.1) \($0.0)" }
            status = .error(summary.interrupted ? "interrupted" : parts.joined(separator: ", "))
        }
        return span(
            "apitest run", id: runSpanID, parent: settings.parentSpanID, start: start, end: end,
            attributes: attributes, status: status)
    }

    /// A suite's span, from its first test's start to its last test's end.
    private func span(ofSuite name: String, _ suite: SuiteSpan) -> TelemetrySpan {
        let status =
            suite.aborted
            ? "aborted"
            : suite.failed ? "failure" : suite.tests > 0 && suite.skipped == suite.tests ? "skipped" : "success"
        var attributes: [TelemetrySpan.Attribute] = [
            .init("test.suite.name", .string(name)), .init("test.suite.run.status", .string(status)),
        ]
        if !suite.file.isEmpty { attributes.append(.init("code.file.path", .string(suite.file))) }
        return span(
            name, id: suite.id, parent: runSpanID, start: suite.start, end: suite.end, attributes: attributes,
            status: suite.failed || suite.aborted ? .error("test suite \(status)") : .unset)
    }

    /// The spans of a finished test: one per attempt (laid end to end from the test's start, the last ending now),
    /// each with its steps' spans.
    private func spans(
        of result: TestResult, start: UInt64, end: UInt64, parent: SpanID
    ) -> [TelemetrySpan] {
        var spans: [TelemetrySpan] = []
        let attempts = result.allAttempts
        var cursor = start
        for (offset, attempt) in attempts.enumerated() {
            let isLast = offset == attempts.count - 1
            let id = SpanID.random()
            let steps = attempt.steps.compactMap { step in step.trace.map { (step, $0) } }
            var attemptStart = cursor
            var attemptEnd = isLast ? end : min(end, cursor &+ Self.nanoseconds(attempt.duration))
            if let first = steps.first?.1.startNanoseconds { attemptStart = min(attemptStart, first) }
            if let last = steps.map(\.1.endNanoseconds).max() { attemptEnd = max(attemptEnd, last) }
            cursor = attemptEnd
            for (step, trace) in steps { spans.append(span(of: step, trace, parent: id)) }
            spans.append(
                span(
                    result.name, id: id, parent: parent, start: attemptStart, end: attemptEnd,
                    attributes: attributes(of: result, attempt, number: offset + 1, isLast: isLast),
                    status: Self.status(of: attempt.status, steps: attempt.steps, reason: attempt.reason)))
        }
        return spans
    }

    private func attributes(
        of result: TestResult, _ attempt: TestAttempt, number: Int, isLast: Bool
    ) -> [TelemetrySpan.Attribute] {
        var attributes: [TelemetrySpan.Attribute] = [
            .init("test.suite.name", .string(result.suiteName)), .init("test.case.name", .string(result.name)),
        ]
        switch attempt.status {
        case .passed: attributes.append(.init("test.case.result.status", .string("pass")))
        case .failed, .errored, .cancelled: attributes.append(.init("test.case.result.status", .string("fail")))
        case .skipped: break
        }
        attributes.append(.init("apitest.test.status", .string(attempt.status.rawValue)))
        if result.attemptCount > 1 {
            attributes.append(.init("apitest.test.attempt", .int(Int64(number))))
            if isLast && result.isFlaky { attributes.append(.init("apitest.test.flaky", .bool(true))) }
        }
        attributes.append(.init("code.file.path", .string(result.location.file)))
        attributes.append(.init("code.line.number", .int(Int64(result.location.line))))
        return attributes
    }

    /// A step's span: a client span when it sent a request, with the request's method, its URL (masked, its
    /// credentials redacted), the server and the response's status.
    private func span(of step: StepResult, _ trace: StepTrace, parent: SpanID) -> TelemetrySpan {
        var attributes: [TelemetrySpan.Attribute] = [.init("apitest.step.index", .int(Int64(step.index + 1)))]
        attributes.append(.init("code.line.number", .int(Int64(step.location.line))))
        if let exchange = step.exchange {
            attributes.append(.init("http.request.method", .string(exchange.method)))
            attributes += TelemetryURL.attributes(of: exchange.url)
            if let status = exchange.statusCode {
                attributes.append(.init("http.response.status_code", .int(Int64(status))))
                if status >= 400 { attributes.append(.init("error.type", .string(String(status)))) }
            } else if let error = step.error {
                attributes.append(.init("error.type", .string(error.kind.rawValue)))
            }
        }
        let status: TestStatus = step.error != nil ? .errored : step.failures.isEmpty ? .passed : .failed
        return span(
            step.displayName, id: trace.spanID, parent: parent, kind: step.exchange == nil ? .internal : .client,
            start: trace.startNanoseconds, end: trace.endNanoseconds, attributes: attributes,
            status: Self.status(of: status, steps: [step], reason: nil))
    }

    /// Error with the first failure's or error's message (as reports show it) for a status that did not pass;
    /// unset for a passed or skipped one.
    static func status(of status: TestStatus, steps: [StepResult], reason: String?) -> TelemetrySpan.Status {
        switch status {
        case .passed, .skipped: return .unset
        case .failed, .errored, .cancelled:
            for step in steps {
                if let error = step.error { return .error("\(step.displayName): \(error.message)") }
                if let failure = step.failures.first { return .error("\(step.displayName): \(failure.message)") }
            }
            return .error(reason ?? status.rawValue)
        }
    }

    /// `duration` in nanoseconds (0 for a negative one).
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
