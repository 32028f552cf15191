import APITestResults
import APITestSupport
import Foundation

/// The JSON report's shape, version 1 (published as `schemas/report.schema.json`). Times are milliseconds.
///
/// Optional members are left out when they have no value (a step whose request could not be built has no
/// `request`; one that got no answer has no `response` and no `timings`).
struct JSONReportDocument: Codable {
    struct Counts: Codable {
        var total: Int
        var passed: Int
        var failed: Int
        var errored: Int
        var skipped: Int
        var cancelled: Int
        /// Tests that did not pass and then passed when run again; absent when none was (and from reports written
        /// before it was added).
        var flaky: Int?
        var notRun: Int
    }

    /// A place in a suite file, as a step writes it too.
    typealias Location = ReportStep.Location

    struct Suite: Codable {
        var name: String
        var file: String
        /// The sum of the test durations.
        var durationMs: Double
        var summary: Counts
        var tests: [Test]
        var notRun: [String]
    }

    struct Test: Codable {
        var name: String
        var location: Location
        var status: String
        var durationMs: Double
        var reason: String?
        var steps: [Step]
        /// The steps as results, when the test was read from a report (`JSONReportDocument+Reading.swift`): decoded
        /// from the same `steps`, the one way outside the results module to a step's result besides sealing.
        var reportedSteps: [StepResult.Reported] = []
        /// The attempts before the last, of a test run again (`--retries`); absent for a test run once.
        var earlierAttempts: [Attempt]?

        /// The members a report writes, `reportedSteps` not among them.
        enum CodingKeys: String, CodingKey {
            case name, location, status, durationMs, reason, steps, earlierAttempts
        }
    }

    /// An attempt of a test before its last one (`--retries`): how it ended and its steps.
    struct Attempt: Codable {
        var status: String
        var durationMs: Double
        var reason: String?
        var steps: [Step]
        /// The steps as results, when read from a report.
        var reportedSteps: [StepResult.Reported] = []

        /// The members a report writes, `reportedSteps` not among them.
        enum CodingKeys: String, CodingKey {
            case status, durationMs, reason, steps
        }
    }

    /// A step: the one wire model of a step's result, which reading a report back decodes too.
    typealias Step = ReportStep

    /// Who the run was within a sharded set of runs: what `apitest merge` checks and reports.
    struct Run: Codable {
        /// A random id of the run.
        var id: String
        /// `--shard K/N`, when given.
        var shard: Shard?
        /// The SHA-256 of every selected test before sharding (suite file relative to the suites' common folder,
        /// test name), in the canonical order: equal for the shards of one suite set and selection.
        var selection: String
        /// The suite files of the whole selection, in run order: the order a merged report lists them in.
        var suiteFiles: [String]
        /// The SHA-256 of each of `suiteFiles`' text (hex), in the same order: shards that ran different versions
        /// of a suite file are not merged. Absent from reports written before it was added.
        var suiteDigests: [String]?
    }

    /// A shard: `index` of `count`, 1-based.
    struct Shard: Codable, Hashable {
        var index: Int
        var count: Int
    }

    /// One report a merged report was made of.
    struct MergedRun: Codable {
        var id: String?
        var shard: Shard?
        var hostname: String
        var startedAt: String
        var durationMs: Double
        var summary: Counts
    }

    var version = 1
    var generator = "apitest"
    var startedAt: String
    var hostname: String
    var durationMs: Double
    var interrupted: Bool
    var summary: Counts
    var suites: [Suite]
    /// The run's place in a sharded set; absent for a report written before shards were identified.
    var run: Run?
    /// Of a merged report (`apitest merge`): the reports it was made of, in shard order.
    var merged: [MergedRun]?
    /// What the run called of the gRPC methods its suites declare; absent when no suite has a `grpc:` step.
    var grpcCoverage: GRPCCoverageReportFormat.Summary?
}

// MARK: - Building

extension JSONReportDocument {
    init(_ record: RunRecord, run: Run? = nil) {
        let summary = record.summary
        self.init(
            startedAt: ReportText.iso8601(record.startedAt), hostname: record.hostname,
            durationMs: ReportText.milliseconds(summary.duration), interrupted: summary.interrupted,
            summary: Counts(
                total: summary.total + record.notRunCount, passed: summary.passed, failed: summary.failed,
                errored: summary.errored, skipped: summary.skipped, cancelled: summary.cancelled,
                flaky: summary.flaky == 0 ? nil : summary.flaky, notRun: record.notRunCount),
            suites: record.suites.map(Suite.init), run: run)
        grpcCoverage = summary.grpcCoverage.map(GRPCCoverageReportFormat.Summary.init)
    }
}

extension JSONReportDocument.Suite {
    init(_ suite: RunRecord.Suite) {
        self.init(
            name: suite.name, file: suite.file, durationMs: ReportText.milliseconds(suite.testTime),
            summary: JSONReportDocument.Counts(
                total: suite.results.count + suite.notRun.count, passed: suite.count(.passed),
                failed: suite.count(.failed), errored: suite.count(.errored), skipped: suite.count(.skipped),
                cancelled: suite.count(.cancelled), flaky: suite.flakyCount == 0 ? nil : suite.flakyCount,
                notRun: suite.notRun.count),
            tests: suite.results.map(JSONReportDocument.Test.init), notRun: suite.notRun)
    }
}

extension JSONReportDocument.Test {
    init(_ result: TestResult) {
        self.init(
            name: result.name, location: .init(result.location),
            status: result.isFlaky ? JSONReportDocument.flakyStatus : result.status.rawValue,
            durationMs: ReportText.milliseconds(result.duration), reason: result.reason,
            steps: result.steps.map(ReportStep.init),
            earlierAttempts: result.earlierAttempts.isEmpty
                ? nil : result.earlierAttempts.map(JSONReportDocument.Attempt.init))
    }
}

extension JSONReportDocument.Attempt {
    init(_ attempt: TestAttempt) {
        self.init(
            status: attempt.status.rawValue, durationMs: ReportText.milliseconds(attempt.duration),
            reason: attempt.reason, steps: attempt.steps.map(ReportStep.init))
    }
}

extension JSONReportDocument {
    /// The status of a flaky test (``TestResult/isFlaky``): one that passed in the end is not written `passed`.
    static let flakyStatus = "flaky"
}
