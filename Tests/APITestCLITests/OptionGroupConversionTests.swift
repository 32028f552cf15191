import APITestRunner
import APITestSuite
import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// Each option group of `run` (and `list`, `load`) reads its values once, when it is validated, and every command
/// takes what that reading made (issue 36, item 5): `--var`, the selection (`--shard`, `--shard-timings`), the
/// transport flags and the TLS flags (``TLSFlagsTests``). Both of `run`'s parsers keep the same values.
@Suite struct OptionGroupConversionTests {
    static let arguments = [
        "suite.yaml", "--var", "a=1", "--var", "b=x=y", "--var", "a=2", "--shard", "2/3", "--tag", "smoke",
        "--http-version", "2-prior-knowledge", "--unix-socket", "api.sock", "--resolve", "h:80:127.0.0.1",
    ]

    @Test func validationKeepsWhatEachGroupRead() throws {
        let parsed = try #require(try APITestCommand.parseAsRoot(["run"] + Self.arguments) as? RunCommand)
        let scanned = try #require(ArgumentScanner<RunCommand>.command(for: Self.arguments))
        for command in [parsed, scanned] {
            let variables = try #require(command.suites.validatedVariables, "--var was not kept")
            #expect(variables.map(\.name) == ["a", "b", "a"])
            #expect(try command.suites.overrides() == ["a": "2", "b": "x=y"])
            let selection = try #require(command.selection.validated, "the selection was not kept")
            #expect(selection.shard == (try ShardSpec(parsing: "2/3")))
            #expect(selection.tags == ["smoke"])
            let transport = try #require(command.transport.validated, "the transport flags were not kept")
            #expect(transport.httpVersion == .http2PriorKnowledge)
            #expect(transport.unixSocket == FileManager.default.currentDirectoryPath + "/api.sock")
            #expect(transport.resolve == ["h:80:127.0.0.1"])
            #expect(try command.transport.overrides() == transport)
        }
    }

    @Test func theReportsAreResolvedOnceWhenValidated() throws {
        let folder = FileManager.default.temporaryDirectory.path
        let arguments = ["suite.yaml", "--report-json", folder + "/r.json", "--report-junit", folder + "/j.xml"]
        let parsed = try #require(try APITestCommand.parseAsRoot(["run"] + arguments) as? RunCommand)
        let scanned = try #require(ArgumentScanner<RunCommand>.command(for: arguments))
        for command in [parsed, scanned] {
            let kept = try #require(command.reports.validatedDestinations, "the destinations were not kept")
            #expect(kept.map(\.path) == [folder + "/j.xml", folder + "/r.json"])
            #expect(try command.reports.destinations().map(\.destination) == kept)
        }
    }

    @Test func loadTakesTheShardFromTheSelectionItValidated() throws {
        let load = try #require(
            try APITestCommand.parseAsRoot([
                "load", "suite.yaml", "--rate", "1/s", "--duration", "1s", "--shard", "1/2",
            ])
                as? LoadCommand)
        #expect(try load.selection.selection().shard == (try ShardSpec(parsing: "1/2")))
    }
}
