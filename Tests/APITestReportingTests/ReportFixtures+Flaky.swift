import APITestReporting
import APITestResults
import APITestSupport
import Foundation

/// Tests run more than once (`--retries`): one flaky (failed, then passed), one that failed on every run (an error,
/// then a failure), and one that passed at once.
extension ReportFixtures {
    /// `get job`: failed on run 1 (status 500), passed on run 2.
    static var flaky: TestResult {
        var result = result(
            "get job", .passed, line: 70,
            steps: [
                StepResult(
                    reported: .init(
                        index: 0, location: location(71, 7),
                        exchange: exchange("GET", "jobs/1", status: 200, body: "{\"state\":\"done\"}")))
            ])
        result.earlierAttempts = [
            TestAttempt(
                status: .failed, duration: .milliseconds(5),
                steps: [
                    StepResult(
                        reported: .init(
                            index: 0, location: location(71, 7),
                            exchange: exchange("GET", "jobs/1", status: 200, body: "{\"state\":\"pending\"}"),
                            failures: [
                                AssertionFailure(
                                    location: location(73, 17), subject: "$.state",
                                    message: "$.state: expected \"done\", got \"pending\"", expected: "\"done\"",
                                    actual: "\"pending\"")
                            ]))
                ])
        ]
        return result
    }

    /// `flaky server`: errored on run 1 (connection refused), failed on runs 2 and 3.
    static var neverPassed: TestResult {
        var result = failed
        result.name = "flaky server"
        result.location = location(80, 5)
        let refused = errored
        let failedRun = failed
        result.earlierAttempts = [TestAttempt(refused), TestAttempt(failedRun)]
        return result
    }

    /// The three, with `list users` passed at once.
    static var retriedRecord: RunRecord {
        let results = [passed, flaky, neverPassed]
        let plan = RunPlan(
            suites: [.init(name: suite, file: file, tests: results.map(\.name))], jobs: 2)
        var summary = RunSummary(duration: .milliseconds(40))
        for result in results { summary.record(result) }
        return RunRecord(plan: plan, results: results, summary: summary, startedAt: startedAt, hostname: "ci-7")
    }
}
