package import APITestResults
import Foundation

/// Renders a `TestListing` as `apitest list` prints it: text, one line per test, or a JSON document.
package enum TestListingFormat {
    /// One line per selected test: `suite file › suite name › test name [tags] (skipped: reason)`, every name
    /// escaped as the console escapes it (a file or test name cannot move the cursor or set the terminal's title).
    package static func text(_ listing: TestListing) -> String {
        var output = ""
        var expectedTotal: Double?
        let line = ReportText.terminalLine
        for test in listing.tests {
            output += "\(line(test.suiteFile)) › \(line(test.suiteName)) › \(line(test.testName))"
            if !test.tags.isEmpty { output += " [\(test.tags.map(line).joined(separator: ", "))]" }
            if let skip = test.skip { output += " (skipped: \(line(skip)))" }
            if let seconds = test.expectedSeconds {
                output += " (expected \(String(format: "%.3f", seconds)) s)"
                expectedTotal = (expectedTotal ?? 0) + seconds
            }
            output += "\n"
        }
        if let expectedTotal {
            output += "expected: \(String(format: "%.3f", expectedTotal)) s for \(listing.tests.count) tests"
            if let shard = listing.shard { output += " (shard \(shard.index)/\(shard.count), set-ups aside)" }
            output += "\n"
        }
        return output
    }

    /// The JSON document of `list --format json` (see docs/running.md).
    package static func json(_ listing: TestListing) throws -> String {
        let document = Document(
            total: listing.total, matched: listing.matched, selected: listing.tests.count,
            shard: listing.shard.map { Document.Shard(index: $0.index, count: $0.count) },
            tests: listing.tests.map {
                Document.Test(
                    file: $0.suiteFile, path: $0.relativePath, suite: $0.suiteName, name: $0.testName, line: $0.line,
                    steps: $0.steps, tags: $0.tags, skip: $0.skip, expectedSeconds: $0.expectedSeconds)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    // MARK: - Document

    /// The document `apitest list --format json` prints.
    struct Document: Codable {
        struct Shard: Codable {
            var index: Int
            var count: Int
        }

        struct Test: Codable {
            /// The suite file as found from the PATHs given.
            var file: String
            /// The suite file relative to the common folder of all suite files (the shard sort key).
            var path: String
            var suite: String
            var name: String
            var line: Int
            var steps: Int
            var tags: [String]
            /// The `skip:` reason; absent when the test runs.
            var skip: String?
            /// The expected duration in seconds (`--shard-timings`); absent without timings.
            var expectedSeconds: Double?
        }

        /// Tests in all the suites loaded.
        var total: Int
        /// Tests that pass --filter, --tag and --exclude-tag.
        var matched: Int
        /// Tests listed (in this shard).
        var selected: Int
        /// Absent without --shard.
        var shard: Shard?
        var tests: [Test]
    }
}
