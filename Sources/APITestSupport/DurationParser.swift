/// Parses durations written as `250ms`, `10s`, `1.5s`, `2m`, `1h`, or a bare number of seconds (`10`, `0.5`).
package enum DurationParser {
    /// Why a duration could not be parsed.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var text: String
        package var message: String
        package var description: String { message }
    }

    /// Durations must be shorter than this (about 31 years), which keeps nanoseconds within 64 bits.
    package static let maximumSeconds = 1e9

    /// The units accepted after a number, with their length in seconds.
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600),
    ]

    /// Parses `text` into a non-negative duration.
    ///
    /// Whitespace around the text and between number and unit is allowed; the number is a plain decimal
    /// (`1`, `1.5`, `.5`); no sign, no exponent.
    package static func parse(_ text: String) throws(ParseError) -> Duration {
        let trimmed = text.trimmingWhitespace()
        var number = Substring(trimmed)
        var scale = 1.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            scale = unit.seconds
            break
        }
        let digits = String(number).trimmingWhitespace()
        guard digits.isPlainDecimal, let value = Double(digits) else {
            throw ParseError(text: text, message: invalidMessage(text))
        }
        let seconds = value * scale
        guard seconds.isFinite, seconds < maximumSeconds else {
            throw ParseError(text: text, message: "duration '\(text)' is too long")
        }
        return duration(seconds: seconds)
    }

    /// A duration from a number of seconds, such as a bare YAML number; negative and non-finite numbers fail.
    package static func duration(fromSeconds seconds: Double) throws(ParseError) -> Duration {
        guard seconds.isFinite, seconds >= 0 else {
            throw ParseError(text: "\(seconds)", message: "a duration cannot be negative")
        }
        guard seconds < maximumSeconds else {
            throw ParseError(text: "\(seconds)", message: "duration of \(seconds) s is too long")
        }
        return duration(seconds: seconds)
    }

    // MARK: - Helpers

    private static func duration(seconds: Double) -> Duration {
        let nanoseconds = (seconds * 1e9).rounded()
        return .nanoseconds(Int64(nanoseconds))
    }

    private static func invalidMessage(_ text: String) -> String {
        "invalid duration '\(text)'; use a number with a unit (250ms, 10s, 1.5s, 2m, 1h) or a bare number of seconds"
    }
}

extension String {
    /// Whether the text is digits with at most one `.` among them (`10`, `1.5`, `.5`): the number part of a
    /// duration or a size, with no sign, exponent or spaces.
    var isPlainDecimal: Bool {
        var sawDigit = false
        var sawDot = false
        for character in self {
            if character.isASCII, character.isNumber {
                sawDigit = true
            } else if character == ".", !sawDot {
                sawDot = true
            } else {
                return false
            }
        }
        return sawDigit
    }

    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
