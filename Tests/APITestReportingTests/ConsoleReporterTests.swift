import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

@Suite("Console reporter")
struct ConsoleReporterTests {
    @Test("the live line and the summary give a test the same verdict word: errored is never shown as failed")
    func oneVerdictWord() async throws {
        let output = BufferedOutput()
        let progress = BufferedOutput(isTerminal: true)
        let console = ConsoleReporter(output: output, progress: progress, colored: false)
        console.handle(.runStarted(ReportFixtures.plan))
        for result in [ReportFixtures.errored, ReportFixtures.failed, ReportFixtures.errored] {
            console.handle(.testStarted(suiteName: result.suiteName, testName: result.name))
            console.handle(.testFinished(result))
        }
        // The live line is redrawn at most every 80 ms: the next test's start after a pause shows the counts.
        try await Task.sleep(for: .milliseconds(120))
        console.handle(.testStarted(suiteName: ReportFixtures.suite, testName: "slow report"))
        #expect(progress.text.hasSuffix("[3/6] 1 running, 1 failed, 2 errored"), "\(progress.text)")

        console.handle(.testFinished(ReportFixtures.cancelled))
        console.handle(.runFinished(RunSummary(failed: 1, errored: 2, cancelled: 1, interrupted: true)))
        #expect(output.text.contains("4 tests: 0 passed, 1 failed, 2 errored, 1 cancelled"), "\(output.text)")
    }

    @Test("the live line goes only to a terminal, and is cleared before a test's line")
    func liveLineOnlyOnATerminal() {
        for isTerminal in [false, true] {
            let output = BufferedOutput()
            let progress = BufferedOutput(isTerminal: isTerminal)
            let console = ConsoleReporter(output: output, progress: progress, colored: false)
            console.handle(.runStarted(ReportFixtures.plan))
            // The first start draws the line (the last redraw was "a second ago"); the finish clears it.
            console.handle(.testStarted(suiteName: ReportFixtures.suite, testName: ReportFixtures.failed.name))
            console.handle(.testFinished(ReportFixtures.failed))
            console.handle(.runFinished(RunSummary(failed: 1)))
            if isTerminal {
                #expect(progress.text.hasPrefix("\r\u{1B}[2K[0/6] 1 running"), "\(progress.text)")
                #expect(progress.text.hasSuffix("\r\u{1B}[2K"), "\(progress.text)")
            } else {
                #expect(progress.text.isEmpty, "\(progress.text)")
            }
            #expect(output.text.contains("1 test: 0 passed, 1 failed"), "\(output.text)")
        }
    }
}
