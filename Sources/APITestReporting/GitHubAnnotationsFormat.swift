package import APITestResults
import APITestSupport
import Foundation

// MARK: - GitHubAnnotationsFormat

/// GitHub Actions workflow commands for a run's failures: one `::error file=…,line=…,col=…,title=…::message` line
/// per failed assertion or error, which GitHub shows on the lines of the pull request
/// (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions#setting-an-error-message).
/// Values are escaped as GitHub's toolkit escapes them (`escapeData`, `escapeProperty`), and control characters
/// made visible first, so nothing from a server can end a command or start another.
package struct GitHubAnnotationsFormat: ReportFormat {
    /// The most `::error` lines written; GitHub shows at most 50 annotations of a kind per job.
    package static let limit = 50

    /// Makes the file paths relative to the repository's root.
    package var paths: RepositoryPaths

    /// A format whose paths are relative to `root` (relative suite paths read from `currentFolder`).
    package init(root: String, currentFolder: String) {
        self.paths = RepositoryPaths(root: root, currentFolder: currentFolder)
    }

    package var displayName: String { "GitHub annotations" }

    package var resultDetail: ResultDetail { .failures }

    package func render(_ record: RunRecord) -> String {
        var lines: [String] = []
        var omitted = 0
        for result in record.results where result.status == .failed || result.status == .errored {
            let title = "\(result.suiteName) › \(result.name)"
            for step in result.steps {
                var entries: [(SourceLocation, String)] = step.failures.map { ($0.location, $0.message) }
                if let error = step.error { entries.append((error.location ?? step.location, error.message)) }
                for (location, message) in entries {
                    guard lines.count < Self.limit else {
                        omitted += 1
                        continue
                    }
                    let stepName = result.steps.count > 1 ? " (\(step.displayName))" : ""
                    lines.append(
                        "::error file=\(Self.property(paths.relative(location.file))),line=\(location.line),"
                            + "col=\(location.column),title=\(Self.property(title + stepName))::"
                            + Self.data(message))
                }
            }
        }
        if omitted > 0 {
            lines.append(
                "::warning title=apitest::\(omitted) more failure\(omitted == 1 ? "" : "s") not annotated (GitHub "
                    + "shows at most \(Self.limit)); see the job's log or the reports")
        }
        return lines.map { $0 + "\n" }.joined()
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
