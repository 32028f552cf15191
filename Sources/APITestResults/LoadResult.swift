package import APITestSupport
package import Foundation

/// What a load run (`apitest load`) measured: how it was driven, how many iterations started, finished, passed and
/// started late, the latency histograms (overall, per test and per step), errors by kind, failed checks by
/// assertion, bytes, a line per second, and how each threshold fared. The JSON report holds it whole; histograms
/// are kept (not only their percentiles) so that the reports of several load generators merge exactly.
package struct LoadResult: Sendable, Codable {
    /// How the iterations were started.
    package struct Model: Sendable, Codable, Hashable {
        /// How iterations start; written as `open` or `closed`.
        package enum Kind: String, Sendable, Codable, Hashable {
            /// Iterations arrive at a rate, whatever the server does.
            case open
            /// Virtual users, each starting its next iteration when the last one ends.
            case closed
        }

        /// Open or closed.
        package var kind: Kind
        /// Open model: the stages (`seconds` long, ending at `target` per second) and the rate they start at.
        package var startRate: Double?
        package var stages: [Stage]?
        /// Closed model: the virtual users.
        package var virtualUsers: Int?
        /// `--shard K/N`: this generator runs 1/N of the rate (or of the virtual users).
        package var shard: Shard?
        /// How long the run was planned to last, in seconds.
        package var plannedSeconds: Double

        /// One stage of an open model.
        package struct Stage: Sendable, Codable, Hashable {
            package var seconds: Double
            package var target: Double

            /// A stage `seconds` long that ends at `target` arrivals a second.
            package init(seconds: Double, target: Double) {
                self.seconds = seconds
                self.target = target
            }
        }

        /// A shard: `index` of `count`.
        package struct Shard: Sendable, Codable, Hashable {
            package var index: Int
            package var count: Int

            /// Shard `index` of `count`.
            package init(index: Int, count: Int) {
                self.index = index
                self.count = count
            }
        }

        /// A load model of `kind`: its stages (open) or virtual users (closed), its shard, and how long it was planned
        /// to run.
        package init(
            kind: Kind, startRate: Double? = nil, stages: [Stage]? = nil, virtualUsers: Int? = nil,
            shard: Shard? = nil, plannedSeconds: Double
        ) {
            self.kind = kind
            self.startRate = startRate
            self.stages = stages
            self.virtualUsers = virtualUsers
            self.shard = shard
            self.plannedSeconds = plannedSeconds
        }
    }

    /// Iteration counts.
    package struct Counts: Sendable, Codable, Hashable {
        /// Iterations started.
        package var started = 0
        /// Iterations that ran to their end (the others were cut off by the run's end or Ctrl-C).
        package var completed = 0
        package var passed = 0
        /// A check did not hold.
        package var failed = 0
        /// A transport, template or authentication error.
        package var errored = 0
        /// Open model: iterations that started more than `lateAfterMs` after their intended start (every slot was
        /// busy, or the machine could not keep up). Their latency counts from the intended start all the same.
        package var late = 0

        /// All counts at zero.
        package init() {}

        /// Completed iterations that did not pass.
        package var notPassed: Int { failed + errored }
    }

    /// One failed check, counted.
    package struct FailureCount: Sendable, Codable, Hashable {
        /// `file:line:column` of the assertion.
        package var location: String
        package var subject: String
        /// The first failure's message (messages of one assertion differ only by the values they quote).
        package var message: String
        package var count: Int

        /// A failure seen `count` times.
        package init(location: String, subject: String, message: String, count: Int) {
            self.location = location
            self.subject = subject
            self.message = message
            self.count = count
        }
    }

    /// One step of a test.
    package struct StepStats: Sendable, Codable {
        /// 1-based position in the test, as reports number steps.
        package var index: Int
        /// `file:line:column` of the step.
        package var location: String
        /// The step's own request time (not counted from the iteration's intended start).
        package var latency: LatencyHistogram
        /// For a step read as a stream of events (SSE, JSON lines, a GraphQL subscription): the time from the start
        /// of its request to its first event; nil for other steps.
        package var firstEvent: LatencyHistogram?

        /// The step at `index`, written at `location`, with no latency recorded yet.
        package init(index: Int, location: String, latency: LatencyHistogram = LatencyHistogram()) {
            self.index = index
            self.location = location
            self.latency = latency
        }
    }

    /// One test's iterations.
    package struct TestStats: Sendable, Codable {
        package var suite: String
        package var file: String
        package var name: String
        package var weight: Int
        package var counts: Counts
        package var latency: LatencyHistogram
        package var steps: [StepStats]
        /// Errors by kind (`connectionRefused`, `timedOut`, ...).
        package var errors: [String: Int]
        package var failures: [FailureCount]

        /// A test picked with `weight`, nothing recorded yet.
        package init(suite: String, file: String, name: String, weight: Int) {
            self.suite = suite
            self.file = file
            self.name = name
            self.weight = weight
            counts = Counts()
            latency = LatencyHistogram()
            steps = []
            errors = [:]
            failures = []
        }

        /// `suite › test`.
        package var displayName: String { "\(suite) › \(name)" }
    }

    /// One second of the run.
    package struct Second: Sendable, Codable, Hashable {
        /// Seconds since the start (the second that ended then).
        package var second: Int
        /// Iterations completed in that second.
        package var completed: Int
        package var notPassed: Int
        /// Latencies of the iterations completed in that second, in microseconds.
        package var p50: UInt64
        package var p99: UInt64
        package var max: UInt64

        /// One second of the timeline.
        package init(second: Int, completed: Int, notPassed: Int, p50: UInt64, p99: UInt64, max: UInt64) {
            self.second = second
            self.completed = completed
            self.notPassed = notPassed
            self.p50 = p50
            self.p99 = p99
            self.max = max
        }
    }

    /// A threshold and what the run measured for it.
    package struct ThresholdOutcome: Sendable, Codable, Hashable {
        package var threshold: LoadThreshold
        /// The measured value, in the metric's base unit.
        package var value: Double
        package var holds: Bool

        /// The verdict on `threshold` with the measured `value`.
        package init(threshold: LoadThreshold, value: Double, holds: Bool) {
            self.threshold = threshold
            self.value = value
            self.holds = holds
        }
    }

    package var model: Model
    package var startedAt: Date
    /// How long the run took, in seconds (up to the last iteration's end).
    package var seconds: Double
    /// Cut off by Ctrl-C.
    package var interrupted = false
    /// The threshold that stopped the run early (`--abort-on-fail`).
    package var abortedBy: String?
    /// An iteration counts as late when it started more than this after its intended start.
    package var lateAfterMs: Double
    package var counts: Counts
    /// Every completed iteration's latency, from its intended start (open model) or its start (closed model).
    package var latency: LatencyHistogram
    package var tests: [TestStats]
    package var bytesSent: Int64 = 0
    package var bytesReceived: Int64 = 0
    package var timeline: [Second] = []
    package var thresholds: [ThresholdOutcome] = []
    /// The suites' setup and teardown, each run once.
    package var hooks: [TestResult] = []

    /// An empty result of a load with `model`, started at `startedAt`.
    package init(model: Model, startedAt: Date, lateAfterMs: Double) {
        self.model = model
        self.startedAt = startedAt
        self.seconds = 0
        self.lateAfterMs = lateAfterMs
        counts = Counts()
        latency = LatencyHistogram()
        tests = []
    }

    /// Completed iterations per second over the run.
    package var achievedRate: Double { seconds > 0 ? Double(counts.completed) / seconds : 0 }

    /// The share of completed iterations that did not pass.
    package var errorShare: Double { counts.completed > 0 ? Double(counts.notPassed) / Double(counts.completed) : 0 }

    /// The value of `threshold`'s metric in this run.
    package func value(of threshold: LoadThreshold) -> Double {
        switch threshold.metric {
        case .percentile(let percentile): Double(latency.percentile(percentile))
        case .max: Double(latency.max)
        case .min: Double(latency.min)
        case .mean: latency.mean
        case .errors: errorShare
        case .rate: achievedRate
        }
    }

    /// Evaluates `thresholds` against the run as it stands.
    package func evaluate(_ thresholds: [LoadThreshold]) -> [ThresholdOutcome] {
        thresholds.map { threshold in
            let value = value(of: threshold)
            return ThresholdOutcome(threshold: threshold, value: value, holds: threshold.holds(for: value))
        }
    }

    /// Whether every threshold held (true with none).
    package var thresholdsHold: Bool { thresholds.allSatisfy(\.holds) }
}
