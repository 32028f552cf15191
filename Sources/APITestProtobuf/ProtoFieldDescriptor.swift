/// A field of a message, as `FieldDescriptorProto` declares it, with its type name resolved to a full name.
package struct ProtoFieldDescriptor: Sendable, Hashable {
    /// The field's type (`FieldDescriptorProto.Type`).
    package enum FieldType: Int, Sendable, Hashable {
        case double = 1
        case float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32
        case enumeration = 14
        case sfixed32, sfixed64, sint32, sint64

        /// The type's name in a `.proto` file.
        package var protoName: String {
            switch self {
            case .enumeration: return "enum"
            default: return "\(self)"
            }
        }

        /// True for the scalar types a packed repeated field may hold (every type but string, bytes, message, group).
        package var isPackable: Bool {
            switch self {
            case .string, .bytes, .message, .group: return false
            default: return true
            }
        }

        /// The wire type one value of this type is written with.
        package var wireType: ProtoWireReader.WireType {
            switch self {
            case .double, .fixed64, .sfixed64: return .fixed64
            case .float, .fixed32, .sfixed32: return .fixed32
            case .string, .bytes, .message: return .lengthDelimited
            case .group: return .startGroup
            default: return .varint
            }
        }
    }

    /// The field's label (`FieldDescriptorProto.Label`).
    package enum Label: Int, Sendable, Hashable {
        case optional = 1
        case required, repeated
    }

    /// The field's name in the `.proto` file (`user_id`).
    package var name: String
    /// The field number.
    package var number: Int
    /// The name in the JSON mapping (`userId`): `json_name` from the descriptor, or lowerCamel of ``name``.
    package var jsonName: String
    /// The field's type.
    package var type: FieldType
    /// The field's label.
    package var label: Label
    /// The full name (without a leading dot) of the message or enum type, for message, group and enum fields.
    package var typeName: String?
    /// The index of the oneof the field belongs to, in its message's ``ProtoMessageDescriptor/oneofs``.
    package var oneofIndex: Int?
    /// True for a proto3 `optional` field (a synthetic oneof gives it presence).
    package var isProto3Optional: Bool
    /// The `packed` option when the file sets it; `nil` for the syntax's default.
    package var packedOption: Bool?
    /// The proto2 default value as the descriptor writes it (`default_value`).
    package var defaultValue: String?

    /// A field with these properties.
    package init(
        name: String, number: Int, jsonName: String? = nil, type: FieldType, label: Label = .optional,
        typeName: String? = nil, oneofIndex: Int? = nil, isProto3Optional: Bool = false, packedOption: Bool? = nil,
        defaultValue: String? = nil
    ) {
        self.name = name
        self.number = number
        self.jsonName = jsonName ?? Self.lowerCamel(name)
        self.type = type
        self.label = label
        self.typeName = typeName
        self.oneofIndex = oneofIndex
        self.isProto3Optional = isProto3Optional
        self.packedOption = packedOption
        self.defaultValue = defaultValue
    }

    /// True for repeated fields (maps included).
    package var isRepeated: Bool { label == .repeated }

    /// `protoc`'s JSON name for a field name: underscores dropped, the letter after each one upper-cased.
    package static func lowerCamel(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
