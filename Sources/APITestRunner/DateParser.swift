import Foundation

/// Reads the dates APIs send: ISO-8601 (RFC 3339) date-times and dates, HTTP dates (RFC 9110 IMF-fixdate, the
/// obsolete RFC 850 and asctime forms), and cookie `Expires` values.
enum DateParser {
    /// The date `text` names, or `nil`.
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        for formatter in isoFormatters {
            if let date = formatter.date(from: text) { return date }
        }
        for format in httpFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// True when `text` is an ISO-8601 date or date-time.
    static func isISO8601(_ text: String) -> Bool {
        isoFormatters.contains { $0.date(from: text) != nil }
    }

    private nonisolated(unsafe) static let isoFormatters: [ISO8601DateFormatter] = {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        return [plain, withFraction, dateOnly]
    }()

    private static let httpFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        "EEE, dd-MMM-yyyy HH:mm:ss zzz", "MMM d HH:mm:ss yyyy zzz",
    ]
}
