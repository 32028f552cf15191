import Foundation
import Testing

/// The load budget through the `apitest` binary, with the system's libyaml (the unit tests link Yams' copy, which
/// stops nesting at 1,000 levels on its own): hostile suites end in a located error, quickly, and a control
/// character from the command line never reaches the wire in a header (issue 35, section 3).
@Suite struct LoadBudgetCLITests {
    /// `apitest validate` of `yaml` written to a fresh file, and the file.
    func validate(_ yaml: String) async throws -> (result: ProcessResult, file: URL) {
        let file = try writeTemporarySuite(yaml)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return (try await runAPITest(["validate", file.path]), file)
    }

    @Test func deepFlowNestingOnOneLineIsALocatedErrorInASecond() async throws {
        // 100,000 levels of `[` on one line took the system's libyaml 25 to 47 s.
        let depth = 100_000
        let start = ContinuousClock.now
        let (result, file) = try await validate(
            "tests: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n")
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("error: the YAML is nested deeper than 256 levels"), "\(result.stderr)")
        #expect(result.stderr.contains("\(file.path):1:263"), "\(result.stderr)")
    }

    @Test func aLongExpressionIsRefusedByValidateInsteadOfCrashingTheRun() async throws {
        // 8,000 `+` terms passed validate, and the run died of a stack overflow evaluating them.
        let sum = (0..<8_000).map { _ in "1" }.joined(separator: " + ")
        let (result, file) = try await validate(
            "tests:\n  - name: t\n    when: \"\(sum) > 0\"\n    request: {url: 'http://127.0.0.1:9/'}\n")
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(file.path):3:"), "\(result.stderr)")
        #expect(result.stderr.contains("the expression is nested deeper than 256 levels"), "\(result.stderr)")
    }

    @Test func aVerticalTabFromTheCommandLineErrorsTheStep() async throws {
        // Port 9: the check refuses the request before any connection is tried.
        let file = try writeTemporarySuite(
            """
            tests:
              - name: tagged
                request:
                  url: http://127.0.0.1:9/
                  headers: {X-Tag: "{{ tag }}"}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", file.path, "--var", "tag=a\u{0B}b"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "the request was not sent: the value of header 'X-Tag' contains the control character U+000B"),
            "\(result.stdout)")
    }
}
