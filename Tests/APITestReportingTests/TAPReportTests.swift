import APITestReporting
import APITestResults
import Foundation
import Testing

@Suite("TAP report")
struct TAPReportTests {
    @Test("TAP 13: plan, a test point per planned test, YAML diagnostics, SKIP, interrupted")
    func tap13() {
        let tap = TAPReportFormat().render(ReportFixtures.interruptedRecord)
        #expect(
            tap == """
                TAP version 13
                1..6
                # Users API (suites/users.yaml)
                ok 1 - Users API › list users
                not ok 2 - Users API › create a user
                  ---
                  message: "expected status 201, got 400"
                  severity: "fail"
                  expected: "201"
                  actual: "400"
                  location: "suites/users.yaml:23:17"
                  request: "POST http://127.0.0.1:8080/api/users → 400"
                  failures:
                    - message: "expected status 201, got 400"
                      expected: "201"
                      actual: "400"
                      location: "suites/users.yaml:23:17"
                    - message: "$.name: expected \\"carol\\", got nothing"
                      expected: "\\"carol\\""
                      actual: "nothing"
                      location: "suites/users.yaml:26:9"
                  test: "suites/users.yaml:20:5"
                  duration_ms: 8
                  ...
                not ok 3 - Users API › connection refused
                  ---
                  message: "connection refused: Couldn't connect to server"
                  severity: "error"
                  kind: "connectionRefused"
                  location: "suites/users.yaml:32:14"
                  request: "GET http://127.0.0.1:8080/api/down (no response)"
                  test: "suites/users.yaml:30:5"
                  duration_ms: 12
                  ...
                ok 4 - Users API › export # SKIP not implemented yet
                not ok 5 - Users API › slow report # interrupted
                  ---
                  message: "interrupted"
                  severity: "cancelled"
                  kind: "cancelled"
                  location: "suites/users.yaml:52:14"
                  request: "GET http://127.0.0.1:8080/api/slow (no response)"
                  test: "suites/users.yaml:50:5"
                  duration_ms: 900
                  ...
                ok 6 - Users API › never started # SKIP not run: the run was interrupted
                # 5 tests: 1 passed, 1 failed, 1 errored, 1 skipped, 1 cancelled; interrupted (Ctrl-C): 1 not run

                """)
    }

    @Test("numbers read as in the JSON and JUnit reports: attempts: 15 and whole milliseconds without a fraction")
    func numbers() throws {
        let retried = { (status: TestStatus) in
            ReportFixtures.result(
                status == .passed ? "polled" : "gave up", status, line: 70,
                steps: [
                    StepResult(
                        reported: .init(
                            index: 0, location: ReportFixtures.location(71, 7),
                            exchange: ReportFixtures.exchange("GET", "jobs/1", status: 200),
                            failures: status == .passed
                                ? []
                                : [
                                    AssertionFailure(
                                        location: ReportFixtures.location(72, 9), subject: "$.state",
                                        message: "$.state: expected \"done\", got \"running\"")
                                ], attempts: 15))
                ], duration: .milliseconds(1500))
        }
        let results = [retried(.passed), retried(.failed)]
        let plan = RunPlan(
            suites: [.init(name: ReportFixtures.suite, file: ReportFixtures.file, tests: ["polled", "gave up"])],
            jobs: 1)
        let record = RunRecord(
            plan: plan, results: results, summary: nil, startedAt: ReportFixtures.startedAt, hostname: "h")
        let tap = TAPReportFormat().render(record)
        #expect(tap.contains("ok 1 - Users API › polled\n  ---\n  attempts: 15\n  ...\n"), "\(tap)")
        #expect(tap.contains("\n  attempts: 15\n  test: "), "\(tap)")
        #expect(tap.contains("\n  duration_ms: 1500\n"), "\(tap)")
        #expect(!tap.contains(".0\n"), "\(tap)")
        #expect(JUnitReportFormat().render(record).contains("attempts: 15\n"))
        #expect(JSONReportFormat().render(record).contains("\"attempts\" : 15,"))
        #expect(JSONReportFormat().render(record).contains("\"durationMs\" : 1500,"))
    }

    @Test("a test with a failure and a later step's error lists the error too")
    func failureAndError() {
        let tap = TAPReportFormat().render(ReportFixtures.mixedRecord)
        #expect(tap.contains("  message: \"expected status 204, got 500\"\n"), "\(tap)")
        #expect(tap.contains("  errors:\n"), "\(tap)")
        #expect(tap.contains("message: \"undefined variable 'token' (the suite's setup did not finish)\""), "\(tap)")
        #expect(tap.contains("location: \"suites/users.yaml:63:40\""), "\(tap)")
    }

    @Test("TAP 14: the version line and an indented subtest per step")
    func tap14() throws {
        let tap = TAPReportFormat(version: .tap14).render(ReportFixtures.interruptedRecord)
        let lines = tap.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "TAP version 14")
        let start = try #require(lines.firstIndex(of: "# Subtest: Users API › create a user"))
        #expect(
            Array(lines[start..<(start + 9)]) == [
                "# Subtest: Users API › create a user",
                "    1..1",
                "    not ok 1 - step 1: POST http://127.0.0.1:8080/api/users → 400",
                "      ---",
                "      message: \"expected status 201, got 400\"",
                "      severity: \"fail\"",
                "      expected: \"201\"",
                "      actual: \"400\"",
                "      location: \"suites/users.yaml:23:17\"",
            ])
        #expect(lines.contains("    ok 1 - step 1: GET http://127.0.0.1:8080/api/users → 200"))
        // A test without steps (skipped) has no subtest.
        #expect(!lines.contains("# Subtest: Users API › export"))
        #expect(lines.contains("ok 4 - Users API › export # SKIP not implemented yet"))
    }

    @Test("names stay on one line and cannot start a directive; YAML strings escape everything")
    func weirdText() {
        let tap = TAPReportFormat().render(ReportFixtures.weirdRecord)
        let lines = tap.split(separator: "\n").map(String.init)
        let point = lines.first { $0.hasPrefix("not ok 1 - ") } ?? ""
        #expect(point.contains("\"quoted\" & \\#hash second line  Tab \\\\u{FFFF} \\\\u{85}end"))
        #expect(point.contains("name bell\\\\u{7} esc\\\\u{1B}[31m"))
        #expect(!point.contains(" # "))
        #expect(!tap.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(
            lines.contains(
                "  actual: \"actual bell\\x07 esc\\x1B[31m nul\\x00 ]]> a\u{FFFD}\u{FFFD}b \u{FFFD}\u{FFFD}\u{FFFD} "
                    + "<script>alert('x')</script> \\\"quoted\\\" & #hash\\nsecond line\\r\\tTab \\\\u{FFFF} \\x85end\""
            ))
    }

    @Test("yamlQuoted escapes backslashes, quotes and control characters")
    func yamlQuoting() {
        #expect(TAPReportFormat.yamlQuoted("a\\b\"c\n\u{1}") == "\"a\\\\b\\\"c\\n\\x01\"")
    }

    @Test("a server's line separators and bidirectional controls are escaped everywhere in TAP, as in the console")
    func separatorsAndBidirectionalControls() {
        let hostile = "got \u{202E}live\u{202C} \u{2066}x\u{2069} \u{200F}a\u{200E} b\u{2028}c\u{2029}d"
        let shown = #"got \u{202E}live\u{202C} \u{2066}x\u{2069} \u{200F}a\u{200E} b\u{2028}c\u{2029}d"#
        #expect(TAPReportFormat.yamlQuoted(hostile) == "\"" + shown.replacingOccurrences(of: "\\", with: "\\\\") + "\"")
        var result = ReportFixtures.weird
        result.steps[0].change { $0.failures[0].message = "message " + hostile }
        result.steps[0].change { $0.failures[0].actual = hostile }
        let plan = RunPlan(
            suites: [.init(name: result.suiteName, file: result.suiteFile, tests: [result.name])], jobs: 1)
        var summary = RunSummary(duration: .milliseconds(1))
        summary.record(.failed)
        let record = RunRecord(
            plan: plan, results: [result], summary: summary, startedAt: ReportFixtures.startedAt, hostname: "h")
        for version in TAPReportFormat.Version.allCases {
            let tap = TAPReportFormat(version: version).render(record)
            let raw = tap.unicodeScalars.filter { scalar in
                [0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069].contains { $0.contains(scalar.value) }
            }
            #expect(raw.isEmpty, "raw in TAP \(version.rawValue): \(raw.map { String($0.value, radix: 16) })")
        }
    }

    @Test("prove (TAP::Harness) reads the TAP 13 report: the counts and the YAML blocks")
    func prove() throws {
        let perl = try #require(ReportConsumers.tool("perl"), "perl is missing")
        let script = """
            use TAP::Parser; local $/; my $tap = <STDIN>;
            my $p = TAP::Parser->new({ tap => $tap }); my $yaml = 0;
            while (my $r = $p->next) { $yaml++ if $r->is_yaml && $r->data->{message}; }
            printf "passed=%d failed=%d skipped=%d planned=%d yaml=%d errors=%s\\n", scalar($p->passed),
              scalar($p->failed), scalar($p->skipped), $p->tests_planned, $yaml, join('|', $p->parse_errors);
            """
        for (record, expected) in [
            (ReportFixtures.interruptedRecord, "passed=3 failed=3 skipped=2 planned=6 yaml=3 errors="),
            (ReportFixtures.weirdRecord, "passed=0 failed=1 skipped=0 planned=1 yaml=1 errors="),
        ] {
            let result = try ReportConsumers.run(
                perl, ["-e", script], input: TAPReportFormat().render(record))
            #expect(result.status == 0)
            #expect(result.output == expected + "\n")
        }
    }
}
