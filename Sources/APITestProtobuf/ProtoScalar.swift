/// One value of a scalar field, read from or written to the wire in its declared type.
enum ProtoScalar: Sendable, Hashable {
    case int(Int64)
    case uint(UInt64)
    case float(Float)
    case double(Double)
    case bool(Bool)
    case string(String)
    case bytes([UInt8])
    case enumeration(Int32)

    // MARK: - Reading

    /// Reads one value of `type` encoded with `wireType`; `nil` when the wire type is not the type's own (the
    /// field is then treated as unknown, as the protobuf libraries do).
    static func read(
        _ type: ProtoFieldDescriptor.FieldType, wireType: ProtoWireReader.WireType, from reader: inout ProtoWireReader,
        field: String
    ) throws(ProtobufError) -> ProtoScalar? {
        guard wireType == type.wireType else { return nil }
        switch type {
        case .int32: return .int(Int64(Int32(truncatingIfNeeded: try reader.readVarint())))
        case .int64: return .int(Int64(bitPattern: try reader.readVarint()))
        case .uint32: return .uint(UInt64(UInt32(truncatingIfNeeded: try reader.readVarint())))
        case .uint64: return .uint(try reader.readVarint())
        case .sint32:
            let raw = UInt32(truncatingIfNeeded: try reader.readVarint())
            return .int(Int64(Int32(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))))
        case .sint64:
            let raw = try reader.readVarint()
            return .int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
        case .bool: return .bool(try reader.readVarint() != 0)
        case .enumeration: return .enumeration(Int32(truncatingIfNeeded: try reader.readVarint()))
        case .fixed32: return .uint(UInt64(try reader.readFixed32()))
        case .sfixed32: return .int(Int64(Int32(bitPattern: try reader.readFixed32())))
        case .float: return .float(Float(bitPattern: try reader.readFixed32()))
        case .fixed64: return .uint(try reader.readFixed64())
        case .sfixed64: return .int(Int64(bitPattern: try reader.readFixed64()))
        case .double: return .double(Double(bitPattern: try reader.readFixed64()))
        case .string:
            let payload = try reader.readLengthDelimited()
            guard let text = String(validating: payload, as: UTF8.self) else {
                throw ProtobufError(.invalidUTF8(field: field))
            }
            return .string(text)
        case .bytes: return .bytes(Array(try reader.readLengthDelimited()))
        case .message, .group: return nil
        }
    }

    /// The default value of `type` (zero, empty, false, the first enum number 0).
    static func defaultValue(of type: ProtoFieldDescriptor.FieldType) -> ProtoScalar {
        switch type {
        case .int32, .int64, .sint32, .sint64, .sfixed32, .sfixed64: return .int(0)
        case .uint32, .uint64, .fixed32, .fixed64: return .uint(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .string: return .string("")
        case .bytes, .message, .group: return .bytes([])
        case .enumeration: return .enumeration(0)
        }
    }

    /// True for the type's default value, which a field without presence does not write or show. (`-0.0` is not
    /// the default: the protobuf libraries write it.)
    var isDefault: Bool {
        switch self {
        case .int(let value): return value == 0
        case .uint(let value): return value == 0
        case .float(let value): return value == 0 && value.sign == .plus
        case .double(let value): return value == 0 && value.sign == .plus
        case .bool(let value): return !value
        case .string(let value): return value.isEmpty
        case .bytes(let value): return value.isEmpty
        case .enumeration(let value): return value == 0
        }
    }

    // MARK: - Writing

    /// Writes the value (without a tag) as `type` encodes it.
    func write(as type: ProtoFieldDescriptor.FieldType, to writer: inout ProtoWireWriter) {
        switch (type, self) {
        case (.sint32, .int(let value)):
            let value = Int32(truncatingIfNeeded: value)
            writer.writeVarint(UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31))))
        case (.sint64, .int(let value)):
            writer.writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        case (.sfixed32, .int(let value)): writer.writeFixed32(UInt32(bitPattern: Int32(truncatingIfNeeded: value)))
        case (.sfixed64, .int(let value)): writer.writeFixed64(UInt64(bitPattern: value))
        case (.fixed32, .uint(let value)): writer.writeFixed32(UInt32(truncatingIfNeeded: value))
        case (.fixed64, .uint(let value)): writer.writeFixed64(value)
        case (_, .int(let value)): writer.writeVarint(UInt64(bitPattern: value))
        case (_, .uint(let value)): writer.writeVarint(value)
        case (_, .enumeration(let value)): writer.writeVarint(UInt64(bitPattern: Int64(value)))
        case (_, .bool(let value)): writer.writeVarint(value ? 1 : 0)
        case (_, .float(let value)): writer.writeFixed32(value.bitPattern)
        case (_, .double(let value)): writer.writeFixed64(value.bitPattern)
        case (_, .string(let value)): writer.writeLengthDelimited(Array(value.utf8))
        case (_, .bytes(let value)): writer.writeLengthDelimited(value)
        }
    }
}
