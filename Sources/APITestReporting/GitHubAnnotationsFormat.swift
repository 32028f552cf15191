package import APITestResults
import APITestSupport
import Foundation

// MARK: - GitHubAnnotationsFormat

/// GitHub Actions workflow commands for a run's failures: `::error file=…,line=…,col=…,title=…::message` lines,
/// which GitHub shows on the lines of the pull request
/// (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions#setting-an-error-message),
/// and a `::warning` per flaky test (failed, then passed when run again).
/// Values are escaped as GitHub's toolkit escapes them (`escapeData`, `escapeProperty`), and control characters
/// made visible first, so nothing from a server can end a command or start another.
///
/// GitHub shows at most 10 error and 10 warning annotations of a step (and 50 of a job); apitest is one step, so
/// it writes at most 10 of each, the most important ones (in run order): a failed `setup` or `teardown` (which stops
/// or spoils a whole suite), then the first problem of each failed or errored test, then their further problems.
/// What did not fit is counted in one last `::warning` naming the step summary and reports that list it all.
package struct GitHubAnnotationsFormat: ReportFormat {
    /// The most `::error` lines written: GitHub shows at most 10 error annotations of a step.
    package static let limit = 10
    /// The most `::warning` lines written, the overflow note included: GitHub shows at most 10 of a step.
    package static let warningLimit = 10

    /// Makes the file paths relative to the repository's root.
    package var paths: RepositoryPaths

    /// A format whose paths are relative to `root` (relative suite paths read from `currentFolder`).
    package init(root: String, currentFolder: String) {
        self.paths = RepositoryPaths(root: root, currentFolder: currentFolder)
    }

    package var displayName: String { "GitHub annotations" }

    package var resultDetail: ResultDetail { .failures }

    /// One problem to annotate: where, what, and under which title.
    private struct Problem {
        var location: SourceLocation
        var message: String
        var title: String
        /// 0: a failed setup or teardown; 1: a test's first problem; 2: a test's further problems.
        var rank: Int
    }

    package func render(_ record: RunRecord) -> String {
        var problems: [Problem] = []
        for result in record.results where result.status == .failed || result.status == .errored {
            let title = "\(result.suiteName) › \(result.name)"
            let hook = result.name == "setup" || result.name == "teardown"
            var first = true
            for step in result.steps {
                var entries: [(SourceLocation, String)] = step.failures.map { ($0.location, $0.message) }
                if let error = step.error { entries.append((error.location ?? step.location, error.message)) }
                let stepName = result.steps.count > 1 ? " (\(step.displayName))" : ""
                for (location, message) in entries {
                    problems.append(
                        Problem(
                            location: location, message: message, title: title + stepName,
                            rank: hook ? 0 : first ? 1 : 2))
                    first = false
                }
            }
        }
        // The most important `limit` (a stable sort: within a rank, run order), written in run order.
        let chosen = Set(
            problems.indices.sorted { (problems[$0].rank, $0) < (problems[$1].rank, $1) }.prefix(Self.limit))
        var lines = problems.indices.filter(chosen.contains).map { index in
            let problem = problems[index]
            return "::error file=\(Self.property(paths.relative(problem.location.file))),line=\(problem.location.line),"
                + "col=\(problem.location.column),title=\(Self.property(problem.title))::" + Self.data(problem.message)
        }
        let omitted = problems.count - lines.count
        let flaky = record.results.filter(\.isFlaky)
        let overflowNote = omitted > 0 || flaky.count > Self.warningLimit - 1
        let shownFlaky = flaky.prefix(Self.warningLimit - (overflowNote ? 1 : 0))
        for result in shownFlaky {
            let location = result.location
            lines.append(
                "::warning file=\(Self.property(paths.relative(location.file))),line=\(location.line),"
                    + "col=\(location.column),title=\(Self.property("flaky: \(result.suiteName) › \(result.name)"))::"
                    + Self.data(
                        "failed, then passed on run \(result.attemptCount) of \(result.attemptCount)"
                            + (result.earlierAttempts.first.flatMap(Self.firstProblem).map { ": \($0)" } ?? "")))
        }
        let flakyOmitted = flaky.count - shownFlaky.count
        if overflowNote {
            var parts: [String] = []
            if omitted > 0 { parts.append("\(omitted) more failure\(omitted == 1 ? "" : "s") not annotated") }
            if flakyOmitted > 0 {
                parts.append("\(flakyOmitted) more flaky test\(flakyOmitted == 1 ? "" : "s") not annotated")
            }
            lines.append(
                "::warning title=apitest::\(parts.joined(separator: ", ")) (GitHub shows at most \(Self.limit) "
                    + "error and \(Self.warningLimit) warning annotations of a step); see the step summary, the "
                    + "job's log or the reports")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The first failure's or error's message of an attempt.
    private static func firstProblem(_ attempt: TestAttempt) -> String? {
        for step in attempt.steps {
            if let failure = step.failures.first { return failure.message }
            if let error = step.error { return error.message }
        }
        return nil
    }

    // MARK: - Escaping

    /// A command's message: control characters other than tab and line feed made visible (a carriage return as
    /// `\r`), then `%`, CR and LF percent-encoded as GitHub's `escapeData` does.
    static func data(_ text: String) -> String {
        ReportText.plain(text).replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A command's property value: `data`, and `:` and `,` encoded as GitHub's `escapeProperty` does.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
