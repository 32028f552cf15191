import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest validate`: load and check suites without sending a request.
///
/// A plain command line is read by ``ArgumentScanner`` (its table: `ValidateArgumentTable.swift`), anything else
/// by swift-argument-parser; ``run()`` is the same either way.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check suite files without running them; every error of every file, as file:line:column.",
        usage: "apitest validate [<options>] <paths> ...",
        discussion: """
            Examples:
              apitest validate examples/
              apitest validate api.yaml --var port=8080
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
        // Certificate files are parsed here (the suite layer only checks that they exist): the run's policy
        // check, without the run's flags.
        guard try RunCommand.report(RunService.policies(of: loaded, options: RunOptions()), to: stderr) else {
            throw ExitStatus.invalid.exitCode
        }
        let tests = loaded.reduce(0) { $0 + $1.tests.count }
        let stdout = StandardOutput.out
        stdout.write(
            "\(loaded.count) suite\(loaded.count == 1 ? "" : "s"), \(tests) test\(tests == 1 ? "" : "s"): valid\n")
        stdout.flush()
        // The process ends with this command: freeing a large suite's tests one by one (a tenth of the time it
        // took to load 100,000) would only delay the exit, so the suites are left to it.
        ProcessLifetime.keep(loaded)
    }
}
