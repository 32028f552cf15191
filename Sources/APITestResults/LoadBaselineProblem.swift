/// Why `apitest load --baseline FILE` cannot compare with FILE (a usage error, exit 2, before anything is sent).
package enum LoadBaselineProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(file: String, reason: String)
    /// The file is not a load JSON report (`apitest load --report-json`).
    case notALoadReport(file: String)
    /// The baseline ran other tests: those of this run it lacks, and those it has that this run lacks.
    case testsDiffer(file: String, notInBaseline: [String], notInRun: [String])
    /// Relative thresholds (`p99<+10%`) given without `--baseline`.
    case relativeWithoutBaseline([String])
    /// The baseline recorded no latency at all (its histogram is empty): nothing to compare with.
    case noSamples(file: String)
    /// These tests of the baseline recorded no latency (their histograms are empty).
    case testsWithoutSamples(file: String, tests: [String])

    package var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "--baseline '\(file)': cannot read it: \(reason)"
        case .notALoadReport(let file):
            return "--baseline '\(file)': not a load JSON report (one that apitest load --report-json writes)"
        case .testsDiffer(let file, let notInBaseline, let notInRun):
            var parts: [String] = []
            if !notInBaseline.isEmpty {
                parts.append("this run's \(notInBaseline.joined(separator: ", ")) not in the baseline")
            }
            if !notInRun.isEmpty {
                parts.append("the baseline's \(notInRun.joined(separator: ", ")) not in this run")
            }
            return "--baseline '\(file)': its tests do not match: " + parts.joined(separator: "; ")
        case .noSamples(let file):
            return "--baseline '\(file)': it has no latency samples (its latency histogram is empty): "
                + "nothing to compare with"
        case .testsWithoutSamples(let file, let tests):
            let which =
                tests.count == 1 ? "its test \(tests[0]) has" : "its tests \(tests.joined(separator: ", ")) have"
            return "--baseline '\(file)': \(which) no latency samples (an empty latency histogram): "
                + "nothing to compare with"
        case .relativeWithoutBaseline(let thresholds):
            let quoted = thresholds.map { "'\($0)'" }.joined(separator: ", ")
            return
                "threshold \(quoted) is relative to a baseline run: give --baseline FILE (an earlier load JSON report)"
        }
    }
}
