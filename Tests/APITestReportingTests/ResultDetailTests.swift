import APITestReporting
import APITestResults
import APITestSupport
import Testing

/// Each reporter says how much of a passing step it reads, so that a run records no more.
@Suite struct ResultDetailTests {
    @Test func reportersSayWhatTheyRead() {
        let quiet = ConsoleReporter(output: BufferedOutput(), progress: nil, colored: false, verbosity: .quiet)
        let normal = ConsoleReporter(output: BufferedOutput(), progress: nil, colored: false)
        let verbose = ConsoleReporter(output: BufferedOutput(), progress: nil, colored: false, verbosity: .verbose)
        #expect(quiet.resultDetail == .failures)
        #expect(normal.resultDetail == .failures)
        #expect(verbose.resultDetail == .everyStep)
        let junit = FileReporter(path: "/tmp/r.xml", format: JUnitReportFormat())
        let tap = FileReporter(path: "/tmp/r.tap", format: TAPReportFormat())
        let json = FileReporter(path: "/tmp/r.json", format: JSONReportFormat())
        let html = FileReporter(path: "/tmp/r.html", format: HTMLReportFormat())
        #expect(junit.resultDetail == .requestLines)
        #expect(tap.resultDetail == .requestLines)
        #expect(json.resultDetail == .everyStep)
        #expect(html.resultDetail == .everyStep)
        // A run with several reporters records what the most demanding one reads.
        #expect(CompositeReporter([normal]).resultDetail == .failures)
        #expect(CompositeReporter([normal, junit]).resultDetail == .requestLines)
        #expect(CompositeReporter([normal, tap, json]).resultDetail == .everyStep)
    }
}
