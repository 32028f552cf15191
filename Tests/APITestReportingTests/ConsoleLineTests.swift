import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// A test's console line, built as bytes (issue 38): the same text as the strings it replaced, with and without
/// colour, names escaped as `ReportText.terminalLine` escapes them.
@Suite("Console line")
struct ConsoleLineTests {
    private func line(_ result: TestResult, colored: Bool, verbosity: ConsoleReporter.Verbosity = .normal) -> String {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: colored, verbosity: verbosity)
        console.handle(.testFinished(result))
        return output.text
    }

    @Test func aPassingTestsLine() {
        #expect(line(ReportFixtures.passed, colored: false) == "✔ Users API › list users (12 ms)\n")
        #expect(
            line(ReportFixtures.passed, colored: true)
                == "\u{1B}[32m✔\u{1B}[0m Users API › list users \u{1B}[2m(12 ms)\u{1B}[0m\n")
        #expect(line(ReportFixtures.passed, colored: false, verbosity: .quiet) == "")
    }

    /// The duration is written as `DurationFormatter` writes it, whichever of its forms (the line writes the
    /// milliseconds form as digits itself).
    @Test func theDurationIsWrittenAsTheFormatterWritesIt() {
        let edges: [Duration] = [
            .zero, .microseconds(999), .microseconds(9_949), .microseconds(9_950), .milliseconds(10),
            .microseconds(10_499), .microseconds(10_500), .microseconds(99_500), .milliseconds(100),
            .microseconds(999_499), .microseconds(999_500), .milliseconds(999), .seconds(1), .milliseconds(1_250),
            .seconds(59), .seconds(75), .milliseconds(-500), .seconds(-2),
        ]
        for duration in edges + (0..<1_100).map({ Duration.microseconds($0 * 997) }) {
            var result = ReportFixtures.passed
            result.duration = duration
            #expect(
                line(result, colored: false) == "✔ Users API › list users (\(DurationFormatter.format(duration)))\n",
                "\(duration)")
        }
    }

    /// Standard output takes the line's bytes as they are, after and before text written as strings.
    @Test func aLineWrittenToAStandardStreamArrivesWhole() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = StandardOutput(descriptor: ends[1])
        output.write("before\n")
        ConsoleReporter(output: output, progress: nil, colored: false).handle(
            .testFinished(ReportFixtures.passed))
        output.write("after\n")
        output.flush()
        close(ends[1])
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(ends[0], &chunk, chunk.count), count > 0 { received += chunk[..<count] }
        #expect(
            String(decoding: received, as: UTF8.self) == "before\n✔ Users API › list users (12 ms)\nafter\n")
    }

    @Test func namesAreEscapedForOneTerminalLine() {
        for name in [
            "tab\there", "line\nbreak", "caf\u{E9} \u{2713}", "bidi \u{202E}txt", "del\u{7F}", "esc\u{1B}[31m",
        ] {
            let result = ReportFixtures.result(name, .passed, line: 3)
            #expect(
                line(result, colored: false)
                    == "✔ Users API › \(ReportText.terminalLine(name)) (12 ms)\n", "\(name)")
        }
        #expect(line(ReportFixtures.result("a\tb", .passed, line: 3), colored: false).contains(#"a\tb"#))
    }

    @Test func otherStatusesKeepTheirMarksAndNotes() {
        let skipped = ReportFixtures.result("later", .skipped, line: 4, reason: "needs\tsetup")
        #expect(line(skipped, colored: false) == "- Users API › later (12 ms) - needs\\tsetup\n")
        #expect(
            line(skipped, colored: true)
                == "\u{1B}[33m-\u{1B}[0m Users API › later \u{1B}[2m(12 ms)\u{1B}[0m\u{1B}[2m - needs\\tsetup\u{1B}[0m\n"
        )
        let failed = line(ReportFixtures.failed, colored: false)
        #expect(failed.hasPrefix("✘ Users API › create a user (8.0 ms)\n    POST "), "\(failed)")
        #expect(failed.contains("expected status 201, got 400\n"))
    }
}
