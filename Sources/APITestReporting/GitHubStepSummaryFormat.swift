package import APITestResults
import APITestSupport
import Foundation

// MARK: - GitHubStepSummaryFormat

/// The Markdown a run appends to `$GITHUB_STEP_SUMMARY`: the counts, every failure with its location, the flaky
/// tests, and the slowest tests. Text from results is escaped for GitHub-flavoured Markdown (HTML characters as
/// entities, table pipes, backticks, emphasis), one line each.
///
/// GitHub drops a step's summary over 1 MiB whole; the summary is cut to fit in ``byteLimit`` (1 MiB less what the
/// step's summary file already holds), whole lines only, and ends with a line saying how many lines were left out.
package struct GitHubStepSummaryFormat: ReportFormat {
    /// How many failures are listed; the rest are counted.
    package static let failureLimit = 100
    /// How many of the slowest tests are listed.
    package static let slowestCount = 10
    /// The largest step summary GitHub shows: 1 MiB.
    package static let gitHubLimit = 1024 * 1024

    /// Makes the locations' paths relative to the repository's root.
    package var paths: RepositoryPaths
    /// The most bytes the summary may have: 1 MiB less what the step's summary file holds already.
    package var byteLimit: Int

    /// The summary format, its paths relative to `root` (relative suite paths read from `currentFolder`), at most
    /// `byteLimit` bytes long.
    package init(root: String, currentFolder: String, byteLimit: Int = Self.gitHubLimit) {
        self.paths = RepositoryPaths(root: root, currentFolder: currentFolder)
        self.byteLimit = byteLimit
    }

    package var displayName: String { "GitHub step summary" }

    package var resultDetail: ResultDetail { .failures }

    package func render(_ record: RunRecord) -> String {
        let summary = record.summary
        // A flaky test fails the run unless --flaky pass: a warning sign, not a tick.
        let verdict =
            summary.failed + summary.errored > 0 || summary.interrupted ? "❌" : summary.flaky > 0 ? "⚠️" : "✅"
        var head = "## \(verdict) apitest: \(summary.total) test\(summary.total == 1 ? "" : "s")\n\n"
        let flakyColumn = summary.flaky > 0
        head +=
            "| passed |\(flakyColumn ? " flaky |" : "") failed | errored | skipped | cancelled | time |\n"
            + "|---:|\(flakyColumn ? "---:|" : "")---:|---:|---:|---:|---:|\n"
        head +=
            "| \(summary.passed) |\(flakyColumn ? " \(summary.flaky) |" : "") \(summary.failed) | \(summary.errored) "
            + "| \(summary.skipped) | \(summary.cancelled) | \(ReportText.secondsText(summary.duration)) s |\n\n"
        var lines: [String] = []
        let failing = record.results.filter { $0.status == .failed || $0.status == .errored }
        if !failing.isEmpty {
            lines.append("### Failures\n\n")
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
                        lines.append(
                            "- **\(Self.escape("\(result.suiteName) › \(result.name)"))** `\(Self.code(location))`: "
                                + "\(Self.escape(message))\n")
                    }
                }
            }
            if listed > Self.failureLimit { lines.append("- … and \(listed - Self.failureLimit) more\n") }
            lines.append("\n")
        }
        let flaky = record.results.filter(\.isFlaky)
        if !flaky.isEmpty {
            lines.append("### Flaky tests\n\nFailed, then passed when run again:\n\n")
            for result in flaky {
                let location = "\(paths.relative(result.location.file)):\(result.location.line)"
                lines.append(
                    "- **\(Self.escape("\(result.suiteName) › \(result.name)"))** `\(Self.code(location))`: passed on "
                        + "run \(result.attemptCount) of \(result.attemptCount)\n")
            }
            lines.append("\n")
        }
        let slowest = record.results.filter { $0.status != .skipped }.sorted { $0.duration > $1.duration }
            .prefix(Self.slowestCount)
        if !slowest.isEmpty {
            lines.append("### Slowest tests\n\n| test | time |\n|---|---:|\n")
            for result in slowest {
                lines.append(
                    "| \(Self.escape("\(result.suiteName) › \(result.name)")) | "
                        + "\(ReportText.secondsText(result.duration)) s |\n")
            }
            lines.append("\n")
        }
        return Self.fitted(head: head, lines: lines, limit: byteLimit)
    }

    /// `head` and as many of `lines` as fit in `limit` bytes, in order, with a last line saying how many were left
    /// out when some were (the head is always kept).
    static func fitted(head: String, lines: [String], limit: Int) -> String {
        let total = lines.reduce(head.utf8.count) { $0 + $1.utf8.count }
        guard total > limit else { return head + lines.joined() }
        // Room for the note, whatever its numbers.
        let noteRoom = 200
        var text = head
        var size = head.utf8.count
        var kept = 0
        for line in lines {
            guard size + line.utf8.count + noteRoom <= limit else { break }
            text += line
            size += line.utf8.count
            kept += 1
        }
        let left = lines.count - kept
        text +=
            "\n> **\(left) line\(left == 1 ? "" : "s") of this summary left out**: GitHub drops a step summary over "
            + "1 MiB. The reports and the job's log have everything.\n"
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
