import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// `Sources/APITestCLI/RunArgumentTable.swift`, the quick scanner's table of `apitest run`'s options, is generated
/// from `RunCommand`'s declarations: a `run` option is declared once, with swift-argument-parser, and this test
/// fails until the table is regenerated (`APITEST_UPDATE_EXPECTED=1 swift test --filter RunArgumentTableTests`).
@Suite struct RunArgumentTableTests {
    /// The generated file, next to the scanner.
    static let tableFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/APITestCLI/RunArgumentTable.swift")

    @Test func theTableIsGeneratedFromRunsDeclarations() throws {
        let generated = try RunArgumentTableGenerator.source()
        let committed = try? String(contentsOf: Self.tableFile, encoding: .utf8)
        if committed != generated, ProcessInfo.processInfo.environment["APITEST_UPDATE_EXPECTED"] == "1" {
            try generated.write(to: Self.tableFile, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            committed == generated,
            """
            Sources/APITestCLI/RunArgumentTable.swift is out of date with RunCommand's options; regenerate it with
            APITEST_UPDATE_EXPECTED=1 swift test --filter RunArgumentTableTests
            """)
    }

    @Test func everyPropertyOfRunIsAnArgumentOfItsDump() throws {
        let properties = try RunArgumentTableGenerator.properties()
        #expect(properties.count > 25)
        #expect(properties.filter { $0.dumped.kind == "positional" }.map(\.path) == [["suites", "paths"]])
        #expect(properties.first { $0.path == ["jobs"] }?.dumped.defaultValue != nil, "defaults are read")
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
        let properties = try RunArgumentTableGenerator.properties(of: Unsupported.self)
        #expect(properties.map { $0.path.joined() } == ["verbosity", "items", "name", "plain"])
        for property in properties.prefix(2) {
            #expect(throws: RunArgumentTableGenerator.GenerationError.self, "\(property.path)") {
                try RunArgumentTableGenerator.action(for: property)
            }
        }
        #expect(try RunArgumentTableGenerator.action(for: properties[2]) == ".single { store($1, in: &$0.name) }")
        #expect(try RunArgumentTableGenerator.action(for: properties[3]) == ".flag { $0.plain = true }")
        #expect(throws: RunArgumentTableGenerator.GenerationError.self) {
            try RunArgumentTableGenerator.properties(of: Inversion.self)
        }
    }
}
