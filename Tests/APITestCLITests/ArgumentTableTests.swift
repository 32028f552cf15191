import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// The quick scanner's tables of `apitest run`'s and `apitest validate`'s options (`RunArgumentTable.swift`,
/// `ValidateArgumentTable.swift`) are generated from the commands' declarations: an option is declared once, with
/// swift-argument-parser, and this test fails until the tables are regenerated
/// (`APITEST_UPDATE_EXPECTED=1 swift test --filter ArgumentTableTests`).
@Suite struct ArgumentTableTests {
    /// A table file, next to the scanner.
    static func tableFile(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/APITestCLI/" + name)
    }

    @Test func runsTableIsGeneratedFromItsDeclarations() throws {
        try Self.checkTable(of: RunCommand.self, in: "RunArgumentTable.swift")
    }

    @Test func validatesTableIsGeneratedFromItsDeclarations() throws {
        try Self.checkTable(of: ValidateCommand.self, in: "ValidateArgumentTable.swift")
    }

    /// Fails when `file` is not the table generated from `command`; writes it when asked to.
    static func checkTable(of command: any ScannableCommand.Type, in file: String) throws {
        let generated = try ArgumentTableGenerator.source(of: command)
        let committed = try? String(contentsOf: tableFile(file), encoding: .utf8)
        if committed != generated, ProcessInfo.processInfo.environment["APITEST_UPDATE_EXPECTED"] == "1" {
            try generated.write(to: tableFile(file), atomically: true, encoding: .utf8)
            return
        }
        #expect(
            committed == generated,
            """
            Sources/APITestCLI/\(file) is out of date with \(command)'s options; regenerate it with
            APITEST_UPDATE_EXPECTED=1 swift test --filter ArgumentTableTests
            """)
    }

    @Test func everyPropertyOfRunIsAnArgumentOfItsDump() throws {
        let properties = try ArgumentTableGenerator.properties(of: RunCommand.self)
        #expect(properties.count > 25)
        #expect(properties.filter { $0.dumped.kind == "positional" }.map(\.path) == [["suites", "paths"]])
        #expect(properties.first { $0.path == ["jobs"] }?.dumped.defaultValue != nil, "defaults are read")
    }

    @Test func everyPropertyOfValidateIsAnArgumentOfItsDump() throws {
        let properties = try ArgumentTableGenerator.properties(of: ValidateCommand.self)
        #expect(
            properties.map { $0.path.joined(separator: ".") } == [
                "suites.paths", "suites.variables", "suites.variablesFiles", "suites.openapi",
                "suites.spec.strictSpec", "suites.noColor",
            ])
    }

    /// Declarations the scanner would misread: the generator refuses them rather than writing a wrong table.
    struct Unsupported: ParsableCommand {
        @Flag(name: .short, help: "A count.") var verbosity: Int
        @Option(parsing: .upToNextOption, help: "Several values at once.") var items: [String] = []
        @Option(help: "Supported.") var name: String?
        @Flag(help: "Supported.") var plain = false
    }

    /// An inversion is two arguments of the dump (`--color`, `--no-color`) for one property.
    struct Inversion: ParsableCommand {
        @Flag(inversion: .prefixedNo, help: "An inversion.") var color = false
    }

    @Test func refusesDeclarationsTheScannerWouldMisread() throws {
        let properties = try ArgumentTableGenerator.properties(of: Unsupported.self)
        #expect(properties.map { $0.path.joined() } == ["verbosity", "items", "name", "plain"])
        for property in properties.prefix(2) {
            #expect(throws: ArgumentTableGenerator.GenerationError.self, "\(property.path)") {
                try ArgumentTableGenerator.action(for: property)
            }
        }
        #expect(try ArgumentTableGenerator.action(for: properties[2]) == ".single { store($1, in: &$0.name) }")
        #expect(try ArgumentTableGenerator.action(for: properties[3]) == ".flag { $0.plain = true }")
        #expect(throws: ArgumentTableGenerator.GenerationError.self) {
            try ArgumentTableGenerator.properties(of: Inversion.self)
        }
    }
}
