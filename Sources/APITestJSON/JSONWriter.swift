/// Writes `JSONValue`s as RFC 8259 JSON text.
///
/// - Strings use minimal escaping: `"` and `\`, and control characters as `\n`, `\t`, `\r`, `\b`, `\f` or
///   `\u00XX`. Nothing else is escaped (not `/`, not non-ASCII characters).
/// - Doubles use the shortest digits that read back as the same `Double`. An integral double keeps a fraction
///   (`1.0`, `-0.0`, `100.0`) below 2^53 and uses an exponent from there on (`1e+16`), so it reads back as
///   `.double` rather than `.integer`. Other magnitudes below 1e-4 or from 2^53 use an exponent (`1e-5`,
///   `1.5e+300`; the exponent has no leading zeros). JSON has no NaN or infinity: those are written as `null`.
/// - Exact numbers (`.number`) keep every digit: `12345678901234567891`, `0.10000000000000000001`.
/// - `pretty` puts each array element and object member on its own line, indented by two spaces, with
///   `"key": value`; empty containers stay `[]` and `{}`.
/// - `sortedKeys` orders object members by key (by Unicode scalar values); otherwise they keep their order.
package enum JSONWriter {
    /// The JSON text for `value`.
    package static func string(_ value: JSONValue, pretty: Bool = false, sortedKeys: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty, sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// The JSON text for `value`, as UTF-8 bytes.
    package static func bytes(_ value: JSONValue, pretty: Bool = false, sortedKeys: Bool = false) -> [UInt8] {
        var writer = Writer(pretty: pretty, sortedKeys: sortedKeys)
        writer.write(value, indent: 0)
        return writer.output
    }

    /// What writing a value would make, found without writing it: see `extent(of:limit:)`.
    package enum Extent: Sendable, Hashable {
        /// At least this many bytes, within the limit.
        case bytes(Int)
        /// More bytes than the limit.
        case tooLarge
        /// The value holds a double that is infinite or NaN, which JSON cannot hold (the writer puts `null`), or an
        /// exact number beyond a double's range (`1e400`), which a reader would take as an infinity.
        case nonFinite
    }

    /// A lower bound of the bytes of `value`'s compact JSON text (strings counted without escapes, doubles as one
    /// byte), or `nil` once that passes `limit`: the work is bounded by `limit`, not by the value, whose arrays and
    /// objects may share elements (a value made of itself twice, sixty times over, is small in memory and 2^60 values
    /// as text).
    package static func byteCount(of value: JSONValue, limit: Int) -> Int? {
        if case .bytes(let count) = extent(of: value, limit: limit, allowingNonFinite: true) { return count }
        return nil
    }

    /// The bytes `value`'s compact JSON text takes at least (see `byteCount(of:limit:)`), or why it cannot be
    /// written as it is: more than `limit` bytes, or a number JSON cannot hold (when not `allowingNonFinite`). The
    /// work is bounded by `limit`.
    package static func extent(of value: JSONValue, limit: Int, allowingNonFinite: Bool = false) -> Extent {
        var count = 0
        var nonFinite = false
        guard add(value, to: &count, limit: limit, checkingFinite: !allowingNonFinite, nonFinite: &nonFinite) else {
            return nonFinite ? .nonFinite : .tooLarge
        }
        return .bytes(count)
    }

    /// Adds the bytes of `value` to `count`; false once `count` passes `limit`, or at a non-finite double when
    /// `checkingFinite` (setting `nonFinite`), or at a number beyond a double's range.
    private static func add(
        _ value: JSONValue, to count: inout Int, limit: Int, checkingFinite: Bool, nonFinite: inout Bool
    ) -> Bool {
        switch value {
        case .null: count += 4
        case .bool(let flag): count += flag ? 4 : 5
        case .integer: count += 1
        case .double(let number):
            if checkingFinite, !number.isFinite {
                nonFinite = true
                return false
            }
            count += 1
        case .number(let number):
            // Only a number of 309 digits or more before the point can pass `Double.greatestFiniteMagnitude`.
            if checkingFinite, number.digits.count + number.exponent > 308, !number.doubleValue.isFinite {
                nonFinite = true
                return false
            }
            count += number.description.utf8.count
        case .string(let string): count += string.utf8.count + 2
        case .array(let elements):
            count += 1 + max(1, elements.count)
            guard count <= limit else { return false }
            for element in elements
            where !add(element, to: &count, limit: limit, checkingFinite: checkingFinite, nonFinite: &nonFinite) {
                return false
            }
        case .object(let object):
            count += 1 + max(1, 2 * object.count)
            guard count <= limit else { return false }
            for member in object.members {
                count += member.key.utf8.count + 2
                guard
                    add(
                        member.value, to: &count, limit: limit, checkingFinite: checkingFinite, nonFinite: &nonFinite)
                else { return false }
            }
        }
        return count <= limit
    }

    /// The JSON string literal (with quotes) for `string`.
    package static func quoted(_ string: String) -> String {
        var writer = Writer(pretty: false, sortedKeys: false)
        writer.writeString(string)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// The text of a double as this writer puts it (see the type's documentation).
    package static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = value.description
        // Swift writes exponents as "e-05"/"e+16": drop the exponent's leading zeros ("e-5", "e+16").
        guard let e = text.utf8.firstIndex(of: UInt8(ascii: "e")) else { return text }
        var digitsStart = text.utf8.index(after: e)
        if digitsStart < text.utf8.endIndex,
            text.utf8[digitsStart] == UInt8(ascii: "-") || text.utf8[digitsStart] == UInt8(ascii: "+")
        {
            digitsStart = text.utf8.index(after: digitsStart)
        }
        var firstSignificant = digitsStart
        while firstSignificant < text.utf8.index(before: text.utf8.endIndex),
            text.utf8[firstSignificant] == UInt8(ascii: "0")
        {
            firstSignificant = text.utf8.index(after: firstSignificant)
        }
        guard firstSignificant != digitsStart else { return text }
        return String(text[..<digitsStart]) + String(text[firstSignificant...])
    }
}

// MARK: - Writer

extension JSONWriter {
    fileprivate struct Writer {
        let pretty: Bool
        let sortedKeys: Bool
        var output: [UInt8] = []

        init(pretty: Bool, sortedKeys: Bool) {
            self.pretty = pretty
            self.sortedKeys = sortedKeys
            output.reserveCapacity(256)
        }

        mutating func write(_ value: JSONValue, indent: Int) {
            switch value {
            case .null: append("null")
            case .bool(let flag): append(flag ? "true" : "false")
            case .integer(let number): append(String(number))
            case .double(let number): append(JSONWriter.numberText(number))
            case .number(let number): append(number.description)
            case .string(let string): writeString(string)
            case .array(let elements):
                guard !elements.isEmpty else { return append("[]") }
                output.append(UInt8(ascii: "["))
                for (position, element) in elements.enumerated() {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    write(element, indent: indent + 1)
                }
                newline(indent)
                output.append(UInt8(ascii: "]"))
            case .object(let object):
                guard !object.isEmpty else { return append("{}") }
                output.append(UInt8(ascii: "{"))
                let members = sortedKeys ? object.members.sorted(by: Self.keyOrder) : object.members
                for (position, member) in members.enumerated() {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    writeString(member.key)
                    output.append(UInt8(ascii: ":"))
                    if pretty { output.append(UInt8(ascii: " ")) }
                    write(member.value, indent: indent + 1)
                }
                newline(indent)
                output.append(UInt8(ascii: "}"))
            }
        }

        private static func keyOrder(_ lhs: JSONObject.Member, _ rhs: JSONObject.Member) -> Bool {
            lhs.key.unicodeScalars.lexicographicallyPrecedes(rhs.key.unicodeScalars)
        }

        private mutating func newline(_ indent: Int) {
            guard pretty else { return }
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
        }

        private mutating func append(_ text: String) {
            output.append(contentsOf: text.utf8)
        }

        private func hexDigit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }

        mutating func writeString(_ string: String) {
            output.append(UInt8(ascii: "\""))
            var string = string
            string.withUTF8 { utf8 in
                var runStart = 0
                for index in 0..<utf8.count {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    runStart = index + 1
                    output.append(UInt8(ascii: "\\"))
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                    case 0x0A: output.append(UInt8(ascii: "n"))
                    case 0x09: output.append(UInt8(ascii: "t"))
                    case 0x0D: output.append(UInt8(ascii: "r"))
                    case 0x08: output.append(UInt8(ascii: "b"))
                    case 0x0C: output.append(UInt8(ascii: "f"))
                    default:
                        output.append(contentsOf: [
                            UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                            hexDigit(byte >> 4), hexDigit(byte & 0xF),
                        ])
                    }
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
            output.append(UInt8(ascii: "\""))
        }
    }
}
