import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest list`: the tests a run would execute with the same paths and selection flags, without running them.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the tests a run would execute, after --filter, --tag, --exclude-tag and --shard.",
        usage: "apitest list [<options>] <paths> ...",
        discussion: """
            Loads and checks the suites like `validate` (nothing is sent) and prints the selected tests in the order \
            `run` starts them.

            Text: one line per test, `suite file › suite name › test name [tags]`, and `(skipped: reason)` for a \
            test that would be reported as skipped.
            JSON (--format json): {"total": N, "matched": N, "selected": N, "shard": {"index": K, "count": N}, \
            "tests": [{"file", "path", "suite", "name", "line", "steps", "tags", "skip"}]}; see docs/running.md.

            Examples:
              apitest list suites/ --tag smoke
              apitest list suites/ --shard 2/4 --format json
            """
    )

    /// How `list` prints.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @OptionGroup var suites: SuiteOptions

    @OptionGroup(title: "Selection") var selection: SelectionOptions

    @Option(help: ArgumentHelp("Output format.", valueName: "text|json"))
    var format: Format = .text

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let stderr = StandardOutput.error
        let loader = try suites.setLoader(environment: environment, errorOutput: stderr)
        guard let loaded = loader.load(paths: suites.paths) else { throw ExitStatus.invalid.exitCode }
        let result = try selection.select(loaded, errorOutput: stderr)
        let stdout = StandardOutput.out
        switch format {
        case .text: stdout.write(Self.text(result))
        case .json: stdout.write(try Self.json(result))
        }
        stdout.flush()
    }

    // MARK: - Output

    /// One line per selected test.
    static func text(_ result: TestSelection.Result) -> String {
        var output = ""
        for test in result.tests {
            output += "\(test.suiteFile) › \(test.suiteName) › \(test.testName)"
            if !test.tags.isEmpty { output += " [\(test.tags.joined(separator: ", "))]" }
            if let skip = test.skip { output += " (skipped: \(skip))" }
            output += "\n"
        }
        return output
    }

    /// The JSON document of `--format json`.
    static func json(_ result: TestSelection.Result) throws -> String {
        let document = ListDocument(
            total: result.totalCount, matched: result.matchedCount, selected: result.tests.count,
            shard: result.shard.map { ListDocument.Shard(index: $0.index, count: $0.count) },
            tests: result.tests.map {
                ListDocument.Test(
                    file: $0.suiteFile, path: $0.relativePath, suite: $0.suiteName, name: $0.testName, line: $0.line,
                    steps: $0.steps, tags: $0.tags, skip: $0.skip)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}

/// The document `apitest list --format json` prints.
struct ListDocument: Codable {
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
