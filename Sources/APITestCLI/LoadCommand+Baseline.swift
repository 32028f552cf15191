import APITestLoad
import APITestReporting
import APITestResults
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

// MARK: - Baseline

extension LoadCommand {
    /// The baseline run `--baseline` names, read and checked before anything is sent: a load JSON report whose
    /// tests are those `load` picks. Throws the usage error (exit 2) for a file that cannot be read, is not a load
    /// report, ran other tests or has no latency samples (overall or for a test), and for relative thresholds
    /// without `--baseline`. `nil` without `--baseline`.
    func readBaseline(for load: LoadPreparation.Ready) throws -> LoadResult? {
        let relative = load.options.thresholds.filter { $0.relative != nil }
        guard let baseline else {
            if !relative.isEmpty {
                throw ValidationError(LoadBaselineProblem.relativeWithoutBaseline(relative.map(\.text)).description)
            }
            return nil
        }
        do {
            return try Self.readBaseline(baseline, tests: Self.pickedTests(load.suites))
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The load report at `path`, checked against the `tests` (suite and name) this load picks.
    static func readBaseline(
        _ path: String, tests: [(suite: String, name: String)]
    ) throws(LoadBaselineProblem) -> LoadResult {
        if let problem = ReadableFile.problem(at: FilePaths.absolute(path)) {
            throw .unreadable(file: path, reason: problem.message(key: "the file", path: path))
        }
        guard let data = FileManager.default.contents(atPath: FilePaths.absolute(path)) else {
            throw .unreadable(file: path, reason: "the file cannot be read")
        }
        guard let document = LoadReportFormats.read(Array(data)) else { throw .notALoadReport(file: path) }
        let unmatched = LoadBaselineComparison.unmatchedTests(baseline: document.load, current: tests)
        if !unmatched.notInBaseline.isEmpty || !unmatched.notInRun.isEmpty {
            throw .testsDiffer(file: path, notInBaseline: unmatched.notInBaseline, notInRun: unmatched.notInRun)
        }
        if document.load.latency.count == 0 { throw .noSamples(file: path) }
        let empty = document.load.tests.filter { $0.latency.count == 0 }.map(\.displayName)
        if !empty.isEmpty { throw .testsWithoutSamples(file: path, tests: empty) }
        return document.load
    }

    /// The tests a load of `suites` picks, as its result names them.
    static func pickedTests(_ suites: [Suite]) -> [(suite: String, name: String)] {
        LoadRunner.pickable(suites).map { (suites[$0.suite].name, suites[$0.suite].tests[$0.test].name) }
    }

    /// `result` compared with `baseline`: the relative thresholds judged and put back among the others in the
    /// order they were given.
    static func compare(
        _ result: inout LoadResult, with baseline: LoadResult, file: String, thresholds: [LoadThreshold]
    ) -> LoadBaselineComparison {
        let comparison = LoadBaselineComparison(
            baseline: baseline, current: result, baselineFile: file, thresholds: thresholds)
        var absolute = result.thresholds[...]
        var relative = comparison.outcomes[...]
        var ordered: [LoadResult.ThresholdOutcome] = []
        for threshold in thresholds {
            if threshold.relative != nil, let outcome = relative.popFirst() {
                ordered.append(outcome)
            } else if threshold.relative == nil, let outcome = absolute.popFirst() {
                ordered.append(outcome)
            }
        }
        result.thresholds = ordered + absolute + relative
        return comparison
    }
}
