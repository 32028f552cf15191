import APITestJSON
import APITestSupport

// MARK: - Well-known types

extension ProtoJSONEncoder {
    /// Writes a well-known type from its JSON form (see ``ProtoBinaryDecoder/decodeWellKnown``).
    func encodeWellKnown(
        _ json: JSONValue, as wellKnown: ProtoWellKnownType, type: ProtoMessageDescriptor, path: String, depth: Int,
        into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        switch wellKnown {
        case .timestamp, .duration:
            let name = wellKnown == .timestamp ? "Timestamp" : "Duration"
            guard case .string(let text) = json else { throw ProtoScalar.mismatch("a \(name) string", json, path) }
            let parsed =
                wellKnown == .timestamp ? ProtoTimeText.timestamp(parsing: text) : ProtoTimeText.duration(parsing: text)
            guard let (seconds, nanos) = parsed else {
                let form = wellKnown == .timestamp ? "an RFC 3339 date-time like 1972-01-01T10:00:20.021Z" : "like 1.5s"
                throw ProtobufError(
                    .invalidWellKnownValue(type: name, reason: "'\(text.shownInMessage)' is not \(form)"), path: path)
            }
            if seconds != 0 {
                writer.writeTag(1, .varint)
                writer.writeVarint(UInt64(bitPattern: seconds))
            }
            if nanos != 0 {
                writer.writeTag(2, .varint)
                writer.writeVarint(UInt64(bitPattern: Int64(nanos)))
            }
        case .empty:
            guard case .object(let object) = json else { throw ProtoScalar.mismatch("an object (Empty)", json, path) }
            if let first = object.first {
                throw ProtobufError(
                    .unknownField(name: first.key, message: type.fullName, suggestion: nil),
                    path: ProtoJSONPath.member(path, first.key))
            }
        case .fieldMask:
            guard case .string(let text) = json else { throw ProtoScalar.mismatch("a FieldMask string", json, path) }
            for maskPath in text.split(separator: ",", omittingEmptySubsequences: true) {
                guard !maskPath.contains("_") else {
                    throw ProtobufError(
                        .invalidWellKnownValue(
                            type: "FieldMask", reason: "path '\(maskPath)' must be lowerCamel, without '_'"),
                        path: path)
                }
                var snake = ""
                for character in maskPath {
                    if character.isUppercase {
                        snake += "_" + character.lowercased()
                    } else {
                        snake.append(character)
                    }
                }
                writer.writeTag(1, .lengthDelimited)
                writer.writeLengthDelimited(Array(snake.utf8))
            }
        case .structure:
            guard case .object = json else { throw ProtoScalar.mismatch("an object (Struct)", json, path) }
            try writeStructFields(json, path: path, depth: depth, into: &writer)
        case .listValue:
            guard case .array = json else { throw ProtoScalar.mismatch("an array (ListValue)", json, path) }
            try writeListFields(json, path: path, depth: depth, into: &writer)
        case .value: try writeValueFields(json, path: path, depth: depth, into: &writer)
        case .any: try encodeAny(json, path: path, depth: depth, into: &writer)
        case .doubleValue, .floatValue, .int64Value, .uint64Value, .int32Value, .uint32Value, .boolValue,
            .stringValue, .bytesValue:
            let wrapped = wellKnown.wrappedType ?? .string
            let scalar = try ProtoScalar.parse(json, as: wrapped, enumType: nil, path: path)
            if !scalar.isDefault {
                writer.writeTag(1, wrapped.wireType)
                scalar.write(as: wrapped, to: &writer)
            }
        }
    }

    // MARK: - Struct, Value, ListValue

    private func writeStructFields(
        _ json: JSONValue, path: String, depth: Int, into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        guard case .object(let object) = json else { return }
        for (key, member) in object {
            var entry = ProtoWireWriter()
            entry.writeTag(1, .lengthDelimited)
            entry.writeLengthDelimited(Array(key.utf8))
            var value = ProtoWireWriter()
            try writeValueFields(member, path: ProtoJSONPath.key(path, key), depth: depth + 1, into: &value)
            entry.writeTag(2, .lengthDelimited)
            entry.writeLengthDelimited(value.bytes)
            writer.writeTag(1, .lengthDelimited)
            writer.writeLengthDelimited(entry.bytes)
        }
    }

    private func writeListFields(
        _ json: JSONValue, path: String, depth: Int, into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        guard case .array(let elements) = json else { return }
        for (index, element) in elements.enumerated() {
            var value = ProtoWireWriter()
            try writeValueFields(element, path: ProtoJSONPath.index(path, index), depth: depth + 1, into: &value)
            writer.writeTag(1, .lengthDelimited)
            writer.writeLengthDelimited(value.bytes)
        }
    }

    /// The fields of a `Value` holding `json`.
    private func writeValueFields(
        _ json: JSONValue, path: String, depth: Int, into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        guard depth <= limits.maximumDepth else {
            throw ProtobufError(.tooDeep(limit: limits.maximumDepth), path: path)
        }
        switch json {
        case .null:
            writer.writeTag(1, .varint)
            writer.writeVarint(0)
        case .bool(let value):
            writer.writeTag(4, .varint)
            writer.writeVarint(value ? 1 : 0)
        case .integer, .double, .number:
            let value = json.doubleValue ?? 0
            guard value.isFinite else {
                throw ProtobufError(
                    .outOfRange(value: ProtoScalar.describe(json), type: "Value.number_value"), path: path)
            }
            writer.writeTag(2, .fixed64)
            writer.writeFixed64(value.bitPattern)
        case .string(let text):
            writer.writeTag(3, .lengthDelimited)
            writer.writeLengthDelimited(Array(text.utf8))
        case .object:
            var inner = ProtoWireWriter()
            try writeStructFields(json, path: path, depth: depth + 1, into: &inner)
            writer.writeTag(5, .lengthDelimited)
            writer.writeLengthDelimited(inner.bytes)
        case .array:
            var inner = ProtoWireWriter()
            try writeListFields(json, path: path, depth: depth + 1, into: &inner)
            writer.writeTag(6, .lengthDelimited)
            writer.writeLengthDelimited(inner.bytes)
        }
    }

    // MARK: - Any

    private func encodeAny(
        _ json: JSONValue, path: String, depth: Int, into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        guard case .object(let object) = json else { throw ProtoScalar.mismatch("an object (Any)", json, path) }
        if object.isEmpty { return }
        guard case .string(let url)? = object["@type"] else {
            throw ProtobufError(.unresolvedAnyType(url: "", suggestion: nil), path: path)
        }
        let message = try schema.anyMessage(url: url, path: ProtoJSONPath.member(path, "@type"))
        let payload: [UInt8]
        if ProtoWellKnownType(rawValue: message.fullName)?.hasCustomJSON == true {
            for member in object where member.key != "@type" && member.key != "value" {
                throw ProtobufError(
                    .unknownField(name: member.key, message: "google.protobuf.Any", suggestion: "value"),
                    path: ProtoJSONPath.member(path, member.key))
            }
            let inner = object["value"] ?? .object(JSONObject())
            payload = try nested(inner, as: message, path: ProtoJSONPath.member(path, "value"), depth: depth)
        } else {
            let fields = JSONObject(object.members.filter { $0.key != "@type" })
            payload = try nested(.object(fields), as: message, path: path, depth: depth)
        }
        writer.writeTag(1, .lengthDelimited)
        writer.writeLengthDelimited(Array(url.utf8))
        if !payload.isEmpty {
            writer.writeTag(2, .lengthDelimited)
            writer.writeLengthDelimited(payload)
        }
    }
}
