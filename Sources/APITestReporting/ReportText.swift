package import APITestResults
import APITestSupport
package import Foundation

/// Text helpers shared by the report formats: escaping for XML and HTML, characters made visible, numbers and
/// dates in the forms the formats expect.
///
/// Report text comes from servers and suites and may hold anything a Swift string can: control characters, `]]>`,
/// U+FFFD where a body was not valid UTF-8, markup. The escapers here make any of it safe in their format.
package enum ReportText {
    // MARK: - Characters

    /// Whether XML 1.0 can carry `scalar` at all (its `Char` production), escaped or not.
    package static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// A visible stand-in for a character that a format cannot carry or that would be misleading raw:
    /// `\u{1B}` for ESC.
    package static func visible(_ scalar: Unicode.Scalar) -> String { DisplayEscaping.unicodeEscape(scalar) }

    /// The characters every report format shows by their visible form: the control characters (C0, DEL, C1), the
    /// noncharacters that XML forbids, the line and paragraph separators (U+2028, U+2029: a line break to some
    /// viewers) and the bidirectional controls (Unicode's Bidi_Control property: U+061C, U+200E, U+200F,
    /// U+202A–U+202E, U+2066–U+2069), which would let a server reorder how the rest of a line reads. Each format
    /// replaces tab, line feed and carriage return in its own way.
    static let visibleCharacters: DisplayEscaping.Characters = [.controls, .lineBreaks, .noncharacters, .bidiControls]

    /// Whether `scalar` is one of ``visibleCharacters`` other than tab, line feed and carriage return.
    static func needsVisibleForm(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        default: return visibleCharacters.contains(scalar)
        }
    }

    // MARK: - XML

    /// `text` as XML character data: `&`, `<`, `>` escaped (so `]]>` cannot occur), carriage returns as `&#13;`,
    /// and characters XML cannot carry (or control characters) replaced by their visible form.
    package static func xmlText(_ text: String) -> String { Escaper.xmlText.escape(text) }

    /// `text` as an XML attribute value in double quotes; tabs and line breaks as character references so that
    /// they survive attribute-value normalisation.
    package static func xmlAttribute(_ text: String) -> String { Escaper.xmlAttribute.escape(text) }

    /// `pairs` as the attributes of an XML start tag, each value escaped (``xmlAttribute(_:)``), each with the
    /// space before it: ` name="a" time="0.012"`.
    package static func xmlAttributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(xmlAttribute($0.1))\"" }.joined()
    }

    // MARK: - HTML

    /// `text` escaped for HTML text and attribute values alike (`& < > " '`, carriage returns as `&#13;`),
    /// control characters made visible.
    package static func html(_ text: String) -> String { Escaper.html.escape(text) }

    // MARK: - Plain text

    /// `text` with control characters (other than tab and line feed) made visible, for TAP and plain text.
    package static func plain(_ text: String) -> String { Escaper.plain.escape(text) }

    /// `text` as one terminal line: every control character made visible, tab, carriage return and line feed
    /// included (`\t`, `\r`, `\n`), so that a header from a server cannot move the cursor, break the line or
    /// overwrite it.
    package static func terminalLine(_ text: String) -> String { Escaper.terminalLine.escape(text) }

    /// `text` on one line: line breaks and tabs become spaces, control characters visible.
    package static func oneLine(_ text: String) -> String { Escaper.oneLine.escape(text) }

    /// `", 4 attempts"` when a step of the test was sent more than once (retry), else `""`.
    package static func attemptsNote(_ result: TestResult) -> String {
        let attempts = result.steps.reduce(1) { max($0, $1.attempts) }
        return attempts > 1 ? ", \(attempts) attempts" : ""
    }

    /// At most `limit` characters of `text`, with a note of the full size when cut.
    package static func truncated(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "\n… (cut at \(limit) characters of \(text.count))"
    }

    // MARK: - Numbers and dates

    /// `duration` in seconds.
    package static func seconds(_ duration: Duration) -> Double { duration.inSeconds }

    /// `duration` in milliseconds, rounded to microseconds.
    package static func milliseconds(_ duration: Duration) -> Double {
        duration.inReportMilliseconds
    }

    /// A number as the JSON report writes it, for the text reports: a whole number without a fraction (`15`,
    /// `900`, never `15.0`), any other in the shortest form that reads back the same (`1.487`).
    package static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Three significant digits at most: `1.23`, `12.3`, `123`.
    package static func significant(_ value: Double) -> String {
        if value >= 100 { return String(Int(value.rounded())) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// How ``byteCount(_:digits:)`` writes the number of a unit larger than a byte.
    package enum ByteDigits: Sendable {
        /// One decimal: `12.5 KiB`, `512.0 MiB` (the console's upload progress).
        case oneDecimal
        /// Three significant digits at most (``significant(_:)``): `1.23 MiB`, `12.3 MiB`, `123 MiB` (the load
        /// summary).
        case significant
    }

    /// `bytes` in the largest binary unit it reaches, up to TiB: `512 B`, `12.5 KiB` or `12.3 KiB` as `digits`
    /// writes the number.
    package static func byteCount(_ bytes: Int64, digits: ByteDigits) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        switch digits {
        case .oneDecimal:
            let tenths = Int((value * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) \(units[unit])"
        case .significant:
            return "\(significant(value)) \(units[unit])"
        }
    }

    /// `duration` in seconds with three decimals (`0.012`), never negative: JUnit's `time`.
    package static func secondsText(_ duration: Duration) -> String {
        secondsText(seconds(duration))
    }

    /// `seconds` with three decimals (`0.012`), never negative: JUnit's `time`.
    package static func secondsText(_ seconds: Double) -> String {
        String(format: "%.3f", max(0, seconds))
    }

    /// `date` as ISO 8601 in UTC with seconds: `2025-05-01T12:34:56Z`.
    package static func iso8601(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// `METHOD URL → status`, or `METHOD URL (no response)`.
    package static func requestSummary(_ exchange: Exchange) -> String {
        if let status = exchange.statusCode { return "\(exchange.requestLine) → \(status)" }
        return "\(exchange.requestLine) (no response)"
    }

    /// The timings of an exchange as one line: `total 12.3 ms (DNS 0.1 ms, connect 0.4 ms, TLS 2.0 ms,
    /// first byte 11.0 ms)`, each measured from the start of the transfer.
    package static func timingsLine(_ timings: Exchange.Timings) -> String {
        func format(_ duration: Duration) -> String { DurationFormatter.format(duration) }
        var parts = ["DNS \(format(timings.nameLookup))", "connect \(format(timings.connect))"]
        if timings.tlsHandshake > .zero { parts.append("TLS \(format(timings.tlsHandshake))") }
        parts.append("first byte \(format(timings.firstByte))")
        return "total \(format(timings.total)) (\(parts.joined(separator: ", ")))"
    }
}
