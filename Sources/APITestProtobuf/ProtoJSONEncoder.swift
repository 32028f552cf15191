import APITestJSON
import APITestSupport

/// The protobuf JSON mapping to message bytes, driven by a ``ProtoSchema``: the encoder's half of
/// ``ProtoBinaryDecoder``.
///
/// Members are matched by JSON name or original field name; a member the message does not declare, an enum name it
/// does not know, a value of the wrong type or range, or two members of one oneof are errors with the JSON path of
/// the value and, where a near name exists, a did-you-mean. `null` leaves a field unset (for `Value` it is the null
/// value). Fields are written in field-number order, repeated scalars packed where the syntax packs them.
struct ProtoJSONEncoder {
    let schema: ProtoSchema
    let limits: ProtoCodecLimits

    /// Writes `json` as a message of `type` into `writer`.
    func encode(
        _ json: JSONValue, as type: ProtoMessageDescriptor, path: String, depth: Int, into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        guard depth <= limits.maximumDepth else {
            throw ProtobufError(.tooDeep(limit: limits.maximumDepth), path: path)
        }
        if let wellKnown = ProtoWellKnownType(rawValue: type.fullName) {
            try encodeWellKnown(json, as: wellKnown, type: type, path: path, depth: depth, into: &writer)
            return
        }
        guard case .object(let object) = json else {
            throw ProtoScalar.mismatch("an object (\(type.fullName))", json, path)
        }
        var chosen: [(field: ProtoFieldDescriptor, value: JSONValue)] = []
        var seen = Set<Int>()
        var oneofMembers: [Int: ProtoFieldDescriptor] = [:]
        for (key, value) in object {
            let fieldPath = ProtoJSONPath.member(path, key)
            guard let field = type.field(named: key) else {
                let suggestion = Suggestion.closest(to: key, in: type.fields.map(\.jsonName))
                throw ProtobufError(
                    .unknownField(name: key, message: type.fullName, suggestion: suggestion), path: fieldPath)
            }
            guard seen.insert(field.number).inserted else {
                throw ProtobufError(.duplicateField(name: field.name), path: fieldPath)
            }
            if value == .null, !acceptsNull(field) { continue }
            if let oneof = field.oneofIndex, !field.isProto3Optional {
                if let other = oneofMembers[oneof] {
                    let name = oneof < type.oneofs.count ? type.oneofs[oneof] : String(oneof)
                    throw ProtobufError(
                        .oneofConflict(oneof: name, first: other.jsonName, second: field.jsonName), path: fieldPath)
                }
                oneofMembers[oneof] = field
            }
            chosen.append((field, value))
        }
        for (field, value) in chosen.sorted(by: { $0.field.number < $1.field.number }) {
            try encodeField(
                field, value, in: type, path: ProtoJSONPath.member(path, field.jsonName), depth: depth, into: &writer)
        }
    }

    /// True for the fields whose JSON `null` is a value rather than "unset": `Value` and `NullValue`.
    private func acceptsNull(_ field: ProtoFieldDescriptor) -> Bool {
        field.typeName == ProtoWellKnownType.value.rawValue || field.typeName == ProtoWellKnownType.nullValueEnum
    }

    // MARK: - Fields

    private func encodeField(
        _ field: ProtoFieldDescriptor, _ value: JSONValue, in type: ProtoMessageDescriptor, path: String, depth: Int,
        into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        if field.type == .group {
            throw ProtobufError(.groupsUnsupported("field '\(field.name)' of \(type.fullName)"), path: path)
        }
        if field.type == .message {
            let message = try messageType(of: field)
            if field.isRepeated, message.isMapEntry {
                try encodeMap(field, value, entry: message, path: path, depth: depth, into: &writer)
            } else if field.isRepeated {
                guard case .array(let elements) = value else { throw ProtoScalar.mismatch("an array", value, path) }
                for (index, element) in elements.enumerated() {
                    let elementPath = ProtoJSONPath.index(path, index)
                    if element == .null, !acceptsNull(field) {
                        throw ProtoScalar.mismatch("an element (\(message.fullName))", element, elementPath)
                    }
                    writer.writeTag(field.number, .lengthDelimited)
                    writer.writeLengthDelimited(try nested(element, as: message, path: elementPath, depth: depth))
                }
            } else {
                writer.writeTag(field.number, .lengthDelimited)
                writer.writeLengthDelimited(try nested(value, as: message, path: path, depth: depth))
            }
            return
        }
        let enumType = enumType(of: field)
        if field.isRepeated {
            guard case .array(let elements) = value else { throw ProtoScalar.mismatch("an array", value, path) }
            var scalars: [ProtoScalar] = []
            for (index, element) in elements.enumerated() {
                let elementPath = ProtoJSONPath.index(path, index)
                if element == .null, !acceptsNull(field) {
                    throw ProtoScalar.mismatch("an element (\(field.type.protoName))", element, elementPath)
                }
                scalars.append(try ProtoScalar.parse(element, as: field.type, enumType: enumType, path: elementPath))
            }
            if type.isPacked(field) {
                guard !scalars.isEmpty else { return }
                var packed = ProtoWireWriter()
                for scalar in scalars { scalar.write(as: field.type, to: &packed) }
                writer.writeTag(field.number, .lengthDelimited)
                writer.writeLengthDelimited(packed.bytes)
            } else {
                for scalar in scalars {
                    writer.writeTag(field.number, field.type.wireType)
                    scalar.write(as: field.type, to: &writer)
                }
            }
            return
        }
        let scalar = try ProtoScalar.parse(value, as: field.type, enumType: enumType, path: path)
        if scalar.isDefault, !type.hasPresence(field) { return }
        writer.writeTag(field.number, field.type.wireType)
        scalar.write(as: field.type, to: &writer)
    }

    private func encodeMap(
        _ field: ProtoFieldDescriptor, _ value: JSONValue, entry: ProtoMessageDescriptor, path: String, depth: Int,
        into writer: inout ProtoWireWriter
    ) throws(ProtobufError) {
        guard case .object(let object) = value else { throw ProtoScalar.mismatch("an object (map)", value, path) }
        guard let keyField = entry.field(number: 1), let valueField = entry.field(number: 2) else {
            throw ProtobufError(.malformedDescriptor("map entry \(entry.fullName) lacks its key or value field"))
        }
        for (key, member) in object {
            let entryPath = ProtoJSONPath.key(path, key)
            var entryWriter = ProtoWireWriter()
            let keyScalar = try ProtoScalar.parseMapKey(key, as: keyField.type, path: entryPath)
            entryWriter.writeTag(1, keyField.type.wireType)
            keyScalar.write(as: keyField.type, to: &entryWriter)
            if valueField.type == .message {
                let message = try messageType(of: valueField)
                if member == .null, !acceptsNull(valueField) {
                    throw ProtoScalar.mismatch("a map value (\(message.fullName))", member, entryPath)
                }
                entryWriter.writeTag(2, .lengthDelimited)
                entryWriter.writeLengthDelimited(try nested(member, as: message, path: entryPath, depth: depth))
            } else {
                let scalar = try ProtoScalar.parse(
                    member, as: valueField.type, enumType: enumType(of: valueField), path: entryPath)
                entryWriter.writeTag(2, valueField.type.wireType)
                scalar.write(as: valueField.type, to: &entryWriter)
            }
            writer.writeTag(field.number, .lengthDelimited)
            writer.writeLengthDelimited(entryWriter.bytes)
        }
    }

    /// The bytes of `json` as a nested message of `type`.
    func nested(
        _ json: JSONValue, as type: ProtoMessageDescriptor, path: String, depth: Int
    ) throws(ProtobufError) -> [UInt8] {
        var inner = ProtoWireWriter()
        try encode(json, as: type, path: path, depth: depth + 1, into: &inner)
        guard inner.bytes.count <= limits.maximumSize else {
            throw ProtobufError(.tooLarge(limit: limits.maximumSize), path: path)
        }
        return inner.bytes
    }

    // MARK: - Types

    private func messageType(of field: ProtoFieldDescriptor) throws(ProtobufError) -> ProtoMessageDescriptor {
        guard let name = field.typeName, let message = schema.messages[name] else {
            throw ProtobufError(
                .unresolvedType(name: field.typeName ?? "", referencedFrom: field.name, suggestion: nil))
        }
        return message
    }

    private func enumType(of field: ProtoFieldDescriptor) -> ProtoEnumDescriptor? {
        guard field.type == .enumeration, let name = field.typeName else { return nil }
        return schema.enums[name]
    }
}
