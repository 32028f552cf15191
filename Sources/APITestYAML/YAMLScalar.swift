package import APITestJSON

/// A YAML scalar's typed value under the YAML 1.2 core schema.
///
/// Quoted scalars and block scalars are strings. Plain scalars are `null`/`~`/empty, `true`/`false`
/// (also `True`, `TRUE`...), integers (`12`, `-3`, `0x1F`, `0o17`), floats (`1.5`, `1e3`, `.inf`, `.nan`), or
/// strings. Unlike YAML 1.1, `yes`, `no`, `on` and `off` are strings. Explicit tags (`!!str 12`) are honoured.
package enum YAMLScalar: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A decimal number that neither `Int64` nor `Double` holds exactly (`12345678901234567890`,
    /// `0.10000000000000000001`), kept exactly.
    case number(JSONNumber)
    case string(String)

    package init(_ scalar: YAMLDocument.Scalar) {
        let text = scalar.string
        switch scalar.tag {
        case .str:
            self = .string(text)
            return
        case .null:
            self = .null
            return
        case .bool:
            self = Self.bool(text).map(Self.bool) ?? .string(text)
            return
        case .int:
            self = Self.integer(text) ?? .string(text)
            return
        case .float:
            self = Self.float(text) ?? Self.integer(text) ?? .string(text)
            return
        case .none:
            break
        }
        guard scalar.style == .plain || scalar.style == .any, Self.mayBeTyped(text) else {
            self = .string(text)
            return
        }
        if Self.isNullSpelling(text) {
            self = .null
        } else if let bool = Self.bool(text) {
            self = .bool(bool)
        } else if let integer = Self.integer(text) {
            self = integer
        } else if let number = Self.float(text) {
            self = number
        } else {
            self = .string(text)
        }
    }

    /// True when the scalar is null: `YAMLScalar(scalar) == .null` without typing other values.
    @inlinable package static func isNull(_ scalar: YAMLDocument.Scalar) -> Bool {
        switch scalar.tag {
        case .null: true
        case .str, .bool, .int, .float: false
        case .none: (scalar.style == .plain || scalar.style == .any) && isNullSpelling(scalar.string)
        }
    }

    /// True for a null spelling (`nullSpellings`). Most texts are ruled out by their length and first byte, without
    /// comparing them with the five spellings (a suite's every text field asks).
    @inlinable static func isNullSpelling(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first else { return true }
        guard utf8.count <= 4, first == UInt8(ascii: "~") || first == UInt8(ascii: "n") || first == UInt8(ascii: "N")
        else { return false }
        return nullSpellings.contains(text)
    }

    @usableFromInline static let nullSpellings = ["", "~", "null", "Null", "NULL"]

    /// A name for the kind of value, for messages.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double, .number: "a number"
        case .string: "a string"
        }
    }

    // MARK: - Core schema

    /// False when the text cannot be null, a boolean or a number: it is not empty and its first character can
    /// start none of them (`~`, `n`/`N`, `t`/`T`, `f`/`F`, a digit, a sign or a dot). Most strings stop here.
    private static func mayBeTyped(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return true }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    /// An integer; a decimal one too large for 64 bits is kept exactly as a `.number`.
    private static func integer(_ text: String) -> YAMLScalar? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0o") {
            radix = 8
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        if radix == 10, !digits.allSatisfy(\.isNumber) { return nil }
        guard let magnitude = UInt64(digits, radix: radix) else {
            return radix == 10 ? Self.exact(text) : nil
        }
        if negative {
            if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
        } else if magnitude <= UInt64(Int64.max) {
            return .integer(Int64(magnitude))
        }
        return radix == 10 ? Self.exact(text) : .double((negative ? -1 : 1) * Double(magnitude))
    }

    /// A float: `.double` when the double reads back as the written decimal value, else an exact `.number`;
    /// `.inf` and `.nan` spellings, and magnitudes beyond a double's range, are doubles.
    private static func float(_ text: String) -> YAMLScalar? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var rest = Substring(text)
        if let sign = rest.first, sign == "-" || sign == "+" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let dots = mantissa.filter { $0 == "." }.count
        guard dots <= 1, mantissa.contains(where: \.isNumber), !(mantissa.first == "." && mantissa.count == 1)
        else { return nil }
        var exponent = rest.dropFirst(mantissa.count)
        if let e = exponent.first {
            guard e == "e" || e == "E" else { return nil }
            exponent = exponent.dropFirst()
            if let sign = exponent.first, sign == "-" || sign == "+" { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, exponent.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        return exact(text) ?? Double(text).map(YAMLScalar.double)
    }

    /// The exact value of decimal number text (see `JSONValue(numberText:)`); `nil` beyond a double's range.
    private static func exact(_ text: String) -> YAMLScalar? {
        switch JSONValue(numberText: text) {
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .number(let number): .number(number)
        default: nil
        }
    }
}
