import APITestReporting
import APITestRunner
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest export curl`: every request of the suites as a curl command, printed, nothing sent.
struct ExportCurlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Print the requests of suites as curl commands, without sending anything.",
        usage: "apitest export curl [<options>] <paths> ...",
        discussion: """
            Loads the suites like `validate` and prints each step's request (setup, then the tests, then teardown, \
            steps in order) as a curl command for a POSIX shell, under a `# suite › test › step N` comment: method, \
            URL, headers in order, body, basic auth, timeouts, redirects and the suite's TLS settings. Requests are \
            built by the runner exactly as `run` builds them.

            Secrets never appear: a value from the environment is a "${NAME}" reference to its variable, a secret \
            no variable holds is ••••• with a `# note:` line. A value captured from a response is not known before \
            the test runs: the command holds `{{ name }}` in its place.

            Examples:
              apitest export curl examples/users.yaml
              apitest export curl suites/ --var host=staging.example.com > requests.sh
            """
    )

    @OptionGroup var suites: SuiteOptions

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let stderr = StandardOutput.error
        var inputs = OutputGuard()
        let loaded = try suites.loadSuites(environment: environment, errorOutput: stderr, recordingInputsIn: &inputs)
        // Standard output redirected to a file the command reads would overwrite it.
        try inputs.check([], errorOutput: stderr, consequence: "nothing was written")
        let stdout = StandardOutput.out
        let entries = CurlExport.entries(of: loaded, options: RunOptions())
        stdout.write(
            CurlCommandsFormat.script(
                heading: "The requests of \(loaded.count == 1 ? "1 suite" : "\(loaded.count) suites") as curl "
                    + "commands (apitest export curl); nothing was sent.",
                entries.map { ($0.label, $0.command, $0.problem) }))
        stdout.flush()
    }
}
