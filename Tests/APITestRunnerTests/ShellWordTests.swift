import Foundation
import Testing

@testable import APITestRunner

/// Shell quoting of reproduce commands, held to what a real shell does with it: each word goes through
/// `bash -c 'printf "%s\0" WORDS'` and must come back byte for byte, with variables expanded and nothing run.
@Suite struct ShellWordTests {
    /// The words as `bash` hands them to a program, each as bytes.
    private func shellRead(_ words: [String], environment: [String: String] = [:]) throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "printf '%s\\0' " + words.joined(separator: " ")]
        var env = ["PATH": "/usr/bin:/bin"]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var result = data.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        if result.last == [] { result.removeLast() }
        return result
    }

    /// Texts a server or a suite could hand the runner: quotes, expansions, globs, comments, control characters.
    static let hostile: [String] = [
        "", "plain", "with space", "it's", #"double "quoted""#, #"back\slash"#, "$(touch /tmp/apitest-pwned)",
        "`touch /tmp/apitest-pwned`", "${HOME}", "$HOME", "a;b&&c|d", "*", "~", "!event", "#comment", "line\nbreak",
        "cr\rlf\n", "tab\there", "bell\u{07}", "del\u{7F}", "esc\u{1B}[31m", "über € 😀", "'", "''", "\\'", "-X",
        "--data", "=", "a=b", "{a,b}", "[1-2]", "%s%n", "\\x41", "$'\\n'",
    ]

    @Test func everyTextComesBackAsItWas() throws {
        let words = Self.hostile.map { ShellWord($0).quoted }
        let read = try shellRead(words)
        #expect(read == Self.hostile.map { Array($0.utf8) })
        #expect(!FileManager.default.fileExists(atPath: "/tmp/apitest-pwned"))
    }

    @Test func bytesThatAreNotUTF8ComeBackAsTheyWere() throws {
        let samples: [[UInt8]] = [
            [0xFF], [0xC3], [0x41, 0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC3, 0xA9, 0xFF, 0x31], [0x80, 0x61],
        ]
        let words = samples.map { ShellWord([.literal($0)]).quoted }
        #expect(try shellRead(words) == samples)
    }

    @Test func plainTextStaysBareAndOtherTextIsQuoted() {
        #expect(ShellWord("http://host:8080/a/b.json").quoted == "http://host:8080/a/b.json")
        #expect(ShellWord("a b").quoted == "'a b'")
        #expect(ShellWord("it's").quoted == #"'it'\''s'"#)
        #expect(ShellWord("a\nb").quoted == #"$'a\nb'"#)
        #expect(ShellWord("").quoted == "''")
    }

    @Test func variablesExpandInsideDoubleQuotesWithoutSplitting() throws {
        let value = "two  words * $(id) `id` \"q\" 'q'\nline"
        let word = ShellWord([.literal(Array("Bearer ".utf8)), .variable("TOKEN"), .literal(Array("!".utf8))])
        #expect(word.quoted == #"'Bearer '"${TOKEN}"'!'"#)
        #expect(try shellRead([word.quoted], environment: ["TOKEN": value]) == [Array("Bearer \(value)!".utf8)])
    }

    @Test func onlyShellNamesAreVariables() {
        #expect(ShellWord.isVariableName("API_TOKEN"))
        #expect(ShellWord.isVariableName("_x1"))
        #expect(!ShellWord.isVariableName("1x"))
        #expect(!ShellWord.isVariableName("my-token"))
        #expect(!ShellWord.isVariableName("a.b"))
        #expect(!ShellWord.isVariableName(""))
    }
}
