import ArgumentParser

/// `apitest import`: suites written from what people used before apitest (curl command lines, browser recordings,
/// Postman collections). Each subcommand parses its source into a `SuiteDocument` and hands it to
/// ``ImportOutputOptions/write(_:notes:)``.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a suite from curl command lines, a HAR recording or a Postman collection: see docs/import.md.",
        subcommands: [ImportCurlCommand.self, ImportPostmanCommand.self, ImportHARCommand.self]
    )
}
