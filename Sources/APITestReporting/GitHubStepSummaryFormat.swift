package import APITestResults
import APITestSupport
import Foundation

// MARK: - GitHubStepSummaryFormat

/// The Markdown a run appends to `$GITHUB_STEP_SUMMARY`: the counts, every failure with its location, and the
/// slowest tests. Text from results is escaped for GitHub-flavoured Markdown (HTML characters as entities, table
/// pipes, backticks, emphasis), one line each.
package struct GitHubStepSummaryFormat: ReportFormat {
    /// How many failures are listed; the rest are counted.
    package static let failureLimit = 100
    /// How many of the slowest tests are listed.
    package static let slowestCount = 10

    /// Makes the locations' paths relative to the repository's root.
    package var paths: RepositoryPaths

    /// The summary format, its paths relative to `root` (relative suite paths read from `currentFolder`).
    package init(root: String, currentFolder: String) {
        self.paths = RepositoryPaths(root: root, currentFolder: currentFolder)
    }

    package var displayName: String { "GitHub step summary" }

    package var resultDetail: ResultDetail { .failures }

    package func render(_ record: RunRecord) -> String {
        let summary = record.summary
        let verdict = summary.failed + summary.errored > 0 || summary.interrupted ? "❌" : "✅"
        var text = "## \(verdict) apitest: \(summary.total) test\(summary.total == 1 ? "" : "s")\n\n"
        text += "| passed | failed | errored | skipped | cancelled | time |\n|---:|---:|---:|---:|---:|---:|\n"
        text +=
            "| \(summary.passed) | \(summary.failed) | \(summary.errored) | \(summary.skipped) | \(summary.cancelled) "
            + "| \(ReportText.secondsText(summary.duration)) s |\n\n"
        let failing = record.results.filter { $0.status == .failed || $0.status == .errored }
        if !failing.isEmpty {
            text += "### Failures\n\n"
            var listed = 0
            for result in failing {
                for step in result.steps {
                    func place(_ location: SourceLocation) -> String {
                        "\(paths.relative(location.file)):\(location.line):\(location.column)"
                    }
                    var entries = step.failures.map { (place($0.location), $0.message) }
                    if let error = step.error {
                        entries.append(
                            (place(error.location ?? step.location), "\(error.kind.rawValue): \(error.message)"))
                    }
                    for (location, message) in entries {
                        listed += 1
                        guard listed <= Self.failureLimit else { continue }
                        text +=
                            "- **\(Self.escape("\(result.suiteName) › \(result.name)"))** `\(Self.code(location))`: "
                            + "\(Self.escape(message))\n"
                    }
                }
            }
            if listed > Self.failureLimit { text += "- … and \(listed - Self.failureLimit) more\n" }
            text += "\n"
        }
        let slowest = record.results.filter { $0.status != .skipped }.sorted { $0.duration > $1.duration }
            .prefix(Self.slowestCount)
        if !slowest.isEmpty {
            text += "### Slowest tests\n\n| test | time |\n|---|---:|\n"
            for result in slowest {
                text +=
                    "| \(Self.escape("\(result.suiteName) › \(result.name)")) | "
                    + "\(ReportText.secondsText(result.duration)) s |\n"
            }
            text += "\n"
        }
        return text
    }

    /// Text on one line with Markdown and HTML made inert: `&`, `<`, `>` as entities; `|`, `` ` ``, `*`, `_`, `[`,
    /// `]`, `\` and `#` backslash-escaped; control characters visible.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in ReportText.oneLine(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "|", "`", "*", "_", "[", "]", "\\", "#", "~": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// Text for a code span: one line, without backticks.
    static func code(_ text: String) -> String {
        ReportText.oneLine(text).replacingOccurrences(of: "`", with: "'")
    }
}
