import ArgumentParser

/// `apitest export`: suites written out in another tool's form (curl command lines).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the requests of suites in another tool's form, without sending them.",
        subcommands: [ExportCurlCommand.self]
    )
}
