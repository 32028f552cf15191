import APITestReporting
import APITestResults
import Foundation
import Testing

@Suite("Run record")
struct RunRecordTests {
    @Test("results in any order are grouped by the plan's suites, in file order; missing ones are notRun")
    func grouping() {
        let record = ReportFixtures.interruptedRecord
        #expect(record.suites.count == 1)
        #expect(
            record.suites[0].results.map(\.name) == [
                "list users", "create a user", "connection refused", "export", "slow report",
            ])
        #expect(record.suites[0].notRun == ["never started"])
        #expect(record.notRunCount == 1)
    }

    @Test("suites with the same name in different files stay apart; unplanned results are kept")
    func sameNames() {
        var other = ReportFixtures.passed
        other.suiteFile = "suites/other.yaml"
        var stray = ReportFixtures.failed
        stray.suiteName = "Stray"
        stray.suiteFile = "suites/stray.yaml"
        let plan = RunPlan(
            suites: [
                .init(name: "Users API", file: "suites/users.yaml", tests: ["list users"]),
                .init(name: "Users API", file: "suites/other.yaml", tests: ["list users"]),
            ], jobs: 1)
        let record = RunRecord(
            plan: plan, results: [stray, other, ReportFixtures.passed], summary: nil,
            startedAt: ReportFixtures.startedAt, hostname: "h")
        #expect(record.suites.map(\.file) == ["suites/users.yaml", "suites/other.yaml", "suites/stray.yaml"])
        #expect(record.suites.map(\.results.count) == [1, 1, 1])
        #expect(record.suites.allSatisfy { $0.notRun.isEmpty })
        #expect(record.summary.passed == 2 && record.summary.failed == 1)
    }

    @Test("two tests of the same name are both kept")
    func duplicateNames() {
        let plan = RunPlan(
            suites: [.init(name: "Users API", file: "suites/users.yaml", tests: ["list users", "list users"])], jobs: 1)
        let record = RunRecord(
            plan: plan, results: [ReportFixtures.passed, ReportFixtures.passed], summary: nil,
            startedAt: ReportFixtures.startedAt, hostname: "h")
        #expect(record.suites[0].results.count == 2)
        #expect(record.suites[0].notRun.isEmpty)
    }
}
