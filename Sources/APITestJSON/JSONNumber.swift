/// A number kept as its exact decimal value, `±digits × 10^exponent`, for numbers that neither `Int64` nor
/// `Double` holds exactly (`12345678901234567891`, `0.10000000000000000001`).
///
/// The same type gives every JSON number an exact decimal value: an `Int64` is its own value, and a `Double` stands
/// for the decimal it is written as (its shortest round-trip text, `0.1` for the double nearest 0.1), which is how
/// JSON and YAML texts that read as a double were written. Comparisons are exact on those decimal values.
public struct JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Stored in this order (8 + 4 + 1 bytes), so the type (and so ``JSONValue``) stays within 16 bytes.
    /// The decimal digits (0–9, not ASCII) of the magnitude without leading or trailing zeros; empty for zero.
    public let digits: [UInt8]
    private let storedExponent: Int32
    /// True for a negative value; zero is never negative.
    public let isNegative: Bool
    /// The power of ten the digits are scaled by (0 for zero).
    public var exponent: Int { Int(storedExponent) }

    /// Exponents are kept within ±`exponentLimit` while reading text, so that arithmetic on them cannot overflow.
    /// (Such numbers are far outside any `Double`, and stored exponents are clamped to 32 bits anyway.)
    private static let exponentLimit = 100_000_000

    /// Creates a number from its parts; leading and trailing zeros of `digits` are dropped.
    public init(isNegative: Bool, digits: [UInt8], exponent: Int) {
        var start = 0
        while start < digits.count, digits[start] == 0 { start += 1 }
        var end = digits.count
        var exponent = exponent
        while end > start, digits[end - 1] == 0 {
            end -= 1
            exponent += 1
        }
        self.digits = Array(digits[start..<end])
        self.isNegative = isNegative && start < end
        let clamped = min(max(exponent, Int(Int32.min) / 2), Int(Int32.max) / 2)
        self.storedExponent = start < end ? Int32(clamped) : 0
    }

    /// The exact value of an integer.
    public init(_ integer: Int64) {
        self.init(isNegative: integer < 0, digits: Self.decimalDigits(integer.magnitude), exponent: 0)
    }

    /// The decimal value a double stands for (its shortest round-trip text); `nil` for NaN and infinities.
    public init?(_ double: Double) {
        guard double.isFinite else { return nil }
        self.init(text: double.description)
    }

    /// Reads decimal text: `[-+]? (digits [. digits?] | . digits) ([eE] [-+]? digits)?`; `nil` for anything else.
    public init?(text: some StringProtocol) {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        while let byte = utf8.first {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if sawPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            utf8 = utf8.dropFirst()
        }
        guard sawDigit else { return nil }
        if let e = utf8.first {
            guard e == UInt8(ascii: "e") || e == UInt8(ascii: "E") else { return nil }
            utf8 = utf8.dropFirst()
            var exponentNegative = false
            if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                utf8 = utf8.dropFirst()
            }
            guard !utf8.isEmpty else { return nil }
            var power = 0
            for byte in utf8 {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                if power < Self.exponentLimit { power = power * 10 + Int(byte - UInt8(ascii: "0")) }
            }
            exponent += exponentNegative ? -power : power
        }
        self.init(isNegative: negative, digits: digits, exponent: exponent)
    }

    private static func decimalDigits(_ magnitude: UInt64) -> [UInt8] {
        guard magnitude > 0 else { return [] }
        return String(magnitude).utf8.map { $0 - UInt8(ascii: "0") }
    }

    // MARK: - Properties

    /// True for zero.
    public var isZero: Bool { digits.isEmpty }

    /// True when the value is a whole number.
    public var isInteger: Bool { exponent >= 0 }

    /// The nearest `Double` (correctly rounded; ±infinity beyond its range).
    public var doubleValue: Double {
        Double(description) ?? (isNegative ? -.infinity : .infinity)
    }

    /// The value as an `Int64` when it is a whole number in its range.
    public var int64Value: Int64? {
        guard isInteger, digits.count + exponent <= 19 else { return nil }
        return Int64(description)
    }

    /// The whole part, rounded toward zero (`-1.9` → `-1`).
    public var integerPart: JSONNumber {
        guard exponent < 0 else { return self }
        guard scale > 0 else { return JSONNumber(isNegative: false, digits: [], exponent: 0) }
        return JSONNumber(isNegative: isNegative, digits: Array(digits[0..<scale]), exponent: 0)
    }

    /// The position of the decimal point relative to the first digit: the value's magnitude is in
    /// `[10^(scale-1), 10^scale)`.
    private var scale: Int { digits.count + exponent }

    // MARK: - Text

    /// The value as JSON number text with every digit kept: whole numbers in full (`12345678901234567891`),
    /// fractions in positional notation (`0.000123`), and an exponent only for very large or small magnitudes
    /// (`1.5e+400`, `2e-50`).
    public var description: String {
        guard !isZero else { return "0" }
        var text = isNegative ? "-" : ""
        let ascii = digits.map { Character(Unicode.Scalar($0 + UInt8(ascii: "0"))) }
        if exponent >= 0 && scale <= 64 {
            text.append(contentsOf: ascii)
            text.append(String(repeating: "0", count: exponent))
        } else if exponent < 0 && scale > 0 {
            text.append(contentsOf: ascii[0..<scale])
            text.append(".")
            text.append(contentsOf: ascii[scale...])
        } else if exponent < 0 && scale > -24 {
            text.append("0.")
            text.append(String(repeating: "0", count: -scale))
            text.append(contentsOf: ascii)
        } else {
            text.append(ascii[0])
            if ascii.count > 1 {
                text.append(".")
                text.append(contentsOf: ascii[1...])
            }
            text.append(scale - 1 < 0 ? "e-" : "e+")
            text.append(String((scale - 1).magnitude))
        }
        return text
    }

    // MARK: - Order

    /// -1, 0 or 1 as `lhs` is smaller than, equal to or larger than `rhs`.
    public static func order(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative ? -1 : 1 }
        let magnitude = magnitudeOrder(lhs, rhs)
        return lhs.isNegative ? -magnitude : magnitude
    }

    private static func magnitudeOrder(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if lhs.isZero || rhs.isZero { return lhs.isZero ? (rhs.isZero ? 0 : -1) : 1 }
        if lhs.scale != rhs.scale { return lhs.scale < rhs.scale ? -1 : 1 }
        for (a, b) in zip(lhs.digits, rhs.digits) where a != b { return a < b ? -1 : 1 }
        // No trailing zeros: the one with more digits is larger.
        return lhs.digits.count == rhs.digits.count ? 0 : (lhs.digits.count < rhs.digits.count ? -1 : 1)
    }

    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool { order(lhs, rhs) < 0 }
}

// MARK: - Multiples

extension JSONNumber {
    /// Whether `self` is an integer multiple of `divisor` (a `divisor` of zero has only zero as a multiple).
    public func isMultiple(of divisor: JSONNumber) -> Bool {
        if isZero { return true }
        if divisor.isZero { return false }
        let shift = exponent - divisor.exponent
        // Both significands end in a non-zero digit; a negative shift would need trailing zeros in ours.
        guard shift >= 0 else { return false }
        guard divisor.digits.count <= 19 else {
            // Too long for a machine word: long division in base 10.
            return Self.remainderIsZero(digits, shift: shift, divisor: divisor.digits)
        }
        var modulus: UInt64 = 0
        for digit in divisor.digits { modulus = modulus * 10 + UInt64(digit) }
        if modulus == 1 { return true }
        let m = UInt128(modulus)
        var remainder: UInt128 = 0
        for digit in digits { remainder = (remainder * 10 + UInt128(digit)) % m }
        // r × 10^k ≡ 0 (mod m) needs at most as many tens as m has factors of 2 (fewer than 64).
        let steps = min(shift, 64)
        var count = 0
        while count < steps && remainder != 0 {
            remainder = (remainder * 10) % m
            count += 1
        }
        return remainder == 0
    }

    /// Long division of `digits` followed by `shift` zeros by a divisor of more than 19 digits, in base 10.
    private static func remainderIsZero(_ digits: [UInt8], shift: Int, divisor: [UInt8]) -> Bool {
        var remainder: [UInt8] = []
        func feed(_ digit: UInt8) {
            if remainder.isEmpty && digit == 0 { return }
            remainder.append(digit)
            while compare(remainder, divisor) >= 0 { remainder = subtract(remainder, divisor) }
        }
        for digit in digits { feed(digit) }
        // As in ``isMultiple(of:)``: a divisor below 10^n has fewer than 4n factors of 2.
        let steps = min(shift, 4 * divisor.count)
        var count = 0
        while count < steps && !remainder.isEmpty {
            feed(0)
            count += 1
        }
        return remainder.isEmpty
    }

    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// `a - b` for `a >= b`, both without leading zeros; the result has none either.
    private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = a
        var borrow: Int = 0
        var i = result.count - 1
        var j = b.count - 1
        while i >= 0 {
            var value = Int(result[i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 10 }
            result[i] = UInt8(value)
            i -= 1
            j -= 1
        }
        let firstNonZero = result.firstIndex { $0 != 0 } ?? result.count
        return Array(result[firstNonZero...])
    }
}
