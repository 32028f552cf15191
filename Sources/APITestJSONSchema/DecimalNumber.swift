import APITestJSON

/// A JSON number as an exact decimal `significand × 10^exponent`, for `multipleOf`.
///
/// Doubles are taken from their shortest round-trip text, so `0.0075` is 75 × 10⁻⁴ rather than the binary
/// approximation; the test for multiples is then done on integers.
struct DecimalNumber: Sendable, Hashable {
    /// Decimal digits of the absolute value without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    var exponent: Int

    init?(_ value: JSONValue) {
        let text: String
        switch value {
        case .integer(let integer): text = String(integer.magnitude)
        case .double(let double):
            guard double.isFinite else { return nil }
            text = "\(double.magnitude)"
        default: return nil
        }
        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if seenPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let power = Int(text[text.utf8.index(after: index)...].replacingOccurrences(of: "+", with: ""))
                else { return nil }
                exponent += power
                break
            }
            index = utf8.index(after: index)
        }
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    var isZero: Bool { digits.isEmpty }

    /// Whether `self` is an integer multiple of `divisor` (which must not be zero).
    func isMultiple(of divisor: DecimalNumber) -> Bool {
        if isZero { return true }
        let shift = exponent - divisor.exponent
        // Both significands end in a non-zero digit; a negative shift would need trailing zeros in ours.
        guard shift >= 0 else { return false }
        guard divisor.digits.count <= 19 else { return false }
        var modulus: UInt64 = 0
        for digit in divisor.digits { modulus = modulus * 10 + UInt64(digit) }
        if modulus == 1 { return true }
        let m = UInt128(modulus)
        var remainder: UInt128 = 0
        for digit in digits { remainder = (remainder * 10 + UInt128(digit)) % m }
        var count = 0
        while count < shift && remainder != 0 {
            remainder = (remainder * 10) % m
            count += 1
        }
        return remainder == 0
    }
}
