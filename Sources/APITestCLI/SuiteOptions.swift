import ArgumentParser

/// Options shared by the commands that load suites: variables and colour.
struct SuiteOptions: ParsableArguments {
    @Argument(help: "Suite files or folders.")
    var paths: [String]

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "Set a variable, overriding the suite's; the name is one a suite variable may have, not env.NAME.",
            valueName: "name=value")
    )
    var variables: [String] = []

    @Option(
        name: .customLong("variables-file"),
        help: ArgumentHelp(
            "Read variables from a YAML map or a .env file (NAME=value lines). Values whose names look like "
                + "credentials (API_KEY, token, password, ...) are secret and masked in reports. Repeatable: later "
                + "files and --var win.",
            valueName: "file"))
    var variablesFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "Check every response against this OpenAPI 3.0/3.1 document (YAML or JSON) in each suite that names "
                + "none itself with 'openapi:'.",
            valueName: "file"))
    var openapi: String?

    @Flag(help: "Never colour the output (also when NO_COLOR is set).")
    var noColor = false

    mutating func validate() throws {
        for path in paths { try CommandLineFile.checkSuitePath(path) }
        if let openapi { try CommandLineFile.check(openapi, flag: "--openapi") }
        _ = try overrides()
    }
}
