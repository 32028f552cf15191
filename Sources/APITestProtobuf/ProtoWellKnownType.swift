/// The well-known types (`google/protobuf/*.proto`) whose JSON mapping is not the generic one of messages.
enum ProtoWellKnownType: String, Sendable, CaseIterable {
    case any = "google.protobuf.Any"
    case timestamp = "google.protobuf.Timestamp"
    case duration = "google.protobuf.Duration"
    case fieldMask = "google.protobuf.FieldMask"
    case structure = "google.protobuf.Struct"
    case value = "google.protobuf.Value"
    case listValue = "google.protobuf.ListValue"
    case empty = "google.protobuf.Empty"
    case doubleValue = "google.protobuf.DoubleValue"
    case floatValue = "google.protobuf.FloatValue"
    case int64Value = "google.protobuf.Int64Value"
    case uint64Value = "google.protobuf.UInt64Value"
    case int32Value = "google.protobuf.Int32Value"
    case uint32Value = "google.protobuf.UInt32Value"
    case boolValue = "google.protobuf.BoolValue"
    case stringValue = "google.protobuf.StringValue"
    case bytesValue = "google.protobuf.BytesValue"

    /// The enum whose one value is JSON's `null`.
    static let nullValueEnum = "google.protobuf.NullValue"

    /// True for the types with a JSON form of their own, which inside an `Any` goes under a `value` member;
    /// `Empty`'s form is the generic `{}`, so its (no) fields sit beside `@type`.
    var hasCustomJSON: Bool { self != .empty }

    /// The type of a wrapper's `value` field (field 1); `nil` for the other types.
    var wrappedType: ProtoFieldDescriptor.FieldType? {
        switch self {
        case .doubleValue: return .double
        case .floatValue: return .float
        case .int64Value: return .int64
        case .uint64Value: return .uint64
        case .int32Value: return .int32
        case .uint32Value: return .uint32
        case .boolValue: return .bool
        case .stringValue: return .string
        case .bytesValue: return .bytes
        default: return nil
        }
    }
}
