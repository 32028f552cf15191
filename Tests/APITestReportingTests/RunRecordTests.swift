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

    @Test("after Ctrl-C a test that never started is listed where the plan has it: before teardown, in every report")
    func notRunBeforeTeardown() {
        let setup = ReportFixtures.result("setup", .passed, line: 3)
        let teardown = ReportFixtures.result("teardown", .passed, line: 90)
        let plan = RunPlan(
            suites: [
                .init(
                    name: ReportFixtures.suite, file: ReportFixtures.file,
                    tests: ["setup", "list users", "slow report", "never started", "teardown"])
            ], jobs: 2)
        // Finished in this order: teardown runs after the cancelled test, so it arrives last.
        let results = [setup, ReportFixtures.passed, ReportFixtures.cancelled, teardown]
        let record = RunRecord(
            plan: plan, results: results, summary: RunSummary(interrupted: true), startedAt: ReportFixtures.startedAt,
            hostname: "h")
        #expect(
            record.suites[0].entries == [
                .result(setup), .result(ReportFixtures.passed), .result(ReportFixtures.cancelled),
                .notRun("never started"), .result(teardown),
            ])

        let tap = TAPReportFormat().render(record)
        let tapOrder = tap.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
            .map {
                $0.split(separator: "›").last.map {
                    String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
                } ?? ""
            }
        #expect(tapOrder == ["setup", "list users", "slow report", "never started", "teardown"], "\(tap)")
        #expect(tap.contains("ok 4 - Users API › never started # SKIP not run: the run was interrupted\n"))
        #expect(tap.contains("ok 5 - Users API › teardown\n"))

        let junit = JUnitReportFormat().render(record)
        let names = junit.components(separatedBy: "<testcase name=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(names == ["setup", "list users", "slow report", "never started", "teardown"], "\(junit)")

        // The HTML page puts what did not pass first, then keeps the plan's order.
        let html = HTMLReportFormat().render(record)
        let notRun = html.range(of: "<span class=\"name\">never started</span>")
        let teardownName = html.range(of: "<span class=\"name\">teardown</span>")
        #expect(notRun != nil && teardownName != nil)
        if let notRun, let teardownName { #expect(notRun.lowerBound < teardownName.lowerBound) }
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
