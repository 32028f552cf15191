// MARK: - Reading numbers

extension JSONValue {
    /// The number written as `text` (`[-+]? digits [. digits] [e [-+]? digits]`, also `.5` and `5.`), kept exactly:
    /// `.integer` for a whole number written without fraction or exponent that fits 64 bits, `.double` when the
    /// nearest double reads back as the same decimal value, `.number` otherwise. `nil` for other text and for
    /// magnitudes beyond a double's range.
    package init?(numberText text: some StringProtocol) {
        guard let exact = JSONNumber(text: text) else { return nil }
        let written = Substring(text)
        if !written.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            if let integer = exact.int64Value {
                self = .integer(integer)
                return
            }
            guard exact.doubleValue.isFinite else { return nil }
            self = .number(exact)
            return
        }
        guard let nearest = Double(written), nearest.isFinite else { return nil }
        self = Self.decimal(exact, nearest: nearest)
    }

    /// `.double(nearest)` when the double stands for exactly `exact` (its shortest text has the same value),
    /// `.number(exact)` otherwise.
    static func decimal(_ exact: JSONNumber, nearest: Double) -> JSONValue {
        JSONNumber(nearest) == exact ? .double(nearest) : .number(exact)
    }
}

// MARK: - Comparing numbers

extension JSONValue {
    /// 2^53: below it, an integral double and the integer it holds are written with the same digits.
    private static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// -1, 0 or 1 comparing two numbers exactly by their decimal values (an `Int64`, a double's shortest text, a
    /// `JSONNumber`), never through a lossy conversion; `nil` unless both are numbers, or when one is NaN.
    package static func numericOrder(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.double(let a), .double(let b)):
            if a.isNaN || b.isNaN { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .double(let b)) where abs(b) < exactIntegerLimit: return compare(a, b)
        case (.double(let a), .integer(let b)) where abs(a) < exactIntegerLimit: return compare(b, a).map { -$0 }
        case (.integer, _), (.double, _), (.number, _):
            switch rhs {
            case .integer, .double, .number: break
            default: return nil
            }
            if let a = lhs.numberValue, let b = rhs.numberValue { return JSONNumber.order(a, b) }
            // A NaN or an infinity: the doubles order them (a `.number` is always finite).
            guard let a = lhs.doubleValue, let b = rhs.doubleValue, !a.isNaN, !b.isNaN else { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        default:
            return nil
        }
    }

    /// Exact order of an integer and a double below 2^53 in magnitude (no rounding of the integer to a double).
    private static func compare(_ integer: Int64, _ double: Double) -> Int? {
        if double.isNaN { return nil }
        let whole = Int64(double) // truncates toward zero; exact, as |double| < 2^53
        if integer < whole { return -1 }
        if integer > whole { return 1 }
        let wholeValue = Double(whole)
        return double > wholeValue ? -1 : (double < wholeValue ? 1 : 0)
    }
}
