import APITestReporting
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
        var inputs = OutputGuard()
        let loaded = try suites.loadSuites(
            environment: environment, errorOutput: stderr, recordingInputsIn: &inputs, selecting: true)
        // Standard output redirected to a file the command reads would overwrite it.
        inputs.add(selection)
        try inputs.check([], errorOutput: stderr, consequence: "nothing was written")
        let result = try selection.select(
            loaded, errorOutput: stderr, colored: suites.colored(stderr, environment: environment))
        let stdout = StandardOutput.out
        switch format {
        case .text: stdout.write(TestListingFormat.text(result.listing))
        case .json: stdout.write(try TestListingFormat.json(result.listing))
        }
        stdout.flush()
    }
}
