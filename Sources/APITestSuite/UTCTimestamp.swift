package import Foundation

/// ISO-8601 texts of an instant in UTC, computed arithmetically.
///
/// The built-in `now.*` values are set for every test; `ISO8601DateFormatter` builds an ICU calendar and date
/// format each time (about a millisecond), so this formats the fields directly. The texts are the ones
/// `ISO8601DateFormatter` gives with `[.withInternetDateTime, .withFractionalSeconds]` and
/// `[.withFullDate, .withDashSeparatorInDate]` in its default UTC time zone, rounded to the nearest millisecond
/// as it rounds.
package struct UTCTimestamp: Sendable, Equatable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package let unixMilliseconds: Int64

    /// The instant `date`, rounded to the nearest millisecond.
    package init(_ date: Date) {
        unixMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    // MARK: - Texts

    /// `2026-11-22T04:58:32.123Z`.
    package var dateTimeText: String {
        let millisecondOfDay = Self.floorDivide(unixMilliseconds, by: 86_400_000).remainder
        return String(secondsText.dropLast()) + "." + Self.pad(millisecondOfDay % 1000, 3) + "Z"
    }

    /// `2026-11-22T04:58:32Z`: to the second, as certificates date things.
    package var secondsText: String {
        let (days, millisecondOfDay) = Self.floorDivide(unixMilliseconds, by: 86_400_000)
        let seconds = millisecondOfDay / 1000
        return Self.dateText(days: days) + "T" + Self.pad(seconds / 3600, 2) + ":" + Self.pad(seconds / 60 % 60, 2)
            + ":" + Self.pad(seconds % 60, 2) + "Z"
    }

    /// `2026-11-22`.
    package var dateText: String {
        Self.dateText(days: Self.floorDivide(unixMilliseconds, by: 86_400_000).quotient)
    }

    // MARK: - Calendar arithmetic

    /// The proleptic Gregorian date `days` after 1970-01-01 as `yyyy-MM-dd` (H. Hinnant's `civil_from_days`).
    private static func dateText(days: Int64) -> String {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let yearText = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        return yearText + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    private static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
