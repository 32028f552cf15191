import APITestResults
import Foundation

// MARK: - Reading a CTRF file back

extension CTRFDocument {
    /// Why a CTRF file cannot be merged: it lacks apitest's facts (another tool wrote it, or an apitest before
    /// they were added).
    struct NotFromApitest: Error {}

    /// The JSON report of the same run, from the facts apitest keeps under `extra.apitest`: the run's identity, and
    /// each test as the JSON report writes it; the tests grouped by suite in the order the file lists them.
    func jsonReport() throws(NotFromApitest) -> JSONReportDocument {
        guard let facts = results.extra?.apitest else { throw NotFromApitest() }
        var suites: [JSONReportDocument.Suite] = []
        var index: [String: Int] = [:]
        for test in results.tests {
            guard let testFacts = test.extra?.apitest else { throw NotFromApitest() }
            let name = test.suite.first ?? ""
            let key = "\(testFacts.suiteFile)\u{0}\(name)"
            let position: Int
            if let known = index[key] {
                position = known
            } else {
                position = suites.count
                index[key] = position
                suites.append(
                    JSONReportDocument.Suite(
                        name: name, file: testFacts.suiteFile, durationMs: 0, summary: Self.counts([], notRun: 0),
                        tests: [], notRun: []))
            }
            if testFacts.status == "notRun" {
                suites[position].notRun.append(test.name)
            } else if let report = testFacts.report {
                suites[position].tests.append(report)
                suites[position].durationMs += report.durationMs
            } else {
                throw NotFromApitest()
            }
        }
        for position in suites.indices {
            suites[position].summary = Self.counts(
                suites[position].tests.map(\.status), notRun: suites[position].notRun.count)
        }
        return JSONReportDocument(
            startedAt: timestamp, hostname: facts.hostname, durationMs: Double(results.summary.duration),
            interrupted: facts.interrupted,
            summary: Self.counts(
                suites.flatMap { $0.tests.map(\.status) }, notRun: suites.reduce(0) { $0 + $1.notRun.count }),
            suites: suites, run: facts.run)
    }

    /// The counts of tests with `statuses` (as the JSON report writes them) and `notRun` never started.
    private static func counts(_ statuses: [String], notRun: Int) -> JSONReportDocument.Counts {
        func count(_ status: String) -> Int { statuses.count { $0 == status } }
        let flaky = count(JSONReportDocument.flakyStatus)
        return JSONReportDocument.Counts(
            total: statuses.count + notRun, passed: count("passed"), failed: count("failed"),
            errored: count("errored"), skipped: count("skipped"), cancelled: count("cancelled"),
            flaky: flaky == 0 ? nil : flaky, notRun: notRun)
    }
}
