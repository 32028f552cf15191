import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// GitHub's limits: at most 10 error and 10 warning annotations of a step (the most important failures chosen, the
/// rest counted in one note), flaky tests as warnings, and a step summary cut to fit in 1 MiB with a line saying
/// what was left out.
@Suite struct GitHubLimitsTests {
    static func record(_ results: [TestResult]) -> RunRecord {
        var summary = RunSummary()
        for result in results { summary.record(result) }
        return RunRecord(
            plan: nil, results: results, summary: summary, startedAt: ReportFixtures.startedAt, hostname: "h")
    }

    /// A failed test `name` at `line` with `count` failures.
    static func failed(_ name: String, line: Int, count: Int) -> TestResult {
        var result = ReportFixtures.failed
        result.name = name
        result.location = ReportFixtures.location(line, 5)
        result.steps[0].change {
            $0.failures = (0..<count).map {
                AssertionFailure(
                    location: ReportFixtures.location(line + 1 + $0, 9), subject: "s", message: "\(name) #\($0 + 1)")
            }
        }
        return result
    }

    static func titles(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("::error") else { return nil }
            return String(line.split(separator: "::").last ?? "")
        }
    }

    @Test func aFailedSetupAndEachTestsFirstFailureAreAnnotatedBeforeFurtherFailures() {
        // 12 tests with 3 failures each, then a failed setup: 37 problems, 10 annotations.
        var results = (1...12).map { Self.failed("t\($0)", line: $0 * 10, count: 3) }
        var setup = Self.failed("setup", line: 1, count: 1)
        setup.status = .failed
        results.append(setup)
        let text = GitHubAnnotationsFormat(root: "/repo", currentFolder: "/repo").render(Self.record(results))
        let shown = Self.titles(text)
        #expect(shown.count == 10)
        // The setup (which stops its suite), then the first failure of each test in run order, no second failure.
        #expect(shown.contains("setup #1"))
        #expect(shown.filter { $0.hasSuffix("#1") }.count == 10)
        #expect(shown.first == "t1 #1")
        #expect(!shown.contains("t1 #2"))
        #expect(
            text.hasSuffix(
                "::warning title=apitest::27 more failures not annotated (GitHub shows at most 10 "
                    + "error and 10 warning annotations of a step); see the step summary, the job's log or the reports\n"
            ))
    }

    @Test func underTheLimitEveryFailureIsAnnotatedInRunOrderWithoutANote() {
        let results = [Self.failed("a", line: 10, count: 3), Self.failed("b", line: 20, count: 2)]
        let text = GitHubAnnotationsFormat(root: "/repo", currentFolder: "/repo").render(Self.record(results))
        #expect(Self.titles(text) == ["a #1", "a #2", "a #3", "b #1", "b #2"])
        #expect(!text.contains("::warning"))
    }

    @Test func flakyTestsAreWarningsAtTheirLineWithTheirFirstRunsFailure() {
        let text = GitHubAnnotationsFormat(root: "/repo", currentFolder: "/repo").render(
            Self.record([ReportFixtures.flaky]))
        #expect(
            text
                == "::warning file=suites/users.yaml,line=70,col=5,title=flaky%3A Users API › get job::failed, then "
                + "passed on run 2 of 2: $.state: expected \"done\", got \"pending\"\n")
    }

    @Test func tooManyFlakyTestsLeaveRoomForTheNote() {
        let flaky = (1...12).map { number -> TestResult in
            var result = ReportFixtures.flaky
            result.name = "f\(number)"
            return result
        }
        let lines = GitHubAnnotationsFormat(root: "/repo", currentFolder: "/repo").render(Self.record(flaky))
            .split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines.allSatisfy { $0.hasPrefix("::warning") })
        #expect(lines.last?.contains("3 more flaky tests not annotated") == true)
    }

    // MARK: - Step summary

    @Test func aSummaryOverItsLimitIsCutAtALineAndSaysWhatWasLeftOut() {
        // 100 failures of about 900 bytes each: some 90 KB; a 20 KB limit keeps the head and the first failures.
        let long = String(repeating: "x", count: 880)
        let results = (1...100).map { number -> TestResult in
            var result = Self.failed("t\(number)", line: number * 10, count: 1)
            result.steps[0].change { $0.failures[0].message = long }
            return result
        }
        let format = GitHubStepSummaryFormat(root: "/repo", currentFolder: "/repo", byteLimit: 20_000)
        let text = format.render(Self.record(results))
        #expect(text.utf8.count <= 20_000)
        #expect(text.hasPrefix("## ❌ apitest: 100 tests\n"))
        #expect(text.contains("- **Users API › t1**"))
        #expect(!text.contains("- **Users API › t100**"))
        let last = text.split(separator: "\n").last ?? ""
        #expect(last.hasPrefix("> **"))
        #expect(last.contains("lines of this summary left out**: GitHub drops a step summary over 1 MiB"))
        let full = GitHubStepSummaryFormat(root: "/repo", currentFolder: "/repo").render(Self.record(results))
        #expect(full.contains("- **Users API › t100**"))
        #expect(!full.contains("left out"))
        // What was left out is counted: the lines of the full summary that the cut one does not have.
        let leftOut = Int(last.dropFirst(4).prefix { $0.isNumber }) ?? -1
        let fullLines = full.split(separator: "\n", omittingEmptySubsequences: false).count
        let cutLines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(leftOut > 0 && leftOut < fullLines && cutLines < fullLines)
    }

    @Test func theSummaryCountsAndListsFlakyTests() {
        let text = GitHubStepSummaryFormat(root: "/repo", currentFolder: "/repo").render(
            ReportFixtures.retriedRecord)
        #expect(text.contains("| passed | flaky | failed | errored | skipped | cancelled | time |"))
        #expect(text.contains("| 1 | 1 | 1 | 0 | 0 | 0 |"))
        #expect(text.contains("### Flaky tests"))
        #expect(text.hasPrefix("## ❌ apitest: 3 tests\n"))
        let onlyFlaky = GitHubStepSummaryFormat(root: "/repo", currentFolder: "/repo").render(
            Self.record([ReportFixtures.passed, ReportFixtures.flaky]))
        #expect(onlyFlaky.hasPrefix("## ⚠️ apitest: 2 tests\n"), "\(onlyFlaky)")
        #expect(text.contains("- **Users API › get job** `suites/users.yaml:70`: passed on run 2 of 2"))
    }
}
