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
        /// The run beside its `--baseline` (both runs' figures, the changes and the relative thresholds' verdicts);
        /// absent without one.
        package var baseline: LoadBaselineComparison?

        package init(hostname: String, load: LoadResult, baseline: LoadBaselineComparison? = nil) {
            self.hostname = hostname
            self.achievedRate = load.achievedRate
            self.load = load
            self.baseline = baseline
        }
    }

    /// How the JSON report writes numbers that JSON cannot hold, and reads them back (`decoder()`).
    private static let nonFinite = (positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    /// The JSON report of `result`.
    package static func json(_ result: LoadResult, hostname: String, baseline: LoadBaselineComparison? = nil) -> String
    {
        String(decoding: jsonBytes(result, hostname: hostname, baseline: baseline), as: UTF8.self)
    }

    /// The JSON report of `result` as UTF-8, the same bytes as one `JSONEncoder` pass over the whole document would
    /// write, made a test at a time: the encoder holds a tree of the whole value while it writes, about 7 KiB a
    /// test of a suite's thousands (a 10,000-test load peaked at 130 MiB writing its 14 MB report). The document
    /// is encoded without its tests, and each test's object is encoded on its own and put in their array's place,
    /// indented as the whole document's encoding indents it.
    package static func jsonBytes(
        _ result: LoadResult, hostname: String, baseline: LoadBaselineComparison? = nil
    ) -> [UInt8] {
        let encoder = Self.encoder()
        var shell = result
        shell.tests = []
        let failed = Array("{\"version\": 1, \"error\": \"the load report could not be encoded\"}\n".utf8)
        guard
            let head = try? encoder.encode(Document(hostname: hostname, load: shell, baseline: baseline)).map({ $0 })
        else {
            return failed
        }
        // The empty array's place: `"tests"` is a key of `load`, two levels deep (after `"load"`: the baseline's
        // own `tests`, before it, are at the same depth).
        let slot = Array("\n    \"tests\" : [\n\n    ]".utf8)
        let load = head.firstRange(of: Array("\n  \"load\" : {".utf8))?.upperBound ?? head.startIndex
        guard !result.tests.isEmpty, let place = head[load...].firstRange(of: slot) else {
            // No tests (or a layout this does not know): the whole document in one pass.
            guard let whole = try? encoder.encode(Document(hostname: hostname, load: result, baseline: baseline))
            else { return failed }
            return Array(whole) + [UInt8(ascii: "\n")]
        }
        let indent = Array(repeating: UInt8(ascii: " "), count: 6)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.count + result.tests.count * 1_536)
        bytes += head[..<place.lowerBound]
        bytes += Array("\n    \"tests\" : [\n".utf8)
        for (index, test) in result.tests.enumerated() {
            guard let object = try? encoder.encode(test) else { return failed }
            // A line break in the encoder's output is layout (a string's own is escaped): each line but an empty
            // one (an empty container's) gets the indent. Copied a line at a time from the encoder's buffer (a
            // byte at a time through `Data`'s iterator cost about 20 instructions a byte of a report that reaches
            // megabytes).
            object.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                var lineStart = raw.startIndex
                while lineStart < raw.endIndex {
                    let lineEnd = raw[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? raw.endIndex
                    if raw[lineStart] != UInt8(ascii: "\n") { bytes += indent }
                    bytes.append(contentsOf: raw[lineStart..<lineEnd])
                    lineStart = lineEnd
                }
            }
            bytes += Array((index + 1 < result.tests.count ? ",\n" : "\n").utf8)
        }
        bytes += Array("    ]".utf8)
        bytes += head[place.upperBound...]
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The encoder of the JSON report: pretty, sorted keys, ISO 8601 dates, non-finite numbers as strings.
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: nonFinite.positiveInfinity, negativeInfinity: nonFinite.negativeInfinity,
            nan: nonFinite.nan)
        return encoder
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
