import APITestRunner
import APITestSuite
import APITestSupport
import ArgumentParser
import Foundation

/// `--last-failed REPORT.json`: the tests an earlier run's JSON report says failed or errored.
extension SelectionOptions {
    /// The report's failed and errored tests, `nil` without the flag; the usage error for a report that cannot be
    /// read or is not an apitest JSON report.
    func readLastFailed() throws -> LastFailedTests? {
        guard let lastFailed else { return nil }
        guard let data = FileManager.default.contents(atPath: lastFailed) else {
            throw ValidationError("--last-failed '\(lastFailed)': cannot read the file")
        }
        do {
            return try LastFailedTests(jsonReport: Array(data))
        } catch {
            throw ValidationError("--last-failed '\(lastFailed)': \(error.message)")
        }
    }

    /// Refuses (exit code 2) a report naming tests that `suites` no longer have, each named; with no failed test
    /// in the report, says so and exits 0: there is nothing to run again.
    func checkLastFailed(_ tests: LastFailedTests?, in suites: [Suite], errorOutput: TextOutput) throws {
        guard let tests, let lastFailed else { return }
        if tests.tests.isEmpty {
            errorOutput.write("apitest: no test failed or errored in '\(lastFailed)'; nothing to run.\n")
            errorOutput.flush()
            throw ExitStatus.passed.exitCode
        }
        let missing = tests.missing(in: suites)
        guard !missing.isEmpty else { return }
        let count =
            missing.count == 1
            ? "1 test that failed no longer exists" : "\(missing.count) tests that failed no longer exist"
        var text = "error: --last-failed '\(lastFailed)': \(count):\n"
        for test in missing {
            text +=
                "  \(TestSelection.fullName(suite: test.suite, test: test.name).onOneLine) (\(test.file.onOneLine))\n"
        }
        errorOutput.write(text)
        errorOutput.flush()
        throw ExitStatus.invalid.exitCode
    }
}
