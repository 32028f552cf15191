import ArgumentParser

/// `apitest generate`: suites written from another description of an API (an OpenAPI document).
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write suites from a description of an API.",
        subcommands: [GenerateOpenAPICommand.self]
    )
}
