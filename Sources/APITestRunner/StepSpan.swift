import APITestHTTP
import APITestResults

// MARK: - StepSpan

/// A step's span in a traced run (`RunOptions.tracing`): an id drawn when the step starts, which every request of
/// the step names in its `traceparent`, and the step's start, stamped on its result with its end
/// (``StepResult/trace``) for the telemetry exporter. The runner assigns ids and adds the header; it exports
/// nothing.
struct StepSpan {
    /// The span's id; nil when the run is not traced.
    let id: SpanID?
    /// When the step started, in nanoseconds since the Unix epoch.
    let start: UInt64

    /// The span of a step starting now, or one that records nothing when `tracing` is nil.
    init(_ tracing: TraceContext?) {
        if tracing != nil {
            id = SpanID.random()
            start = WallClock.nanosecondsSinceEpoch()
        } else {
            id = nil
            start = 0
        }
    }

    /// `draft` sealed by `sealer`, with the span from the step's start to now when the run is traced; sealed where
    /// it is when the run is not (a traced copy only for a traced run).
    func sealed(_ draft: StepDraft, by sealer: some SecretSealing) -> StepResult {
        guard let id else { return draft.sealed(by: sealer) }
        var traced = draft
        traced.trace = StepTrace(
            spanID: id, startNanoseconds: start, endNanoseconds: WallClock.nanosecondsSinceEpoch())
        return traced.sealed(by: sealer)
    }
}

// MARK: - The traceparent header

extension StepPreparation {
    /// Adds the W3C Trace Context headers of step span `spanID` to `request`: `traceparent` (version 00, the run's
    /// trace, the span, the sampled flag) and the CI parent's `tracestate`, if any. A request whose suite sets its
    /// own `traceparent` keeps it (and its `tracestate`).
    static func addTraceContext(_ tracing: TraceContext, _ spanID: SpanID, to request: inout HTTPRequest) {
        guard !request.headers.contains("traceparent") else { return }
        request.headers.set(name: "traceparent", value: tracing.traceparent(for: spanID))
        if let state = tracing.traceState, !state.isEmpty, !request.headers.contains("tracestate") {
            request.headers.set(name: "tracestate", value: state)
        }
    }
}
