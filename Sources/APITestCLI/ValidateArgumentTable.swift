// swift-format-ignore-file
// GENERATED from the declarations of `apitest validate` (ValidateCommand and its option groups) by
// Tests/APITestCLITests/ArgumentTableTests.swift: do not edit. After adding, changing or removing an option
// of `validate`, regenerate it with
//     APITEST_UPDATE_EXPECTED=1 swift test --filter ArgumentTableTests
// (the test fails until then) and review the diff.

extension ValidateCommand: ScannableCommand {
    /// Every option and flag of `validate` and its option groups, as swift-argument-parser spells them.
    static let scannedOptions: [ArgumentScanner<ValidateCommand>.Option] = [
        .init(names: ["--var"], action: .repeating { append($1, to: &$0.suites.variables) }),
        .init(names: ["--variables-file"], action: .repeating { append($1, to: &$0.suites.variablesFiles) }),
        .init(names: ["--openapi"], action: .single { store($1, in: &$0.suites.openapi) }),
        .init(names: ["--strict-spec"], action: .flag { $0.suites.spec.strictSpec = true }),
        .init(names: ["--no-color"], action: .flag { $0.suites.noColor = true }),
    ]

    /// Appends a suite path (`validate`'s positional argument).
    static func appendPath(_ path: String, to command: inout ValidateCommand) {
        command.suites.paths.append(path)
    }

    /// `validate` with every option at its declared default and no path.
    static func scanningDefaults() -> ValidateCommand {
        var suites_spec = SpecOptions()
        suites_spec.strictSpec = false
        var suites = SuiteOptions()
        suites.paths = []
        suites.variables = []
        suites.variablesFiles = []
        suites.openapi = nil
        suites.spec = suites_spec
        suites.noColor = false
        var command = ValidateCommand()
        command.suites = suites
        return command
    }

    /// The checks of the option groups, which swift-argument-parser runs as it decodes them.
    static func validateGroups(of command: inout ValidateCommand) throws {
        try command.suites.spec.validate()
        try command.suites.validate()
    }
}
