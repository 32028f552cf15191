import ArgumentParser

/// Options shared by the commands that load suites: variables and colour.
struct SuiteOptions: ParsableArguments {
    @Argument(help: "Suite files or folders.")
    var paths: [String]

    @Option(
        name: .customLong("var"), help: ArgumentHelp("Set a variable, overriding the suite's.", valueName: "name=value")
    )
    var variables: [String] = []

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
}
