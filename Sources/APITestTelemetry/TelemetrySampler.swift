package import APITestResults
import APITestSupport

/// `OTEL_TRACES_SAMPLER` (with `OTEL_TRACES_SAMPLER_ARG`): whether the run's one trace is sampled, decided once, at
/// its root, as the OpenTelemetry SDK's built-in samplers decide. An unsampled trace exports no span; its requests
/// still carry `traceparent`, with the flag `00`.
package indirect enum TelemetrySampler: Sendable, Hashable {
    /// `always_on`: every trace.
    case alwaysOn
    /// `always_off`: no trace.
    case alwaysOff
    /// `traceidratio`: the share of traces given (0 to 1), chosen by the trace id, so every process that sees the
    /// same trace id decides alike.
    case traceIDRatio(Double)
    /// `parentbased_*`: a CI parent's sampled flag (`TRACEPARENT`) when there is one, else `root`'s decision.
    case parentBased(root: TelemetrySampler)

    /// The specification's default, `parentbased_always_on`.
    package static let standard = TelemetrySampler.parentBased(root: .alwaysOn)

    /// The sampler `name` (`OTEL_TRACES_SAMPLER`) and `argument` (`OTEL_TRACES_SAMPLER_ARG`) name; the default for
    /// none. A sampler apitest does not have (`jaeger_remote`, `xray`, a typo) or a ratio that is not a number from 0
    /// to 1 adds a warning and falls back as the specification says: the default sampler, a ratio of 1.
    package static func named(_ name: String?, argument: String?, warnings: inout [String]) -> TelemetrySampler {
        guard let name = name?.lowercased() else { return standard }
        func ratio() -> Double {
            guard let argument else { return 1 }
            guard let value = Double(argument), value >= 0, value <= 1 else {
                warnings.append(
                    "OTEL_TRACES_SAMPLER_ARG: '\(argument.truncated(to: 40).shownInMessage)' is not a ratio from 0 "
                        + "to 1; 1 is used")
                return 1
            }
            return value
        }
        switch name {
        case "always_on": return .alwaysOn
        case "always_off": return .alwaysOff
        case "traceidratio": return .traceIDRatio(ratio())
        case "parentbased_always_on": return .parentBased(root: .alwaysOn)
        case "parentbased_always_off": return .parentBased(root: .alwaysOff)
        case "parentbased_traceidratio": return .parentBased(root: .traceIDRatio(ratio()))
        default:
            warnings.append(
                "OTEL_TRACES_SAMPLER: '\(name.truncated(to: 40).shownInMessage)' is not supported by apitest "
                    + "(always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, "
                    + "parentbased_traceidratio); parentbased_always_on is used")
            return standard
        }
    }

    /// Whether trace `trace` is sampled; `parentSampled` is the CI parent's flag, nil without a parent.
    package func samples(_ trace: TraceID, parentSampled: Bool?) -> Bool {
        switch self {
        case .alwaysOn: return true
        case .alwaysOff: return false
        case .traceIDRatio(let ratio):
            // As the SDKs do: the trace id's last 8 bytes, shifted to 63 bits, under the ratio's share of 2^63.
            guard ratio < 1 else { return true }
            let bound = UInt64(ratio * 9_223_372_036_854_775_808.0)
            return trace.low >> 1 < bound
        case .parentBased(let root):
            return parentSampled ?? root.samples(trace, parentSampled: nil)
        }
    }
}
