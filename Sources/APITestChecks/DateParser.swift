import Foundation
import Synchronization

/// Reads the dates APIs send: ISO-8601 (RFC 3339) date-times and dates, HTTP dates (RFC 9110 IMF-fixdate, the
/// obsolete RFC 850 and asctime forms), and cookie `Expires` values.
enum DateParser {
    /// The date `text` names, or `nil`.
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let first = text.first, first.isNumber {
            return isoDate(text)
        }
        // Made once: a DateFormatter costs an ICU format to build. One caller at a time uses them.
        return httpFormatters.withLock { formatters in
            formatters.lazy.compactMap { $0.date(from: text) }.first
        }
    }

    private static let httpFormatters = Mutex(
        httpFormats.map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            return formatter
        })

    /// True when `text` is an ISO-8601 (RFC 3339) date or date-time.
    static func isISO8601(_ text: String) -> Bool {
        isoDate(text) != nil
    }

    /// An RFC 3339 date (`2026-11-22`) or date-time (`2026-11-22T10:00:00Z`, with seconds' fraction or an offset),
    /// whole and valid: Foundation's parser alone accepts trailing text and days such as February 30.
    private static func isoDate(_ text: String) -> Date? {
        guard text.wholeMatch(of: isoShape) != nil else { return nil }
        // ISO8601DateFormatter wraps an ICU formatter, which is not safe to use from two threads at once.
        let parsed = isoFormatters.withLock { formatters in
            formatters.lazy.compactMap { $0.date(from: text) }.first
        }
        guard let parsed else { return nil }
        // The calendar date must be the one written (no rolling over of 2026-02-30 into March).
        let day = String(text.prefix(10))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        if text.count == 10 {
            let parts = calendar.dateComponents([.year, .month, .day], from: parsed)
            let written = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            return written == day ? parsed : nil
        }
        let values = day.split(separator: "-").compactMap { Int($0) }
        guard values.count == 3, (1...12).contains(values[1]) else { return nil }
        var components = DateComponents()
        components.year = values[0]
        components.month = values[1]
        components.day = 1
        guard let monthStart = calendar.date(from: components),
            let days = calendar.range(of: .day, in: .month, for: monthStart)
        else { return nil }
        return days.contains(values[2]) ? parsed : nil
    }

    private nonisolated(unsafe) static let isoShape =
        /\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2}))?/

    private static let isoFormatters: Mutex<[ISO8601DateFormatter]> = {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        return Mutex([plain, withFraction, dateOnly])
    }()

    private static let httpFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        "EEE, dd-MMM-yyyy HH:mm:ss zzz", "MMM d HH:mm:ss yyyy zzz",
    ]
}
