import ArgumentParser

/// Options shared by the commands that load suites: variables and colour.
struct SuiteOptions: ParsableArguments {
    @Argument(help: "Suite files or folders.", completion: .file(extensions: ["yaml", "yml"]))
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
            valueName: "file"), completion: .file())
    var variablesFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "Check every response against this OpenAPI 3.0/3.1 document (YAML or JSON) in each suite that names "
                + "none itself with 'openapi:'.",
            valueName: "file"), completion: .file(extensions: ["yaml", "yml", "json"]))
    var openapi: String?

    /// `--strict-spec`, for the documents `--openapi` and the suites' `openapi:` name.
    @OptionGroup var spec: SpecOptions

    @Flag(help: "Never colour the output (also when NO_COLOR is set).")
    var noColor = false

    /// The `--var` values, read by ``validate()`` (in the order given); not an argument.
    private(set) var validatedVariables: [(name: String, value: String)]?

    /// The arguments, for swift-argument-parser; ``validatedVariables`` is not one. A new option needs its key here:
    /// a debug build of swift-argument-parser refuses to parse a command while one is missing, so its tests fail.
    private enum CodingKeys: String, CodingKey {
        case paths, variables, variablesFiles, openapi, spec, noColor
    }

    /// Refuses a suite path or `--openapi` that is not a file apitest can read, and a malformed `--var`; keeps the
    /// variables, so that no command reads them again.
    mutating func validate() throws {
        for path in paths { try CommandLineFile.checkSuitePath(path) }
        if let openapi { try CommandLineFile.check(openapi, flag: "--openapi") }
        validatedVariables = try parsedVariables()
    }
}
