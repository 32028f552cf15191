import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import FoundationXML
import Testing

/// `--threshold` rules: parsing, located refusals, evaluation against a run, and the JUnit file with a case per
/// threshold.
@Suite struct LoadThresholdTests {
    @Test func rulesParseIntoTheirBaseUnits() throws {
        let p95 = try LoadThreshold(parsing: "p95<20ms")
        #expect(p95.metric == .percentile(95) && p95.comparison == .less && p95.bound == 20_000)
        #expect(try LoadThreshold(parsing: "p(99.9) <= 1.5s").bound == 1_500_000)
        #expect(try LoadThreshold(parsing: "p99.9<=1s").metric == .percentile(99.9))
        #expect(try LoadThreshold(parsing: "max<900us").bound == 900)
        #expect(try LoadThreshold(parsing: "avg<2ms").metric == .mean)
        let errors = try LoadThreshold(parsing: "errors<0.1%")
        #expect(errors.metric == .errors && abs(errors.bound - 0.001) < 1e-12)
        #expect(try LoadThreshold(parsing: "errors<=0.01").bound == 0.01)
        let rate = try LoadThreshold(parsing: "rate>1900/s")
        #expect(rate.metric == .rate && rate.comparison == .greater && rate.bound == 1900)
        #expect(try LoadThreshold(parsing: "rate>=50").comparison == .greaterOrEqual)
    }

    @Test func badRulesSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("p95 20ms", "expected METRIC<VALUE or METRIC>VALUE"),
            ("latency<20ms", "unknown metric 'latency'"),
            ("p101<1s", "a percentile is p0 to p100"),
            ("p95<20", "a latency needs a unit"),
            ("errors<5 percent", "errors are a share"),
            ("errors<2", "errors are a share"),
            ("rate>fast", "a rate is iterations per second"),
        ]
        for (text, reason) in cases {
            #expect {
                try LoadThreshold(parsing: text)
            } throws: { error in
                (error as? LoadThreshold.ParseError)?.description.contains(reason) == true
                    && (error as? LoadThreshold.ParseError)?.description.contains("'\(text)'") == true
            }
        }
    }

    static func result() -> LoadResult {
        var result = LoadResult(
            model: .init(kind: .open, startRate: 100, stages: [.init(seconds: 10, target: 100)], plannedSeconds: 10),
            startedAt: Date(timeIntervalSince1970: 1_746_100_800), lateAfterMs: 10)
        // 1,000 iterations: 990 at 1 ms, 10 at 500 ms; 3 errored, 1 failed; 10 s.
        result.latency.record(microseconds: 1_000, count: 990)
        result.latency.record(microseconds: 500_000, count: 10)
        result.counts.started = 1_000
        result.counts.completed = 1_000
        result.counts.passed = 996
        result.counts.errored = 3
        result.counts.failed = 1
        result.seconds = 10
        return result
    }

    @Test func thresholdsAreMeasuredOnTheRun() throws {
        let result = Self.result()
        let outcomes = result.evaluate(
            try [
                "p50<2ms", "p99<2ms", "p99.5<2ms", "max<1s", "errors<0.5%", "errors<0.1%", "rate>=100/s", "rate>100/s",
            ]
            .map(LoadThreshold.init(parsing:)))
        #expect(outcomes.map(\.holds) == [true, true, false, true, true, false, true, false])
        #expect(abs(outcomes[4].value - 0.004) < 1e-12)
        #expect(outcomes[6].value == 100)
        #expect(LoadReportText.value(outcomes[2]) == "500 ms")
        #expect(LoadReportText.value(outcomes[4]) == "0.40 %")
    }

    @Test func junitHasACasePerThresholdAndFailsTheOnesThatDidNotHold() throws {
        var result = Self.result()
        result.thresholds = result.evaluate(try ["p95<2ms", "errors<0.1%"].map(LoadThreshold.init(parsing:)))
        let xml = LoadReportFormats.junit(result, hostname: "ci-<1>")
        #expect(xml.contains("<testsuite name=\"load thresholds\" tests=\"2\" failures=\"1\""))
        #expect(xml.contains("<testcase name=\"p95&lt;2ms\" classname=\"load thresholds\""))
        #expect(
            xml.contains(
                "<failure message=\"threshold errors&lt;0.1% failed: measured 0.40 %\" type=\"threshold\">"))
        #expect(xml.contains("hostname=\"ci-&lt;1&gt;\""))
        let document = try XMLDocument(data: Data(xml.utf8))
        #expect(try document.nodes(forXPath: "//testcase").count == 2)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
    }

    @Test func theJSONReportReadsBackWithItsHistograms() throws {
        var result = Self.result()
        result.thresholds = result.evaluate([try LoadThreshold(parsing: "p99<2ms")])
        let json = LoadReportFormats.json(result, hostname: "ci-7")
        let read = try #require(LoadReportFormats.read(Array(json.utf8)))
        #expect(read.load.latency.count == 1_000)
        for percentile in [0.0, 50, 90, 99, 99.5, 99.9, 100] {
            #expect(read.load.latency.percentile(percentile) == result.latency.percentile(percentile), "p\(percentile)")
        }
        #expect(read.load.latency.max == 500_000 && read.load.latency.min == 1_000)
        #expect(read.load.thresholds.first?.holds == true)
        #expect(read.hostname == "ci-7")
        #expect(LoadReportFormats.read(Array("{\"version\": 1}".utf8)) == nil)
    }

    /// A coverage file beside load reports is refused by name, not dropped: a load writes no coverage.
    @Test func mergeRefusesCoverageFilesBesideLoadReports() throws {
        let load = Data(LoadReportFormats.json(Self.result(), hostname: "ci-7").utf8)
        let coverage = Data(OpenAPICoverageReportFormat.render(OpenAPICoverage()).utf8)
        for inputs in [
            [
                ReportMerger.Input(name: "load.json", data: load),
                ReportMerger.Input(name: "coverage.json", data: coverage),
            ],
            [
                ReportMerger.Input(name: "coverage.json", data: coverage),
                ReportMerger.Input(name: "load.json", data: load),
            ],
        ] {
            let error = #expect(throws: ReportMerger.MergeError.self) {
                try ReportMerger.merge(inputs, allowMissing: false)
            }
            #expect(error?.kind == .loadReportsAndCoverage("load.json", "coverage.json"))
            #expect(error?.message.contains("an OpenAPI coverage file, which a load does not write") == true)
        }
        let alone = try ReportMerger.merge([ReportMerger.Input(name: "load.json", data: load)], allowMissing: false)
        #expect(alone.load != nil)
    }

    /// Numbers JSON cannot hold are written as strings, and read back as the numbers they were.
    @Test func nonFiniteNumbersReadBackAsWritten() throws {
        var result = Self.result()
        result.thresholds = [
            LoadResult.ThresholdOutcome(
                threshold: try LoadThreshold(parsing: "p99<2ms"), value: .infinity, holds: false),
            LoadResult.ThresholdOutcome(threshold: try LoadThreshold(parsing: "p95<2ms"), value: .nan, holds: false),
        ]
        let json = LoadReportFormats.json(result, hostname: "ci-7")
        #expect(json.contains("\"Infinity\"") && json.contains("\"NaN\""))
        let read = try #require(LoadReportFormats.read(Array(json.utf8)))
        #expect(read.load.thresholds.first?.value == .infinity)
        #expect(read.load.thresholds.last?.value.isNaN == true)
    }

    @Test func theHTMLPageIsSelfContainedEscapedAndChartsEverySecond() throws {
        var result = Self.result()
        result.tests = [
            LoadResult.TestStats(suite: "api <b>", file: "s.yaml", name: "<script>alert(1)</script>", weight: 2)
        ]
        result.tests[0].latency = result.latency
        result.tests[0].failures = [
            LoadResult.FailureCount(location: "s.yaml:3:5", subject: "status", message: "got \u{1B}[31m<i>", count: 2)
        ]
        result.timeline = (1...5).map {
            LoadResult.Second(
                second: $0, completed: 100 * $0, notPassed: 0, p50: 1_000, p99: 2_000 * UInt64($0), max: 500_000)
        }
        result.thresholds = result.evaluate([
            try LoadThreshold(parsing: "p99<2ms"), try LoadThreshold(parsing: "max<1ms"),
        ])
        let html = LoadHTMLReport.render(result, hostname: "ci<7>")
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("api &lt;b&gt; › &lt;script&gt;"))
        #expect(!html.contains("<i>") && !html.contains("\u{1B}"))
        #expect(html.contains("ci&lt;7&gt;"))
        // Nothing is fetched: no external style, script, image or font.
        for fetch in ["src=", "href=", "@import", "url("] { #expect(!html.contains(fetch), "\(fetch)") }
        // A bar per second and three lines of five points each; the distribution's 23 percentiles.
        #expect(html.components(separatedBy: "<rect class=\"bar\" ").count - 1 == 5)
        let lines = html.matches(of: /<polyline class="(p50|p99|max)" points="([^"]*)"/).map {
            ($0.output.1, $0.output.2.split(separator: " ").count)
        }
        #expect(lines.map(\.0) == ["p50", "p99", "max", "p99"])
        #expect(lines.map(\.1) == [5, 5, 5, 23])
        #expect(
            html.contains("<tr data-holds=\"true\"><td><span class=\"good\">✔</span></td><td><code>p99&lt;2ms</code>"))
        #expect(html.contains("<tr data-holds=\"false\">"))
    }
}
