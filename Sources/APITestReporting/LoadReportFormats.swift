package import APITestResults
import APITestSupport
import Foundation

/// The files a load run writes: the JSON report (everything measured, histograms included so that the reports of
/// several generators merge exactly) and JUnit XML with one test case per threshold.
package enum LoadReportFormats {
    /// The JSON report: `{"version": 1, "generator": "apitest", "kind": "load", "hostname": ..., "load": {...}}`.
    package struct Document: Codable, Sendable {
        package var version = 1
        package var generator = "apitest"
        package var kind = "load"
        package var hostname: String
        package var achievedRate: Double
        package var load: LoadResult

        package init(hostname: String, load: LoadResult) {
            self.hostname = hostname
            self.achievedRate = load.achievedRate
            self.load = load
        }
    }

    /// How the JSON report writes numbers that JSON cannot hold, and reads them back (`decoder()`).
    private static let nonFinite = (positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    /// The JSON report of `result`.
    package static func json(_ result: LoadResult, hostname: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity,
            nan: nonFinite.nan)
        do {
            return String(decoding: try encoder.encode(Document(hostname: hostname, load: result)), as: UTF8.self)
                + "\n"
        } catch {
            return "{\"version\": 1, \"error\": \"the load report could not be encoded\"}\n"
        }
    }

    /// A decoder for what `json(_:hostname:)` writes: ISO 8601 dates, and the non-finite numbers it writes as
    /// strings.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity,
            nan: nonFinite.nan)
        return decoder
    }

    /// Reads a load JSON report back; `nil` when `bytes` is not one.
    package static func read(_ bytes: [UInt8]) -> Document? {
        guard let document = try? decoder().decode(Document.self, from: Data(bytes)), document.kind == "load" else {
            return nil
        }
        return document
    }

    /// JUnit XML: a `testsuite` named `load thresholds` with one `testcase` per threshold, failed when it did not
    /// hold (its message says what was measured).
    package static func junit(_ result: LoadResult, hostname: String) -> String {
        let failures = result.thresholds.count { !$0.holds }
        let counts = [("tests", "\(result.thresholds.count)"), ("failures", "\(failures)"), ("errors", "0")]
        let time = ReportText.secondsText(result.seconds)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites" + ReportText.xmlAttributes([("name", "apitest load")] + counts + [("time", time)]) + ">\n"
        xml +=
            "  <testsuite"
            + ReportText.xmlAttributes(
                [("name", "load thresholds")] + counts + [
                    ("skipped", "0"), ("time", time), ("timestamp", ReportText.iso8601(result.startedAt)),
                    ("hostname", hostname),
                ]) + ">\n"
        for outcome in result.thresholds {
            let measured = "measured \(LoadReportText.value(outcome))"
            xml +=
                "    <testcase"
                + ReportText.xmlAttributes([
                    ("name", outcome.threshold.text), ("classname", "load thresholds"), ("time", "0.000"),
                ]) + ">\n"
            if !outcome.holds {
                xml +=
                    "      <failure"
                    + ReportText.xmlAttributes([
                        ("message", "threshold \(outcome.threshold.text) failed: \(measured)"), ("type", "threshold"),
                    ]) + ">\(ReportText.xmlText(measured))</failure>\n"
            }
            xml += "      <system-out>\(ReportText.xmlText(measured))</system-out>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
