import Foundation
import Testing

/// `--help` of every command on an 80-column terminal: swift-argument-parser wraps each line of a command's
/// discussion at the last space that fits, so a line of an example or of a table wider than the screen loses its
/// indentation and may be cut between a flag and its value.
@Suite struct HelpTextTests {
    static let commands: [[String]] = [
        [], ["run"], ["validate"], ["list"], ["pin-check"], ["import", "curl"], ["import", "postman"],
        ["import", "har"], ["export", "curl"],
    ]

    /// The discussion of `command` as written in the source, from `--experimental-dump-help`.
    static func discussion(of command: [String]) async throws -> String {
        let dump = try await runProcess(try TestBinaries.url("apitest"), ["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var node = try #require(root["command"] as? [String: Any])
        for name in command {
            let children = try #require(node["subcommands"] as? [[String: Any]])
            node = try #require(children.first { $0["commandName"] as? String == name })
        }
        return try #require(node["discussion"] as? String)
    }

    @Test(arguments: commands)
    func helpFitsEightyColumnsWithoutSplittingAFlagFromItsValue(_ command: [String]) async throws {
        let result = try await runProcess(
            try TestBinaries.url("apitest"), command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines {
            #expect(line.count <= 80, "wider than 80 columns: \(line)")
        }

        // The flags that take a value, as the option list shows them: `--report-html <file>`.
        var valueFlags: Set<String> = []
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated().dropLast() where word.hasPrefix("-") {
                let flag = word.hasSuffix(",") ? String(word.dropLast()) : word
                if words[index + 1].hasPrefix("<") { valueFlags.insert(flag) }
            }
        }
        #expect(
            command == [] || valueFlags.contains("--var") || valueFlags.contains("--pin")
                || valueFlags.contains("--output"))
        for (number, line) in lines.enumerated() {
            guard let last = line.split(separator: " ").last.map(String.init), valueFlags.contains(last) else {
                continue
            }
            Issue.record("line \(number + 1) ends between \(last) and its value:\n\(line)\n\(lines[number + 1])")
        }

        // Every indented line of the discussion (examples, tables) is shown as written: not re-wrapped.
        let discussion = try await Self.discussion(of: command)
        for line in discussion.split(separator: "\n") where line.hasPrefix(" ") {
            #expect(lines.contains(String(line)), "re-wrapped at 80 columns: \(line)")
        }
    }
}
