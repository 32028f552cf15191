import APITestReporting
import APITestResults
import Foundation
import Testing

/// The load JSON report is written a test at a time (issue 38: the encoder's tree of a 10,000-test report peaked at
/// 130 MiB) and must be byte for byte what one encoder pass over the whole document writes, whatever the tests hold.
@Suite struct LoadReportStreamingTests {
    /// One encoder pass over the whole document, with the report's settings.
    static func wholeDocument(_ result: LoadResult, hostname: String) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let document = LoadReportFormats.Document(hostname: hostname, load: result)
        return Array(try encoder.encode(document)) + [UInt8(ascii: "\n")]
    }

    /// A result of `count` tests whose names, errors and failures hold what JSON escapes (line breaks, quotes,
    /// slashes, control characters, non-ASCII), with steps and histograms of several sizes.
    static func result(tests count: Int) -> LoadResult {
        var result = LoadResult(
            model: .init(kind: .open, startRate: 20, stages: [.init(seconds: 5, target: 20)], plannedSeconds: 5),
            startedAt: Date(timeIntervalSince1970: 1_746_100_800), lateAfterMs: 10)
        result.tests = (0..<count).map { index in
            var test = LoadResult.TestStats(
                suite: "shop\n\"suite\"", file: "suites/shop \(index).yaml", name: "test \(index) é \u{1}/\\",
                weight: index % 3 + 1)
            test.steps = (0..<(index % 3)).map { LoadResult.StepStats(index: $0 + 1, location: "shop.yaml:\($0):7") }
            for sample in 0..<(index * 7 % 90) {
                test.latency.record(microseconds: UInt64(200 + sample * 37 + index))
                if !test.steps.isEmpty { test.steps[sample % test.steps.count].latency.record(microseconds: 99) }
            }
            test.counts.completed = index * 7 % 90
            if index % 4 == 1 { test.errors = ["connection refused\nby 127.0.0.1": index] }
            if index % 5 == 2 {
                test.failures = [
                    .init(location: "shop.yaml:3:5", subject: "$.name", message: "expected \"a\"\tgot \u{7f}", count: 2)
                ]
            }
            return test
        }
        for index in 0..<500 { result.latency.record(microseconds: UInt64(150 + index * 13)) }
        result.counts.completed = 500
        result.seconds = 5
        return result
    }

    @Test(arguments: [0, 1, 2, 57])
    func theReportIsTheWholeDocumentsEncoding(tests: Int) throws {
        let result = Self.result(tests: tests)
        let streamed = LoadReportFormats.jsonBytes(result, hostname: "ci-runner-7")
        #expect(streamed == (try Self.wholeDocument(result, hostname: "ci-runner-7")))
        // And it reads back as the load it is.
        let read = try #require(LoadReportFormats.read(streamed))
        #expect(read.load.tests.count == tests)
        #expect(read.load.tests.map(\.name) == result.tests.map(\.name))
        #expect(read.load.tests.map(\.latency.count) == result.tests.map(\.latency.count))
        #expect(LoadReportFormats.json(result, hostname: "ci-runner-7") == String(decoding: streamed, as: UTF8.self))
    }
}
