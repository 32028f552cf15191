import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// A load JSON report written with `--baseline` (its `baseline` member) is still a load report that apitest reads
/// back: as the next run's `--baseline` and by `apitest merge` (`LoadReportFormats.read`), also when a change is
/// not finite (a baseline error count of 0).
struct LoadBaselineReportReadBackTests {
    @Test func aReportWithItsBaselineIsReadBack() throws {
        let before = LoadBaselineTests.run(LoadBaselineTests.histogram([(1_000, 900), (1_100, 90), (2_000, 10)]))
        let after = LoadBaselineTests.run(
            LoadBaselineTests.histogram([(1_000, 600), (1_100, 200), (5_000, 150), (900_000, 50)]), notPassed: 20)
        let comparison = LoadBaselineComparison(
            baseline: before, current: after, baselineFile: "b.json",
            thresholds: [try LoadThreshold(parsing: "p99<+10%"), try LoadThreshold(parsing: "errors<+1%")])
        let bytes = LoadReportFormats.jsonBytes(after, hostname: "h", baseline: comparison)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"baseline\""), "\(text.prefix(400))")
        let document = try #require(LoadReportFormats.read(bytes), "\(text.prefix(2_000))")
        #expect(document.load.tests.count == 1)
        #expect(document.load.latency.count == after.latency.count)
        let read = try #require(document.baseline)
        #expect(read.verdicts.map(\.holds) == comparison.verdicts.map(\.holds))
        #expect(read.verdicts.count == 2)
    }
}
