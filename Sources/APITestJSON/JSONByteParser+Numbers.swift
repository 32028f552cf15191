// MARK: - Numbers

extension JSONByteParser {
    /// Exactly representable powers of ten for the fast double path.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses the number starting at `position` (a `-` or a digit).
    ///
    /// Integers that fit `Int64` are exact; other numbers take Clinger's exact fast path when the significand has
    /// at most 15 digits and the power of ten is at most 22 (such a decimal is always the shortest text of its
    /// double), and ``JSONValue/init(numberText:)`` otherwise, which keeps a `.number` when no double holds the
    /// written value exactly.
    ///
    /// With `validatingOnly`, a number off the fast paths that is surely within a double's range (at most 308
    /// digits before the point once the exponent is applied) is checked but not converted, and `.null` returned:
    /// the tape reads numbers again when they are asked for.
    mutating func parseNumber(validatingOnly: Bool = false) throws(JSONParseError) -> JSONValue {
        let start = position
        var index = position
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit after '-', found \(describe(at: index))", at: index)
        }
        var significand: UInt64 = 0
        var significantDigits = 0
        var tooManyDigits = false
        let integerStart = index

        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                accumulate(bytes[index], &significand, &significantDigits, &tooManyDigits)
                index += 1
            }
        }

        // Digits before the point, none for a leading 0: the value is below 10^(integerDigits + exponent).
        let integerDigits = bytes[integerStart] == UInt8(ascii: "0") ? 0 : index - integerStart
        var isInteger = true
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit after the decimal point, found \(describe(at: index))", at: index)
            }
            while index < bytes.count, isDigit(bytes[index]) {
                if !tooManyDigits {
                    accumulate(bytes[index], &significand, &significantDigits, &tooManyDigits)
                    if !tooManyDigits { fractionDigits += 1 }
                }
                index += 1
            }
        }

        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent, found \(describe(at: index))", at: index)
            }
            while index < bytes.count, isDigit(bytes[index]) {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        position = index

        if isInteger && !tooManyDigits {
            if negative, significand <= UInt64(Int64.max) + 1 {
                return .integer(significand == UInt64(Int64.max) + 1 ? Int64.min : -Int64(significand))
            }
            if !negative, significand <= UInt64(Int64.max) {
                return .integer(Int64(significand))
            }
        }

        let decimalExponent = exponent - fractionDigits
        if !tooManyDigits, significantDigits <= 15, abs(decimalExponent) <= 22 {
            var value = Double(significand)
            if decimalExponent < 0 {
                value /= Self.powersOfTen[-decimalExponent]
            } else {
                value *= Self.powersOfTen[decimalExponent]
            }
            return .double(negative ? -value : value)
        }
        if validatingOnly && integerDigits + exponent <= 308 { return .null }
        // Rare: many digits or a large exponent. Keep the exact decimal value when no double holds it.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = JSONValue(numberText: text) else {
            throw error("number is out of the range of a 64-bit double", at: start)
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Adds a digit to the significand; past 19 significant digits only notes that there were too many.
    private func accumulate(_ byte: UInt8, _ significand: inout UInt64, _ digits: inout Int, _ tooMany: inout Bool) {
        let digit = UInt64(byte - UInt8(ascii: "0"))
        if significand == 0 && digit == 0 { return }
        if digits >= 19 {
            tooMany = true
            return
        }
        significand = significand * 10 + digit
        digits += 1
    }
}
