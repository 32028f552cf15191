import APITestJSON
import Foundation

/// Encodes JSON values as property lists, XML or binary, with apitest's own writers.
///
/// Foundation's `PropertyListSerialization` is not used: in the statically linked release binary it refuses every
/// dictionary or array of Swift values ("property lists cannot contain objects of type 'Not A Type'"), and its
/// dictionaries come out in hash order. These writers keep the members in document order, so that a body is the same
/// from run to run.
enum PropertyListBody {
    /// A property list's value, converted from JSON.
    enum Value: Equatable {
        case string(String)
        case integer(Int64)
        /// A whole number above `Int64.max` (binary property lists hold it as a 128-bit integer).
        case unsigned(UInt64)
        case real(Double)
        case bool(Bool)
        case array([Value])
        /// Members in document order.
        case dictionary([(key: String, value: Value)])

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): a == b
            case (.integer(let a), .integer(let b)): a == b
            case (.unsigned(let a), .unsigned(let b)): a == b
            case (.real(let a), .real(let b)): a == b
            case (.bool(let a), .bool(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.dictionary(let a), .dictionary(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    /// The property list for `value`; null anywhere in it is an error, as property lists cannot hold it, and so is a
    /// character XML 1.0 cannot hold in an XML property list.
    static func encode(_ value: JSONValue, format: RequestSerializer.Body.PropertyListFormat) throws(HTTPError) -> Data
    {
        let converted = try plistValue(value, path: "$")
        switch format {
        case .xml: return Data(try PropertyListXMLWriter.bytes(converted))
        case .binary: return Data(PropertyListBinaryWriter.bytes(converted))
        }
    }

    /// `value` as a property list value; `path` is its JSONPath, for errors.
    static func plistValue(_ value: JSONValue, path: String) throws(HTTPError) -> Value {
        switch value {
        case .null:
            throw HTTPError(.propertyListNull(path: path))
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .number(let number):
            // A property list holds 64-bit integers (and unsigned ones up to 2^64 - 1) and doubles: beyond them, the
            // nearest double.
            if let signed = number.int64Value { return .integer(signed) }
            if number.isInteger, !number.isNegative, let unsigned = UInt64(number.description) {
                return .unsigned(unsigned)
            }
            return .real(number.doubleValue)
        case .string(let text): return .string(text)
        case .array(let items):
            var result: [Value] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { result.append(try plistValue(item, path: "\(path)[\(index)]")) }
            return .array(result)
        case .object(let object):
            var result: [(key: String, value: Value)] = []
            result.reserveCapacity(object.members.count)
            for (key, item) in object.members { result.append((key, try plistValue(item, path: "\(path).\(key)"))) }
            return .dictionary(result)
        }
    }
}
