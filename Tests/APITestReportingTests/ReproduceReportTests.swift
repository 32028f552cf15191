import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// Each failed or errored step's reproduce command in every report that shows failures, and the `--curl` file:
/// every recorded command, in the order sent.
@Suite("Reproduce commands in reports")
struct ReproduceReportTests {
    static let command = ReproduceCommand(
        words: ["curl", "http://127.0.0.1:8080/api/users", "-H", #"'Authorization: Bearer '"${API_TOKEN}""#],
        notes: ["a note \u{1B}[31m with an escape"], sequence: 2)

    /// The failed fixture with its command, and a passing test whose step carries one too (a `--curl` run).
    static var record: RunRecord {
        var failed = ReportFixtures.failed
        failed.steps[0].change { $0.reproduce = command }
        var passed = ReportFixtures.passed
        passed.steps[0].change {
            $0.reproduce = ReproduceCommand(words: ["curl", "http://127.0.0.1:8080/api/users"], sequence: 1)
        }
        var errored = ReportFixtures.errored
        errored.steps[0].change {
            $0.earlierAttempts = [ReproduceCommand(words: ["curl", "http://127.0.0.1:9/down"], sequence: 3)]
        }
        errored.steps[0].change {
            $0.reproduce = ReproduceCommand(words: ["curl", "http://127.0.0.1:9/down"], sequence: 4)
        }
        let results = [failed, passed, errored]
        var summary = RunSummary(duration: .milliseconds(20))
        for result in results { summary.record(result.status) }
        return RunRecord(
            plan: nil, results: results, summary: summary, startedAt: ReportFixtures.startedAt, hostname: "ci")
    }

    @Test("the console prints one reproduce line under a failure, escaped for the terminal")
    func console() {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        var failed = ReportFixtures.failed
        // A word as the runner writes it never holds a control character; one that did would still be escaped.
        failed.steps[0].change {
            $0.reproduce = ReproduceCommand(words: ["curl", #"$'a\nb'"#, "'\u{1B}[2J'", "'x\ny'"])
        }
        console.handle(.testFinished(failed))
        #expect(output.text.contains(#"    reproduce: curl $'a\nb' '\u{1B}[2J' 'x\ny'"# + "\n"), "\(output.text)")
        #expect(!output.text.contains("\u{1B}"))
    }

    @Test("the console prints the command's notes under it, escaped: which variable a secret needs")
    func consoleNotes() {
        let output = BufferedOutput()
        let console = ConsoleReporter(output: output, progress: nil, colored: false)
        var failed = ReportFixtures.failed
        failed.steps[0].change { $0.reproduce = Self.command }
        console.handle(.testFinished(failed))
        #expect(
            output.text.contains("    reproduce: \(Self.command.line)\n    note: a note \\u{1B}[31m with an escape\n"))
        #expect(!output.text.contains("\u{1B}"), "\(output.text)")
    }

    @Test("JUnit, JSON and HTML carry the command of a failed step, not of a passing one")
    func fileReports() throws {
        let junit = JUnitReportFormat().render(Self.record)
        #expect(junit.contains("  reproduce: \(ReportText.xmlText(Self.command.line))"), "\(junit)")
        #expect(junit.contains("  note: a note"))

        let json = JSONReportFormat().render(Self.record)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let tests = try #require((document["suites"] as? [[String: Any]])?.first?["tests"] as? [[String: Any]])
        func reproduce(_ name: String) -> [String: Any]? {
            let test = tests.first { $0["name"] as? String == name }
            return ((test?["steps"] as? [[String: Any]])?.first)?["reproduce"] as? [String: Any]
        }
        #expect(reproduce("create a user")?["command"] as? String == Self.command.line)
        #expect(reproduce("create a user")?["notes"] as? [String] == Self.command.notes)
        #expect(reproduce("list users") == nil, "a passing step has no reproduce member")
        #expect(reproduce("connection refused")?["command"] as? String == "curl http://127.0.0.1:9/down")

        let html = HTMLReportFormat().render(Self.record)
        #expect(html.contains("<pre><code>\(ReportText.html(Self.command.line))</code></pre>"), "\(html)")
        #expect(!html.contains("<pre><code>curl http://127.0.0.1:8080/api/users</code>"))
    }

    @Test("the --curl file lists every command in the order sent, attempts included")
    func curlFile() {
        let script = CurlCommandsFormat().render(Self.record)
        let labels = script.split(separator: "\n").filter { $0.hasPrefix("# Users API") }
        #expect(
            labels == [
                "# Users API › list users › step 1", "# Users API › create a user › step 1",
                "# Users API › connection refused › step 1 (attempt 1)",
                "# Users API › connection refused › step 1 (attempt 2)",
            ])
        #expect(script.contains("# note: a note"))
        #expect(script.contains(#"-H 'Authorization: Bearer '"${API_TOKEN}""#))
        #expect(script.hasPrefix("#!/bin/sh\n"))
    }

    @Test("a multi-line script keeps each option with its argument and pipes its input")
    func script() {
        let command = ReproduceCommand(
            words: ["curl", "http://h/x", "-X", "PUT", "-H", "'A: b'", "--data-binary", "@-", "--compressed"],
            input: "printf '\\000'", notes: ["n"])
        #expect(
            command.script
                == "# note: n\nprintf '\\000' |\n  curl http://h/x \\\n  -X PUT \\\n  -H 'A: b' \\\n"
                + "  --data-binary @- \\\n  --compressed\n")
        #expect(command.line == "printf '\\000' | curl http://h/x -X PUT -H 'A: b' --data-binary @- --compressed")
    }
}
