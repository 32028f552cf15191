import APITestJSON

/// Message bytes to the protobuf JSON mapping, driven by a ``ProtoSchema``.
///
/// Fields come out under their JSON names, in field-number order; a field without presence (a proto3 scalar
/// without `optional`) is left out at its default value, as `MessageToJson` does. The wire format's own rules
/// hold: the last value of a singular field wins, occurrences of a message field merge, repeated scalars are read
/// packed and unpacked, the last member of a oneof wins, and fields the schema does not declare (or with a wire
/// type their type never has) are skipped. Depth and size are bounded by ``ProtoCodecLimits``.
struct ProtoBinaryDecoder {
    let schema: ProtoSchema
    let limits: ProtoCodecLimits

    /// What a message's bytes hold for one field, before it is rendered.
    private enum Collected {
        case scalar(ProtoScalar)
        case message([UInt8])
        case list([JSONValue])
        case map(JSONObject)
    }

    /// The JSON of `bytes` as a message of type `type`, at `path` and nesting `depth`.
    func decode(
        _ bytes: ArraySlice<UInt8>, as type: ProtoMessageDescriptor, path: String, depth: Int
    ) throws(ProtobufError) -> JSONValue {
        guard depth <= limits.maximumDepth else {
            throw ProtobufError(.tooDeep(limit: limits.maximumDepth), path: path)
        }
        if let wellKnown = ProtoWellKnownType(rawValue: type.fullName) {
            return try decodeWellKnown(bytes, as: wellKnown, type: type, path: path, depth: depth)
        }
        var collected: [Int: Collected] = [:]
        var oneofMembers: [Int: Int] = [:]
        var reader = ProtoWireReader(bytes)
        while let (number, wireType) = try reader.readTag() {
            guard let field = type.field(number: number) else {
                try reader.skip(wireType, field: number)
                continue
            }
            let fieldPath = ProtoJSONPath.member(path, field.jsonName)
            if field.type == .group {
                throw ProtobufError(.groupsUnsupported("field '\(field.name)' of \(type.fullName)"), path: fieldPath)
            }
            if let oneof = field.oneofIndex, let previous = oneofMembers[oneof], previous != number {
                collected[previous] = nil
            }
            let accepted = try collect(
                field, wireType: wireType, reader: &reader, into: &collected, path: fieldPath, depth: depth)
            if !accepted {
                try reader.skip(wireType, field: number)
            } else if let oneof = field.oneofIndex {
                oneofMembers[oneof] = number
            }
        }
        var members: [JSONObject.Member] = []
        for field in type.fields.sorted(by: { $0.number < $1.number }) {
            guard let value = collected[field.number] else { continue }
            let fieldPath = ProtoJSONPath.member(path, field.jsonName)
            switch value {
            case .scalar(let scalar):
                if scalar.isDefault, !type.hasPresence(field) { continue }
                members.append((field.jsonName, scalar.json(as: field.type, enumType: enumType(of: field))))
            case .message(let payload):
                let message = try messageType(of: field)
                members.append(
                    (field.jsonName, try decode(payload[...], as: message, path: fieldPath, depth: depth + 1)))
            case .list(let values): members.append((field.jsonName, .array(values)))
            case .map(let object): members.append((field.jsonName, .object(object)))
            }
        }
        return .object(JSONObject(members))
    }

    /// Reads one occurrence of `field` into `collected`; false when its wire type is not the field's (then it is
    /// skipped as an unknown field).
    private func collect(
        _ field: ProtoFieldDescriptor, wireType: ProtoWireReader.WireType, reader: inout ProtoWireReader,
        into collected: inout [Int: Collected], path: String, depth: Int
    ) throws(ProtobufError) -> Bool {
        let number = field.number
        if field.type == .message {
            guard wireType == .lengthDelimited else { return false }
            let payload = try reader.readLengthDelimited()
            let message = try messageType(of: field)
            if message.isMapEntry, field.isRepeated {
                guard case .map(var object) = collected[number] ?? .map(JSONObject()) else { return false }
                let (key, value) = try decodeMapEntry(payload, entry: message, path: path, depth: depth)
                object[key] = value
                collected[number] = .map(object)
            } else if field.isRepeated {
                guard case .list(var values) = collected[number] ?? .list([]) else { return false }
                values.append(
                    try decode(
                        payload, as: message, path: ProtoJSONPath.index(path, values.count), depth: depth + 1))
                collected[number] = .list(values)
            } else {
                var merged: [UInt8] = []
                if case .message(let earlier) = collected[number] { merged = earlier }
                merged.append(contentsOf: payload)
                guard merged.count <= limits.maximumSize else {
                    throw ProtobufError(.tooLarge(limit: limits.maximumSize), path: path)
                }
                collected[number] = .message(merged)
            }
            return true
        }
        let enumType = enumType(of: field)
        if field.isRepeated {
            guard case .list(var values) = collected[number] ?? .list([]) else { return false }
            if wireType == .lengthDelimited, field.type.isPackable {
                var packed = ProtoWireReader(try reader.readLengthDelimited())
                while !packed.isAtEnd {
                    guard
                        let scalar = try ProtoScalar.read(
                            field.type, wireType: field.type.wireType, from: &packed, field: field.name)
                    else { return false }
                    values.append(scalar.json(as: field.type, enumType: enumType))
                }
            } else {
                guard
                    let scalar = try ProtoScalar.read(field.type, wireType: wireType, from: &reader, field: field.name)
                else { return false }
                values.append(scalar.json(as: field.type, enumType: enumType))
            }
            collected[number] = .list(values)
            return true
        }
        guard let scalar = try ProtoScalar.read(field.type, wireType: wireType, from: &reader, field: field.name) else {
            return false
        }
        collected[number] = .scalar(scalar)
        return true
    }

    /// A map entry's key (as JSON object member name) and value.
    private func decodeMapEntry(
        _ bytes: ArraySlice<UInt8>, entry: ProtoMessageDescriptor, path: String, depth: Int
    ) throws(ProtobufError) -> (String, JSONValue) {
        guard let keyField = entry.field(number: 1), let valueField = entry.field(number: 2) else {
            throw ProtobufError(.malformedDescriptor("map entry \(entry.fullName) lacks its key or value field"))
        }
        var key = ProtoScalar.defaultValue(of: keyField.type)
        var value: ProtoScalar?
        var messageBytes: [UInt8] = []
        var reader = ProtoWireReader(bytes)
        while let (number, wireType) = try reader.readTag() {
            if number == 1,
                let scalar = try ProtoScalar.read(
                    keyField.type, wireType: wireType, from: &reader, field: keyField.name)
            {
                key = scalar
            } else if number == 2, valueField.type == .message, wireType == .lengthDelimited {
                messageBytes.append(contentsOf: try reader.readLengthDelimited())
            } else if number == 2, valueField.type != .message,
                let scalar = try ProtoScalar.read(
                    valueField.type, wireType: wireType, from: &reader, field: valueField.name)
            {
                value = scalar
            } else {
                try reader.skip(wireType, field: number)
            }
        }
        let keyText = key.mapKeyText
        let valuePath = ProtoJSONPath.key(path, keyText)
        if valueField.type == .message {
            let message = try messageType(of: valueField)
            return (keyText, try decode(messageBytes[...], as: message, path: valuePath, depth: depth + 1))
        }
        let scalar = value ?? ProtoScalar.defaultValue(of: valueField.type)
        return (keyText, scalar.json(as: valueField.type, enumType: enumType(of: valueField)))
    }

    // MARK: - Types

    func messageType(of field: ProtoFieldDescriptor) throws(ProtobufError) -> ProtoMessageDescriptor {
        guard let name = field.typeName, let message = schema.messages[name] else {
            throw ProtobufError(
                .unresolvedType(name: field.typeName ?? "", referencedFrom: field.name, suggestion: nil))
        }
        return message
    }

    func enumType(of field: ProtoFieldDescriptor) -> ProtoEnumDescriptor? {
        guard field.type == .enumeration, let name = field.typeName else { return nil }
        return schema.enums[name]
    }
}
