import APITestJSON

// MARK: - ExactSum

/// The sum of two numbers of an expression (`a + b`), computed on their exact decimal values (an `Int64`, a double's
/// shortest text, a ``JSONNumber``), so `9223372036854775807 + 1` is `9223372036854775808` and never a rounded
/// double, and `0.1 + 0.2` is `0.3`. What cannot be exact is an error, never a trap or a silent rounding.
enum ExactSum {
    /// Why a sum has no exact value.
    enum Failure: Error, Sendable, Hashable {
        /// An operand is NaN or an infinity.
        case notFinite
        /// The operands' magnitudes are so far apart that the exact sum has more than ``maximumDigits`` digits.
        case tooManyDigits
        /// The sum is beyond a double's range (about 1.8e308), where no JSON number is kept.
        case outOfRange
    }

    /// The most digits an exact sum may have (`1e300 + 1e-300` has 601).
    static let maximumDigits = 10_000

    /// The exact sum of two numbers: `.integer` when it is a whole number that fits 64 bits, `.double` when a double
    /// stands for exactly that decimal value, `.number` otherwise. `nil` unless both are numbers.
    static func sum(_ left: JSONValue, _ right: JSONValue) throws(Failure) -> JSONValue? {
        if case .integer(let a) = left, case .integer(let b) = right {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return .integer(sum) }
        }
        guard let a = try exact(left), let b = try exact(right) else { return nil }
        let total = try add(a, b)
        if let integer = total.int64Value { return .integer(integer) }
        let nearest = total.doubleValue
        guard nearest.isFinite else { throw .outOfRange }
        if case .integer = left, case .integer = right { return .number(total) }
        return JSONNumber(nearest) == total ? .double(nearest) : .number(total)
    }

    /// A number's exact decimal value; nil for other values.
    private static func exact(_ value: JSONValue) throws(Failure) -> JSONNumber? {
        switch value {
        case .integer(let integer): return JSONNumber(integer)
        case .double(let double):
            guard let number = JSONNumber(double) else { throw .notFinite }
            return number
        case .number(let number): return number
        default: return nil
        }
    }

    // MARK: - Decimal arithmetic

    /// `a + b` exactly.
    static func add(_ a: JSONNumber, _ b: JSONNumber) throws(Failure) -> JSONNumber {
        if a.isZero { return b }
        if b.isZero { return a }
        let exponent = min(a.exponent, b.exponent)
        // Both exponents are clamped to 32 bits, so these differences cannot overflow.
        let widthA = a.digits.count + (a.exponent - exponent)
        let widthB = b.digits.count + (b.exponent - exponent)
        guard max(widthA, widthB) < maximumDigits else { throw .tooManyDigits }
        let width = max(widthA, widthB)
        let x = aligned(a, exponent: exponent, width: width)
        let y = aligned(b, exponent: exponent, width: width)
        if a.isNegative == b.isNegative {
            return JSONNumber(isNegative: a.isNegative, digits: addMagnitudes(x, y), exponent: exponent)
        }
        // Opposite signs: the larger magnitude minus the smaller, with the larger's sign.
        if x.lexicographicallyPrecedes(y) {
            return JSONNumber(isNegative: b.isNegative, digits: subtractMagnitudes(y, x), exponent: exponent)
        }
        return JSONNumber(isNegative: a.isNegative, digits: subtractMagnitudes(x, y), exponent: exponent)
    }

    /// The digits of `number` scaled to `exponent`, padded with leading zeros to `width` digits.
    private static func aligned(_ number: JSONNumber, exponent: Int, width: Int) -> [UInt8] {
        let trailing = number.exponent - exponent
        var digits = [UInt8](repeating: 0, count: width - number.digits.count - trailing)
        digits += number.digits
        digits += [UInt8](repeating: 0, count: trailing)
        return digits
    }

    /// `x + y` for two magnitudes of the same width (most significant digit first).
    private static func addMagnitudes(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: x.count + 1)
        var carry: UInt8 = 0
        for index in stride(from: x.count - 1, through: 0, by: -1) {
            let digit = x[index] + y[index] + carry
            result[index + 1] = digit % 10
            carry = digit / 10
        }
        result[0] = carry
        return result
    }

    /// `x - y` for two magnitudes of the same width with `x >= y`.
    private static func subtractMagnitudes(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: x.count)
        var borrow: Int = 0
        for index in stride(from: x.count - 1, through: 0, by: -1) {
            var digit = Int(x[index]) - Int(y[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 10 }
            result[index] = UInt8(digit)
        }
        return result
    }
}
