import APITestReporting
import APITestSuite
import ArgumentParser
import Foundation

/// `apitest validate`: load and check suites without sending a request.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check suite files without running them; every error of every file, as file:line:column.",
        discussion: """
            Examples:
              apitest validate examples/
              apitest validate api.yaml --var port=8080
            """
    )

    @Argument(help: "Suite files or folders.")
    var paths: [String]

    @Option(name: .customLong("var"), help: ArgumentHelp("Set a variable, overriding the suite's.", valueName: "name=value"))
    var variables: [String] = []

    @Flag(help: "Never colour the output (also when NO_COLOR is set).")
    var noColor = false

    func run() throws {
        var overrides: [String: String] = [:]
        for item in variables {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("--var expects name=value, got '\(item)'")
            }
            overrides[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        let environment = ProcessInfo.processInfo.environment
        let stderr = StandardOutput.error
        let loader = SuiteSetLoader(
            loader: SuiteLoader(environment: environment, overrides: overrides), errorOutput: stderr,
            colored: ANSIStyle.shouldColor(output: stderr, environment: environment, disabled: noColor))
        guard let suites = loader.load(paths: paths) else { throw ExitStatus.invalid.exitCode }
        let tests = suites.reduce(0) { $0 + $1.tests.count }
        print("\(suites.count) suite\(suites.count == 1 ? "" : "s"), \(tests) test\(tests == 1 ? "" : "s"): valid")
    }
}
