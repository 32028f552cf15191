import APITestSupport
import APITestTestSupport
import Foundation
import Testing

/// Shell quoting of reproduce commands, held to what real shells do with it: each word goes through
/// `dash -c` and `bash -c` (`printf '%s\0' WORDS`) and must come back byte for byte, with variables expanded and
/// nothing run. dash is Debian's `/bin/sh`, which knows only POSIX quoting (no `$'...'`).
@Suite struct ShellWordTests {
    /// The shells every command is held to.
    static let shells = ["/bin/dash", "/bin/bash"]

    /// The variable a one-line command sets to a line feed, and the line that sets it.
    static let newline = "apitest_nl"
    static let setsNewline = "apitest_nl=$(printf '\\n.'); apitest_nl=${apitest_nl%.}; "

    /// The words as `shell` hands them to a program, each as bytes.
    static func shellRead(
        _ words: [String], shell: String, prefix: String = "", environment: [String: String] = [:],
        in folder: URL? = nil
    ) throws -> [[UInt8]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", prefix + "printf '%s\\0' " + words.joined(separator: " ")]
        var env = ["PATH": "/usr/bin:/bin"]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell) failed")
        var result = data.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        if result.last == [] { result.removeLast() }
        return result
    }

    /// A fresh folder of this test's own, for the marker file an injected command would create.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Texts a server or a suite could hand the runner: quotes, expansions, globs, comments, control characters.
    /// Each expansion would create `marker` (a harmless `touch`) if the shell ran it.
    static func hostile(marker: String) -> [String] {
        [
            "", "plain", "with space", "it's", #"double "quoted""#, #"back\slash"#, "$(touch \(marker))",
            "`touch \(marker)`", "x'$(touch \(marker))'", "\t'$(touch \(marker))", "${HOME}", "$HOME", "a;b&&c|d",
            "; touch \(marker) #", "*", "~", "!event", "#comment", "line\nbreak", "cr\rlf\n", "tab\there", "\n\n",
            "bell\u{07}", "del\u{7F}", "esc\u{1B}[31m", "über € 😀", "'", "''", "\\'", "-X", "--data", "=", "a=b",
            "{a,b}", "[1-2]", "%s%n", "\\x41", "$'\\n'", "$'\\t'", "a\u{202E}evil\u{202C}b", "\u{2028}\u{200B}\u{FEFF}",
            "c1\u{85}\u{9B}", "'\u{301}$(touch \(marker))'\u{301}",
        ]
    }

    /// Each text of `texts` quoted, read back by dash and by bash, in both forms.
    private func expectRoundTrip(_ texts: [[UInt8]], in folder: URL) throws {
        let words = texts.map { ShellWord([.literal($0)]) }
        for shell in Self.shells {
            let script = try Self.shellRead(words.map(\.quoted), shell: shell, in: folder)
            #expect(script == texts, "\(shell), script form")
            let line = words.map { $0.quoted(.line(newline: Self.newline)) }
            #expect(line.allSatisfy { !$0.utf8.contains(0x0A) })
            let read = try Self.shellRead(line, shell: shell, prefix: Self.setsNewline, in: folder)
            #expect(read == texts, "\(shell), one line")
        }
    }

    @Test func everyTextComesBackAsItWasInDashAndBash() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("MARKER").path
        try expectRoundTrip(Self.hostile(marker: marker).map { Array($0.utf8) }, in: folder)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// The property: random byte strings of every byte value but NUL (no argument can hold one), rich in what
    /// shells treat specially, come back from dash and bash byte for byte. Seeded, so a failure replays.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomBytesComeBackAsTheyWere(seed: UInt64) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: seed)
        let special = Array("'\"$`\\\n\t\r!*?~-#;&|<>(){}[] =%^".utf8)
        let sequences: [[UInt8]] = [
            Array("\u{202E}".utf8), Array("\u{2066}".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8),
            Array("\u{85}".utf8), Array("$(touch MARKER)".utf8), Array("`touch MARKER`".utf8), Array("'\\''".utf8),
            Array("${PATH}".utf8),
        ]
        for _ in 0..<10 {
            var texts: [[UInt8]] = []
            for _ in 0..<40 {
                var bytes: [UInt8] = []
                for _ in 0..<random.below(24) {
                    switch random.below(10) {
                    case 0..<4: bytes.append(UInt8(1 + random.below(255)))
                    case 4..<7: bytes.append(special[random.below(special.count)])
                    case 7: bytes += sequences[random.below(sequences.count)]
                    default: bytes.append(UInt8(0x20 + random.below(0x5F)))
                    }
                }
                texts.append(bytes)
            }
            try expectRoundTrip(texts, in: folder)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("MARKER").path))
    }

    @Test func everyByteValueComesBackAlone() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try expectRoundTrip((1...255).map { [UInt8($0)] } + [Array(1...255)], in: folder)
    }

    @Test func bytesThatAreNotUTF8ComeBackAsTheyWere() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try expectRoundTrip(
            [[0xFF], [0xC3], [0x41, 0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC3, 0xA9, 0xFF, 0x31], [0x80, 0x61]],
            in: folder)
    }

    @Test func onlyPOSIXQuotingIsWritten() {
        // `$'...'` is bash's, which dash reads as `$` and a quoted string: a tab and a quote then ran in dash.
        let word = ShellWord("a\tb'c\nd\u{1B}")
        #expect(word.quoted == #"'a'"$(printf '\t')"'b'\''c"# + "\n" + #"d'"$(printf '\033')""#)
        #expect(word.quoted(.line(newline: "nl")) == #"'a'"$(printf '\t')"'b'\''c'"${nl}"'d'"$(printf '\033')""#)
        for text in ["a\tb", "\u{7F}", "\u{FF}", "x\u{202E}y"] {
            #expect(!ShellWord(text).quoted.contains("$'"), "\(text)")
        }
    }

    @Test func invisibleCharactersAreWrittenByPrintf() {
        // A right-to-left override raw in a command would show the rest of the line reordered.
        #expect(ShellWord("a\u{202E}b").quoted == #"'a'"$(printf '\342\200\256')"'b'"#)
        #expect(ShellWord("\u{200B}").quoted == #""$(printf '\342\200\213')""#)
        #expect(ShellWord("é €").quoted == "'é €'")
    }

    @Test func aNULIsLeftOutAndSaidSo() throws {
        let word = ShellWord([.literal([0x61, 0x00, 0x62])])
        #expect(word.holdsNUL)
        #expect(!ShellWord("ab").holdsNUL)
        for shell in Self.shells {
            #expect(try Self.shellRead([word.quoted], shell: shell) == [[0x61, 0x62]])
        }
    }

    @Test func plainTextStaysBareAndOtherTextIsQuoted() {
        #expect(ShellWord("http://host:8080/a/b.json").quoted == "http://host:8080/a/b.json")
        #expect(ShellWord("a b").quoted == "'a b'")
        #expect(ShellWord("it's").quoted == #"'it'\''s'"#)
        #expect(ShellWord("a\nb").quoted == "'a\nb'")
        #expect(ShellWord("").quoted == "''")
    }

    @Test func variablesExpandInsideDoubleQuotesWithoutSplitting() throws {
        let value = "two  words * $(id) `id` \"q\" 'q'\nline"
        let word = ShellWord([.literal(Array("Bearer ".utf8)), .variable("TOKEN"), .literal(Array("!".utf8))])
        #expect(word.quoted == #"'Bearer '"${TOKEN}"'!'"#)
        for shell in Self.shells {
            #expect(
                try Self.shellRead([word.quoted], shell: shell, environment: ["TOKEN": value])
                    == [Array("Bearer \(value)!".utf8)])
        }
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
