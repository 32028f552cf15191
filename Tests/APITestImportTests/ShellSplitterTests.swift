import APITestSuiteWriting
import APITestSupport
import Foundation
import Testing

@testable import APITestImport

/// The splitter reads words as bash does: each input is also given to `bash -c 'printf "%s\n" …'` and the words
/// must be the same (environment references compared by name: bash runs with them unset is not what we want, so
/// they are set to `<NAME>` there).
struct ShellSplitterTests {
    /// Inputs whose words bash and the splitter must agree on.
    static let inputs: [String] = [
        "a b  c",
        "'single quoted' \"double quoted\"",
        "'it'\\''s'",
        "\"a \\\"b\\\" \\\\ \\$ \\x\"",
        "a\\ b c\\\\d",
        "one \\\n two",
        "\"multi \\\nline\"",
        "'keeps \\n'",
        "$'tab\\there' $'nl\\nx' $'quote\\'s' $'\\x41\\101\\u00e9'",
        "$'\\e[0m' $'\\a\\b\\f\\v\\r' $'\\cA'",
        "\"$HOME\" \"${HOME}/x\" pre$HOME-post",
        "'$HOME' \"\\$HOME\"",
        "a$ b \"$\" $",
        "-H'X: y' -XPOST --data=@f",
        "a#b # comment",
        "\"\" '' x",
        "a'b'\"c\"d",
        "ünï cödé",
        "$\"locale\"",
    ]

    /// bash's words for `input` (environment references as `<NAME>`).
    func bashWords(_ input: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "printf '%s\\0' " + input]
        process.environment = ["HOME": "<HOME>", "LC_ALL": "C.UTF-8"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var words = String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
            .map(String.init)
        if words.last == "" { words.removeLast() }
        return words
    }

    /// The splitter's words for `input`, references as `<NAME>`.
    func splitterWords(_ input: String) throws -> [String] {
        let commands = try ShellSplitter.commands("printf " + input)
        try #require(commands.count == 1)
        return commands[0].words.dropFirst().map { word in
            word.pieces.map {
                switch $0 {
                case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
                case .variable(let name): "<\(name)>"
                }
            }.joined()
        }
    }

    @Test(arguments: inputs)
    func wordsAreBashs(_ input: String) throws {
        #expect(try splitterWords(input) == (try bashWords(input)), "\(input)")
    }

    @Test func commandsAreSeparatedAndPipesMarked() throws {
        let commands = try ShellSplitter.commands(
            """
            curl a; curl b && curl c || curl d
            # a comment line

            curl e | jq . > out.json
            curl f 2>/dev/null
            """)
        #expect(
            commands.map { $0.words.first?.literal ?? "" } == ["curl", "curl", "curl", "curl", "curl", "jq", "curl"])
        #expect(commands.map(\.line) == [1, 1, 1, 1, 4, 4, 5])
        #expect(commands[5].isPipeTarget)
        #expect(commands[5].redirections == ["> out.json"])
        #expect(commands[6].redirections == ["2> /dev/null"])
    }

    @Test func environmentReferencesStayReferences() throws {
        let word = try #require(try ShellSplitter.commands("x \"Bearer $TOKEN\"-${SUFFIX}x").first?.words.last)
        #expect(
            word.pieces == [
                .text("Bearer "), .variable("TOKEN"), .text("-"), .variable("SUFFIX"), .text("x"),
            ])
        #expect(word.description == "Bearer $TOKEN-$SUFFIXx")
    }

    /// One shell word for reading and writing: the words the splitter reads, quoted again by the reproduce
    /// commands' quoting (``ShellWord/quoted(_:)``), are the words bash reads from the original input.
    @Test(arguments: inputs)
    func splitWordsQuotedAgainReadTheSame(_ input: String) throws {
        let commands = try ShellSplitter.commands("printf " + input)
        try #require(commands.count == 1)
        let quoted = commands[0].words.dropFirst().map(\.quoted).joined(separator: " ")
        #expect(try bashWords(quoted) == (try bashWords(input)), "\(input) as \(quoted)")
    }

    @Test(arguments: [
        ("curl 'open", "line 1, column 6: unterminated single quote"),
        ("curl \\\n\"open", "line 2, column 1: unterminated double quote"),
        ("curl $(whoami)", "line 1, column 6: command substitution ($(…)) is not supported: write the value"),
        (
            "curl `id`",
            "line 1, column 6: command substitution (`…`) is not supported: write the value, or an environment variable"
        ),
        ("curl $1", "line 1, column 6: $1 is not supported: only environment variables ($NAME) are"),
        (
            "curl ${A:-b}",
            "line 1, column 6: ${A:-b} is not supported: only ${NAME} and $NAME (an environment variable) are"
        ),
        ("curl $'x", "line 1, column 6: unterminated $' quote"),
    ])
    func errorsHaveTheirPlace(_ input: String, _ message: String) {
        #expect(throws: (any Error).self) { try ShellSplitter.commands(input) }
        do {
            _ = try ShellSplitter.commands(input)
        } catch {
            #expect(error.description == message)
        }
    }
}
