import APITestResults
import Testing

@testable import APITestTelemetry

/// `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` as the OpenTelemetry specification's built-in samplers read
/// them: the run's one trace sampled or not, decided at its root; a CI parent's flag followed by the parent-based
/// samplers (the default); a sampler apitest does not have, or a bad ratio, a warning and the specification's
/// fallback. The old settings ignored both variables: every trace without a parent was sampled.
@Suite struct TelemetrySamplerTests {
    static let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"]
    static let sampledParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    static let unsampledParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"

    private func settings(_ extra: [String: String]) throws -> TelemetrySettings {
        try #require(try TelemetrySettings(environment: Self.endpoint.merging(extra) { $1 }, version: "9.9.9"))
    }

    private func sampled(_ extra: [String: String]) throws -> Bool { try settings(extra).trace.sampled }

    @Test func alwaysOffSamplesNothingAndAlwaysOnEverything() throws {
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "always_off"]) == false)
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "ALWAYS_OFF", "TRACEPARENT": Self.sampledParent]) == false)
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "always_on"]))
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "always_on", "TRACEPARENT": Self.unsampledParent]))
    }

    @Test func theDefaultFollowsACIParentAndSamplesARoot() throws {
        #expect(try sampled([:]))
        #expect(try sampled(["TRACEPARENT": Self.sampledParent]))
        #expect(try sampled(["TRACEPARENT": Self.unsampledParent]) == false)
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "parentbased_always_off"]) == false)
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "parentbased_always_off", "TRACEPARENT": Self.sampledParent]))
        #expect(
            try sampled(["OTEL_TRACES_SAMPLER": "parentbased_always_on", "TRACEPARENT": Self.unsampledParent])
                == false)
        #expect(
            try sampled([
                "OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0",
                "TRACEPARENT": Self.sampledParent,
            ]))
    }

    @Test func aTraceIDRatioDecidesByTheTraceIDsLastEightBytes() {
        // The last 8 bytes shifted right by one, against ratio × 2^63: 0x4000…0 >> 1 = 2^61, a quarter of 2^63.
        let quarter = TraceID(high: 1, low: 0x4000_0000_0000_0000)
        #expect(TelemetrySampler.traceIDRatio(0.25).samples(quarter, parentSampled: nil) == false)
        #expect(TelemetrySampler.traceIDRatio(0.26).samples(quarter, parentSampled: nil))
        #expect(TelemetrySampler.traceIDRatio(0).samples(TraceID(high: 1, low: 0), parentSampled: nil) == false)
        #expect(TelemetrySampler.traceIDRatio(1).samples(TraceID(high: 1, low: .max), parentSampled: nil))
        // The parent-based ratio applies only to a root.
        let parentBased = TelemetrySampler.parentBased(root: .traceIDRatio(0))
        #expect(parentBased.samples(quarter, parentSampled: true))
        #expect(parentBased.samples(quarter, parentSampled: nil) == false)
    }

    @Test func anUnknownSamplerOrABadRatioIsAWarningAndTheFallback() throws {
        let unknown = try settings(["OTEL_TRACES_SAMPLER": "jaeger_remote", "TRACEPARENT": Self.unsampledParent])
        #expect(unknown.trace.sampled == false) // parentbased_always_on: the parent's flag
        #expect(unknown.warnings.count == 1)
        #expect(unknown.warnings.first?.hasPrefix("OTEL_TRACES_SAMPLER: 'jaeger_remote' is not supported") == true)
        for bad in ["1.5", "-0.1", "half"] {
            let ratio = try settings(["OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": bad])
            #expect(ratio.trace.sampled) // a ratio of 1
            #expect(ratio.warnings == ["OTEL_TRACES_SAMPLER_ARG: '\(bad)' is not a ratio from 0 to 1; 1 is used"])
        }
        #expect(try sampled(["OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0"]) == false)
    }
}
