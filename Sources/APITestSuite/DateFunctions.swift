import APITestJSON
import APITestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - DateFunctions

/// `now(format)` and `dateAdd(date, duration)` of expressions: UTC throughout, ISO 8601 dates and durations.
enum DateFunctions {
    /// The current time: ISO 8601 (`2026-11-24T09:30:00Z`) without a format, Unix seconds for `unix`, milliseconds
    /// for `unixMs`, else `format` as strftime(3) writes it in UTC.
    static func now(format: String?, at date: Date = Date()) throws(ExpressionFunctions.Problem) -> JSONValue {
        switch format {
        case nil, "iso"?: return .string(UTCTimestamp(date).dateTimeText)
        case "unix"?: return .integer(Int64(date.timeIntervalSince1970.rounded(.down)))
        case "unixMs"?: return .integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        case let pattern?:
            guard !pattern.isEmpty, pattern.utf8.count <= 200 else {
                throw ExpressionFunctions.Problem(
                    "now: the format is 1 to 200 bytes of strftime, not \(pattern.utf8.count)")
            }
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            gmtime_r(&seconds, &parts)
            var buffer = [CChar](repeating: 0, count: 1024)
            let written = strftime(&buffer, buffer.count, pattern, &parts)
            guard written > 0 else {
                throw ExpressionFunctions.Problem("now: strftime wrote nothing for the format '\(pattern)'")
            }
            return .string(String(decoding: buffer.prefix(written).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// `date` (`2026-11-24`, `2026-11-24T09:30:00Z`, `...T09:30:00.250+01:00`) plus the ISO 8601 `duration`
    /// (`P1D`, `P1Y2M`, `P2W`, `PT90M`, `PT1.5S`, `-P1M`), in UTC; a date stays a date unless the duration has a
    /// time part.
    static func add(_ duration: String, to date: String) throws(ExpressionFunctions.Problem) -> String {
        guard let components = durationComponents(duration) else {
            throw ExpressionFunctions.Problem(
                "dateAdd: '\(duration)' is not an ISO 8601 duration like P1D, PT2H, P1Y2M10DT2H30M or -P1W")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let dateOnly = date.count == 10 && !date.contains("T")
        let parsed: Date?
        let fractional = date.contains(".")
        if dateOnly {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            parsed = formatter.date(from: date)
        } else {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions =
                fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
            parsed = formatter.date(from: date)
        }
        guard isValidDate(date), let start = parsed else {
            throw ExpressionFunctions.Problem(
                "dateAdd: '\(date)' is not an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z)")
        }
        guard let result = calendar.date(byAdding: components.components, to: start),
            case let parts = calendar.dateComponents([.year, .era], from: result), parts.era == 1,
            let year = parts.year, (1...9999).contains(year)
        else {
            throw ExpressionFunctions.Problem(
                "dateAdd: '\(date)' plus '\(duration)' is outside the years 0001 to 9999")
        }
        if dateOnly && !components.hasTime {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            return formatter.string(from: result)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions =
            fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.string(from: result)
    }

    /// Whether `text` is a real calendar date or date-time in the forms `dateAdd` reads (`2026-11-24`,
    /// `2026-11-24T09:30:00Z`, `...T09:30:00.250+01:00`): month 1–12, a day the month has (February 29 only in a
    /// leap year), hours 0–23, minutes and seconds 0–59, an offset within ±23:59. The system's ISO 8601 parser
    /// rolls `2024-02-30` over to March 1 instead of refusing it.
    static func isValidDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
            let day = number(8..<10), (1...12).contains(month), year >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        if bytes.count == 10 { return true }
        guard byte(10, is: "T"), let hour = number(11..<13), byte(13, is: ":"), let minute = number(14..<16),
            byte(16, is: ":"), let second = number(17..<19), hour < 24, minute < 60, second < 60
        else { return false }
        var index = 19
        if byte(index, is: ".") {
            index += 1
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { return false }
        }
        if byte(index, is: "Z") { return index + 1 == bytes.count }
        guard byte(index, is: "+") || byte(index, is: "-"), let offsetHours = number(index + 1..<index + 3),
            byte(index + 3, is: ":"), let offsetMinutes = number(index + 4..<index + 6), offsetHours < 24,
            offsetMinutes < 60
        else { return false }
        return index + 6 == bytes.count
    }

    /// The components of an ISO 8601 duration, negated for a leading `-`; nil when it is not one.
    static func durationComponents(_ text: String) -> (components: DateComponents, hasTime: Bool)? {
        var scalars = Substring(text)
        var sign = 1
        if scalars.hasPrefix("-") {
            sign = -1
            scalars = scalars.dropFirst()
        } else if scalars.hasPrefix("+") {
            scalars = scalars.dropFirst()
        }
        guard scalars.hasPrefix("P") else { return nil }
        scalars = scalars.dropFirst()
        var components = DateComponents()
        var inTime = false
        var hasTime = false
        var any = false
        var number = ""
        var lastDate = -1
        var lastTime = -1
        for character in scalars {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard !number.isEmpty else { return nil }
            let isFraction = number.contains(".")
            guard let value = Double(number), value.isFinite, value < 1e9 else { return nil }
            number = ""
            any = true
            if inTime {
                let order = ["H": 0, "M": 1, "S": 2]
                guard let rank = order[String(character)], rank > lastTime else { return nil }
                lastTime = rank
                hasTime = true
                if isFraction && character != "S" { return nil }
                switch character {
                case "H": components.hour = sign * Int(value)
                case "M": components.minute = sign * Int(value)
                default:
                    components.second = sign * Int(value.rounded(.down))
                    let nanos = Int(((value - value.rounded(.down)) * 1e9).rounded())
                    if nanos != 0 { components.nanosecond = sign * nanos }
                }
            } else {
                let order = ["Y": 0, "M": 1, "W": 2, "D": 3]
                guard let rank = order[String(character)], rank > lastDate, !isFraction else { return nil }
                lastDate = rank
                switch character {
                case "Y": components.year = sign * Int(value)
                case "M": components.month = sign * Int(value)
                case "W": components.day = (components.day ?? 0) + sign * 7 * Int(value)
                default: components.day = (components.day ?? 0) + sign * Int(value)
                }
            }
        }
        guard any, number.isEmpty, !(inTime && !hasTime) else { return nil }
        return (components, hasTime)
    }
}
