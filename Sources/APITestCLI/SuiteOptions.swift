import APITestReporting
import APITestSuite
import ArgumentParser
import Foundation

/// Options shared by the commands that load suites: variables and colour.
struct SuiteOptions: ParsableArguments {
    @Argument(help: "Suite files or folders.")
    var paths: [String]

    @Option(
        name: .customLong("var"), help: ArgumentHelp("Set a variable, overriding the suite's.", valueName: "name=value")
    )
    var variables: [String] = []

    @Option(
        name: .customLong("variables-file"),
        help: ArgumentHelp(
            "Read variables from a YAML map or a .env file (NAME=value lines; its values are secret and masked in "
                + "reports). Repeatable: later files and --var win.",
            valueName: "file"))
    var variablesFiles: [String] = []

    @Flag(help: "Never colour the output (also when NO_COLOR is set).")
    var noColor = false

    mutating func validate() throws {
        _ = try overrides()
    }

    /// The `--var` values by name; a later `--var` of the same name wins.
    func overrides() throws -> [String: String] {
        var result: [String: String] = [:]
        for item in variables {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("--var expects name=value, got '\(item)'")
            }
            result[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return result
    }

    /// A loader for the suites with the variables of `--variables-file` and `--var`; a bad variables file is
    /// reported on `errorOutput` and ends the command with exit code 2.
    func setLoader(environment: [String: String], errorOutput: TextOutput) throws -> SuiteSetLoader {
        let colored = ANSIStyle.shouldColor(output: errorOutput, environment: environment, disabled: noColor)
        var values: [String: String] = [:]
        var secrets: Set<String> = []
        var failed = false
        for path in variablesFiles {
            do {
                let file = try VariablesFile.load(path: path)
                for (name, value) in file.values {
                    values[name] = value
                    if file.secretNames.contains(name) { secrets.insert(name) } else { secrets.remove(name) }
                }
            } catch {
                errorOutput.write(error.render(colored: colored) + "\n")
                failed = true
            }
        }
        if failed {
            errorOutput.write("a variables file is invalid; nothing was run.\n")
            errorOutput.flush()
            throw ExitStatus.invalid.exitCode
        }
        for (name, value) in try overrides() {
            values[name] = value
            secrets.remove(name)
        }
        var loader = SuiteLoader(environment: environment, overrides: values)
        loader.secretOverrides = secrets
        return SuiteSetLoader(loader: loader, errorOutput: errorOutput, colored: colored)
    }
}
