/// The texts of `Timestamp` (RFC 3339, UTC, `1972-01-01T10:00:20.021Z`) and `Duration` (`1.000340012s`), with 0, 3,
/// 6 or 9 fractional digits on output as the JSON mapping writes them, and any of 0 to 9 digits (and, for
/// timestamps, any UTC offset; `T` and `Z` upper-case, as the conformance suite requires) on input.
enum ProtoTimeText {
    /// The earliest and latest seconds a Timestamp may hold (0001-01-01T00:00:00Z, 9999-12-31T23:59:59Z).
    static let timestampRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
    /// The largest magnitude of a Duration's seconds (10,000 years).
    static let durationLimit: Int64 = 315_576_000_000

    // MARK: - Timestamp

    /// The RFC 3339 text; `nil` outside the range Timestamp allows.
    static func timestamp(seconds: Int64, nanos: Int32) -> String? {
        guard timestampRange.contains(seconds), (0...999_999_999).contains(nanos) else { return nil }
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let hour = secondOfDay / 3600
        let minute = secondOfDay / 60 % 60
        let second = secondOfDay % 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + fraction(nanos) + "Z"
    }

    /// The seconds and nanos of an RFC 3339 text; `nil` when it is not one or is outside the range.
    static func timestamp(parsing text: String) -> (seconds: Int64, nanos: Int32)? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), scanner.take("T"), let hour = scanner.digits(2),
            scanner.take(":"), let minute = scanner.digits(2), scanner.take(":"), let second = scanner.digits(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var nanos: Int64 = 0
        if scanner.take(".") {
            guard let fraction = scanner.fraction() else { return nil }
            nanos = fraction
        }
        var offset: Int64 = 0
        if scanner.take("Z") {
        } else if let sign = scanner.sign() {
            guard let offsetHours = scanner.digits(2), scanner.take(":"), let offsetMinutes = scanner.digits(2),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        guard timestampRange.contains(seconds) else { return nil }
        return (seconds, Int32(nanos))
    }

    // MARK: - Duration

    /// The text (`-1.5s`); `nil` outside Duration's range or with mixed signs.
    static func duration(seconds: Int64, nanos: Int32) -> String? {
        guard (-durationLimit...durationLimit).contains(seconds), (-999_999_999...999_999_999).contains(nanos),
            !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0)
        else { return nil }
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(seconds.magnitude) + fraction(Int32(nanos.magnitude)) + "s"
    }

    /// The seconds and nanos of a duration text; `nil` when it is not one or is outside the range.
    static func duration(parsing text: String) -> (seconds: Int64, nanos: Int32)? {
        var scanner = Scanner(Array(text.utf8))
        let negative = scanner.take("-")
        guard let seconds = scanner.number(maxDigits: 12) else { return nil }
        var nanos: Int64 = 0
        if scanner.take(".") {
            guard let fraction = scanner.fraction() else { return nil }
            nanos = fraction
        }
        guard scanner.take("s"), scanner.isAtEnd, seconds <= durationLimit else { return nil }
        return negative ? (-seconds, Int32(-nanos)) : (seconds, Int32(nanos))
    }

    // MARK: - Calendar

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    // MARK: - Digits

    /// `.021`, `.000340`, `.000340012` or nothing: the fewest of 0, 3, 6 or 9 digits that hold `nanos`.
    private static func fraction(_ nanos: Int32) -> String {
        if nanos == 0 { return "" }
        if nanos % 1_000_000 == 0 { return "." + pad(Int64(nanos / 1_000_000), 3) }
        if nanos % 1000 == 0 { return "." + pad(Int64(nanos / 1000), 6) }
        return "." + pad(Int64(nanos), 9)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// A cursor over ASCII text.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func sign() -> Int64? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }

        /// Exactly `count` digits.
        mutating func digits(_ count: Int) -> Int64? {
            guard bytes.count - position >= count else { return nil }
            var value: Int64 = 0
            for offset in 0..<count {
                let byte = bytes[position + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// One to `maxDigits` digits.
        mutating func number(maxDigits: Int) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                count += 1
                guard count <= maxDigits else { return nil }
                value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return count > 0 ? value : nil
        }

        /// One to nine fractional digits, as nanoseconds.
        mutating func fraction() -> Int64? {
            let start = position
            guard var value = number(maxDigits: 9) else { return nil }
            for _ in 0..<(9 - (position - start)) { value *= 10 }
            return value
        }
    }
}
