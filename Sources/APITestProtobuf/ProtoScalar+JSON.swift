import APITestJSON
import APITestSupport
import Foundation

// MARK: - To JSON

extension ProtoScalar {
    /// The value in the protobuf JSON mapping: 64-bit integers as strings, enums by name (a number for a value the
    /// enum does not declare), bytes as padded standard base64, non-finite floats as "NaN"/"Infinity"/"-Infinity".
    func json(as type: ProtoFieldDescriptor.FieldType, enumType: ProtoEnumDescriptor?) -> JSONValue {
        switch self {
        case .int(let value):
            return type == .int64 || type == .sint64 || type == .sfixed64 ? .string(String(value)) : .integer(value)
        case .uint(let value):
            return type == .uint64 || type == .fixed64 ? .string(String(value)) : .integer(Int64(value))
        case .float(let value):
            return value.isFinite ? .double(Self.floatText(value)) : Self.nonFinite(Double(value))
        case .double(let value): return value.isFinite ? .double(value) : Self.nonFinite(value)
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(value)
        case .bytes(let value): return .string(ProtoBase64.encode(value))
        case .enumeration(let number):
            if enumType?.fullName == ProtoWellKnownType.nullValueEnum { return .null }
            if let name = enumType?.value(number: number)?.name { return .string(name) }
            return .integer(Int64(number))
        }
    }

    /// A float as the protobuf runtimes write it (C++'s `SimpleFtoa`, Python's `ToShortestFloat`): the fewest of 6
    /// to 9 significant digits that read back as the same float (0.1f is 0.1, not 0.10000000149011612; the
    /// smallest subnormal is 1.4013e-45).
    static func floatText(_ value: Float) -> Double {
        for precision in 6...9 {
            if let rounded = Double(String(format: "%.\(precision)g", Double(value))), Float(rounded) == value {
                return rounded
            }
        }
        return Double(value)
    }

    private static func nonFinite(_ value: Double) -> JSONValue {
        value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity"
    }

    /// The text of the value as a map key (`"12"`, `"true"`, the string itself).
    var mapKeyText: String {
        switch self {
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .string(let value): return value
        case .enumeration(let value): return String(value)
        case .float(let value): return value.description
        case .double(let value): return value.description
        case .bytes(let value): return ProtoBase64.encode(value)
        }
    }
}

// MARK: - From JSON

extension ProtoScalar {
    /// Reads a JSON value for a field of `type`: integers from numbers or numeric strings, floats also from
    /// "NaN"/"Infinity"/"-Infinity", enums by name or number, bytes from standard or URL-safe base64.
    static func parse(
        _ json: JSONValue, as type: ProtoFieldDescriptor.FieldType, enumType: ProtoEnumDescriptor?, path: String
    ) throws(ProtobufError) -> ProtoScalar {
        switch type {
        case .int32, .sint32, .sfixed32:
            return .int(try signed(json, type: type, bound: UInt64(Int32.max), path: path))
        case .int64, .sint64, .sfixed64:
            return .int(try signed(json, type: type, bound: UInt64(Int64.max), path: path))
        case .uint32, .fixed32:
            return .uint(try unsigned(json, type: type, bound: UInt64(UInt32.max), path: path))
        case .uint64, .fixed64:
            return .uint(try unsigned(json, type: type, bound: UInt64.max, path: path))
        case .float:
            let value = try floating(json, type: type, path: path)
            let narrowed = Float(value)
            if value.isFinite, narrowed.isInfinite {
                throw ProtobufError(.outOfRange(value: describe(json), type: "float"), path: path)
            }
            return .float(narrowed)
        case .double: return .double(try floating(json, type: type, path: path))
        case .bool:
            guard case .bool(let value) = json else { throw mismatch("a boolean", json, path) }
            return .bool(value)
        case .string:
            guard case .string(let value) = json else { throw mismatch("a string", json, path) }
            return .string(value)
        case .bytes:
            guard case .string(let text) = json else { throw mismatch("a base64 string", json, path) }
            guard let bytes = ProtoBase64.decode(text) else { throw ProtobufError(.invalidBase64, path: path) }
            return .bytes(bytes)
        case .enumeration: return .enumeration(try enumNumber(json, enumType: enumType, path: path))
        case .message, .group: throw mismatch("a message", json, path)
        }
    }

    /// Reads a map key (always a JSON string) for a key field of `type`.
    static func parseMapKey(
        _ key: String, as type: ProtoFieldDescriptor.FieldType, path: String
    ) throws(ProtobufError) -> ProtoScalar {
        switch type {
        case .string: return .string(key)
        case .bool:
            switch key {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default:
                throw ProtobufError(.typeMismatch(expected: "a map key 'true' or 'false'", got: "'\(key)'"), path: path)
            }
        default: return try parse(.string(key), as: type, enumType: nil, path: path)
        }
    }

    // MARK: - Numbers

    /// The sign and magnitude of an integral JSON number or numeric string.
    private static func integer(
        _ json: JSONValue, type: ProtoFieldDescriptor.FieldType, path: String
    ) throws(ProtobufError) -> (negative: Bool, magnitude: UInt64) {
        let number: JSONNumber
        switch json {
        case .integer(let value): return (value < 0, value.magnitude)
        case .double(let value):
            guard value.isFinite, let exact = JSONNumber(value) else {
                throw ProtobufError(.outOfRange(value: describe(json), type: type.protoName), path: path)
            }
            number = exact
        case .number(let value): number = value
        case .string(let text):
            guard !text.isEmpty, !text.contains(" "), let parsed = JSONNumber(text: text) else {
                throw ProtobufError(.invalidNumber(value: text, type: type.protoName), path: path)
            }
            number = parsed
        default: throw mismatch("an integer (\(type.protoName))", json, path)
        }
        guard number.isInteger, number.digits.count + number.exponent <= 20 else {
            throw ProtobufError(.outOfRange(value: describe(json), type: type.protoName), path: path)
        }
        var magnitude: UInt64 = 0
        for position in 0..<(number.digits.count + number.exponent) {
            let digit = position < number.digits.count ? UInt64(number.digits[position]) : 0
            let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = scaled.addingReportingOverflow(digit)
            guard !overflow, !carry else {
                throw ProtobufError(.outOfRange(value: describe(json), type: type.protoName), path: path)
            }
            magnitude = sum
        }
        return (number.isNegative, magnitude)
    }

    private static func signed(
        _ json: JSONValue, type: ProtoFieldDescriptor.FieldType, bound: UInt64, path: String
    ) throws(ProtobufError) -> Int64 {
        let (negative, magnitude) = try integer(json, type: type, path: path)
        guard magnitude <= (negative ? bound + 1 : bound) else {
            throw ProtobufError(.outOfRange(value: describe(json), type: type.protoName), path: path)
        }
        return negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
    }

    private static func unsigned(
        _ json: JSONValue, type: ProtoFieldDescriptor.FieldType, bound: UInt64, path: String
    ) throws(ProtobufError) -> UInt64 {
        let (negative, magnitude) = try integer(json, type: type, path: path)
        guard !negative || magnitude == 0, magnitude <= bound else {
            throw ProtobufError(.outOfRange(value: describe(json), type: type.protoName), path: path)
        }
        return magnitude
    }

    private static func floating(
        _ json: JSONValue, type: ProtoFieldDescriptor.FieldType, path: String
    ) throws(ProtobufError) -> Double {
        switch json {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        case .number(let value):
            let double = value.doubleValue
            guard double.isFinite else {
                throw ProtobufError(.outOfRange(value: describe(json), type: type.protoName), path: path)
            }
            return double
        case .string(let text):
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default:
                guard !text.contains(" "), let number = JSONNumber(text: text) else {
                    throw ProtobufError(.invalidNumber(value: text, type: type.protoName), path: path)
                }
                return try floating(.number(number), type: type, path: path)
            }
        default: throw mismatch("a number (\(type.protoName))", json, path)
        }
    }

    private static func enumNumber(
        _ json: JSONValue, enumType: ProtoEnumDescriptor?, path: String
    ) throws(ProtobufError) -> Int32 {
        let name = enumType?.fullName ?? "enum"
        switch json {
        case .string(let text):
            if let value = enumType?.value(named: text) { return value.number }
            if let number = Int32(text) { return try declared(number, enumType: enumType, path: path) }
            let suggestion = Suggestion.closest(to: text, in: enumType?.values.map(\.name) ?? [])
            throw ProtobufError(.unknownEnumValue(value: text, enumName: name, suggestion: suggestion), path: path)
        case .integer, .double, .number:
            let number = try signed(json, type: .int32, bound: UInt64(Int32.max), path: path)
            return try declared(Int32(number), enumType: enumType, path: path)
        case .null where enumType?.fullName == ProtoWellKnownType.nullValueEnum: return 0
        default: throw mismatch("an enum name or number (\(name))", json, path)
        }
    }

    /// `number`, when the enum accepts it: an open (proto3) enum accepts any, a closed one only its own.
    private static func declared(
        _ number: Int32, enumType: ProtoEnumDescriptor?, path: String
    ) throws(ProtobufError) -> Int32 {
        if let enumType, enumType.isClosed, enumType.value(number: number) == nil {
            throw ProtobufError(
                .unknownEnumValue(value: String(number), enumName: enumType.fullName, suggestion: nil), path: path)
        }
        return number
    }

    // MARK: - Errors

    /// A type mismatch error: `expected`, and the JSON type of `json`.
    static func mismatch(_ expected: String, _ json: JSONValue, _ path: String) -> ProtobufError {
        ProtobufError(.typeMismatch(expected: expected, got: json.typeName), path: path)
    }

    /// A short text of a JSON value for a message.
    static func describe(_ json: JSONValue) -> String {
        JSONWriter.string(json).truncated(to: 40)
    }
}
