import Foundation
import Testing

/// No control character from a command-line value, a file name found in a folder, or a suite's names reaches the
/// terminal as itself: `apitest list`, a failing step's location line and every command-line error show it as
/// `\u{1B}` (an escape sequence there could recolour the screen, set the window title or hide text).
@Suite struct TerminalEscapingCLITests {
    /// A name that sets the terminal's title (OSC) and one that turns text red (CSI).
    static let title = "ok\u{1B}]0;pwned\u{7}"
    static let red = "t\u{1B}[31mred"

    /// Whether `text` holds ESC or BEL as themselves.
    static func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }
    }

    @Test func aFolderWithHostileFileAndTestNamesIsListedAndRunEscaped() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-escape-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Port 9 (discard) on the loopback refuses: the step errors, and its location line names the file. The test's
        // name is written with YAML's escape `\e` (a suite file cannot hold ESC itself).
        try """
        baseURL: http://127.0.0.1:9
        tests:
          - name: "t\\e[31mred"
            request: {url: /}
        """.write(to: folder.appendingPathComponent("\(Self.title).yaml"), atomically: true, encoding: .utf8)
        try "tests:\n  - name: x\n    stauts: 1\n".write(
            to: folder.appendingPathComponent("bad\u{1B}[2J.yml"), atomically: true, encoding: .utf8)

        let validate = try await runAPITest(["validate", folder.path, "--no-color"])
        #expect(validate.exitCode == 2)
        #expect(validate.stderr.contains(#"bad\u{1B}[2J.yml:3:5"#), "\(validate.stderr)")
        for text in [validate.stdout, validate.stderr] { #expect(!Self.hasRawControls(text), "\(text)") }

        try FileManager.default.removeItem(at: folder.appendingPathComponent("bad\u{1B}[2J.yml"))
        let list = try await runAPITest(["list", folder.path])
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(
            list.stdout.contains(#"ok\u{1B}]0;pwned\u{7}.yaml › ok\u{1B}]0;pwned\u{7} › t\u{1B}[31mred"#),
            "\(list.stdout)")
        #expect(!Self.hasRawControls(list.stdout), "\(list.stdout)")

        let run = try await runAPITest(["run", folder.path, "--no-color"])
        #expect(run.exitCode == 1)
        #expect(run.stdout.contains(#"ok\u{1B}]0;pwned\u{7}.yaml:4:14: connection refused"#), "\(run.stdout)")
        for text in [run.stdout, run.stderr] { #expect(!Self.hasRawControls(text), "\(text)") }
    }

    @Test(arguments: [
        ["run", "nope\u{1B}[31m.yaml"],
        ["run", "nope.yaml", "--jobs", "4\u{1B}[2J"],
        ["run", "nope.yaml", "--var", "a\u{1B}[1m=b"],
        ["load", "nope.yaml", "--rate", "1/s", "--duration", "1s", "--threshold", "p99<\u{1B}[31m\u{7}"],
        ["validate", "nope.yaml", "--bogus\u{1B}[5m"],
    ])
    func aCommandLineValueInAnErrorIsShownEscaped(_ arguments: [String]) async throws {
        let result = try await runAPITest(arguments)
        #expect(result.exitCode != 0)
        #expect(result.stderr.contains(#"\u{1B}["#), "\(result.stderr)")
        for text in [result.stdout, result.stderr] { #expect(!Self.hasRawControls(text), "\(text)") }
    }
}
