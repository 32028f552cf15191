import APITestResults
import APITestRunner
import APITestSupport
import APITestTelemetry

// MARK: - Traces over OTLP

/// A traced run's parts: the settings read from `OTEL_*` and the reporter that exports the spans.
struct RunTracing {
    let settings: TelemetrySettings
    /// Nil when the trace is not sampled (`OTEL_TRACES_SAMPLER`): no span is made or exported, and the requests'
    /// `traceparent` says so with the flag `00`.
    let recorder: TraceRecorder?

    /// The trace the runner's requests name in their `traceparent` (`RunOptions.tracing`).
    var trace: TraceContext { settings.trace }

    /// The reporter that builds and exports the spans, beside the run's others.
    var reporters: [any Reporter] { recorder.map { [$0] } ?? [] }

    /// Exports what is left within the export timeout; the warning to print when spans were not exported.
    func finish() async -> String? {
        await recorder?.finish()
    }
}

extension RunCommand {
    /// The run's tracing as `environment`'s `OTEL_*` variables ask (docs/tracing.md), its warnings printed; nil
    /// when tracing is off. A setting that makes no exporter (an unsupported protocol, a bad endpoint or header
    /// list) is a usage error, printed, before anything runs.
    static func tracing(
        environment: [String: String], flakyFails: Bool, errorOutput: StandardOutput
    ) throws -> RunTracing? {
        let settings: TelemetrySettings?
        do {
            settings = try TelemetrySettings(environment: environment, version: APITestVersion.string)
        } catch {
            errorOutput.write("error: \(error.message)\n")
            errorOutput.flush()
            throw ExitStatus.invalid.exitCode
        }
        guard let settings else { return nil }
        for warning in settings.warnings { errorOutput.write("warning: \(warning)\n") }
        guard settings.trace.sampled else { return RunTracing(settings: settings, recorder: nil) }
        let exporter = OTLPExporter(settings: settings, version: APITestVersion.string)
        return RunTracing(
            settings: settings, recorder: TraceRecorder(settings: settings, exporter: exporter, flakyFails: flakyFails))
    }
}
