import APITestJSON

// MARK: - Well-known types

extension ProtoBinaryDecoder {
    /// The JSON of a well-known type's bytes: Timestamp and Duration as text, wrappers as their value, Struct,
    /// Value and ListValue as the JSON they hold, FieldMask as comma-separated lowerCamel paths, Any with `@type`.
    func decodeWellKnown(
        _ bytes: ArraySlice<UInt8>, as wellKnown: ProtoWellKnownType, type: ProtoMessageDescriptor, path: String,
        depth: Int
    ) throws(ProtobufError) -> JSONValue {
        switch wellKnown {
        case .timestamp, .duration:
            var seconds: Int64 = 0
            var nanos: Int32 = 0
            var reader = ProtoWireReader(bytes)
            while let (number, wireType) = try reader.readTag() {
                switch (number, wireType) {
                case (1, .varint): seconds = Int64(bitPattern: try reader.readVarint())
                case (2, .varint): nanos = Int32(truncatingIfNeeded: try reader.readVarint())
                default: try reader.skip(wireType, field: number)
                }
            }
            let text =
                wellKnown == .timestamp
                ? ProtoTimeText.timestamp(seconds: seconds, nanos: nanos)
                : ProtoTimeText.duration(seconds: seconds, nanos: nanos)
            guard let text else {
                let name = wellKnown == .timestamp ? "Timestamp" : "Duration"
                throw ProtobufError(
                    .invalidWellKnownValue(
                        type: name, reason: "seconds \(seconds) and nanos \(nanos) are out of range"),
                    path: path)
            }
            return .string(text)
        case .empty: return .object(JSONObject())
        case .fieldMask:
            var paths: [String] = []
            var reader = ProtoWireReader(bytes)
            while let (number, wireType) = try reader.readTag() {
                if number == 1,
                    case .string(let text)? = try ProtoScalar.read(
                        .string, wireType: wireType, from: &reader, field: "paths")
                {
                    paths.append(
                        text.split(separator: ".", omittingEmptySubsequences: false).map {
                            ProtoFieldDescriptor.lowerCamel(String($0))
                        }.joined(separator: "."))
                } else {
                    try reader.skip(wireType, field: number)
                }
            }
            return .string(paths.joined(separator: ","))
        case .structure: return try decodeStruct(bytes, path: path, depth: depth)
        case .listValue: return try decodeList(bytes, path: path, depth: depth)
        case .value: return try decodeValue(bytes, path: path, depth: depth)
        case .any: return try decodeAny(bytes, path: path, depth: depth)
        case .doubleValue, .floatValue, .int64Value, .uint64Value, .int32Value, .uint32Value, .boolValue,
            .stringValue, .bytesValue:
            let wrapped = wellKnown.wrappedType ?? .string
            var value = ProtoScalar.defaultValue(of: wrapped)
            var reader = ProtoWireReader(bytes)
            while let (number, wireType) = try reader.readTag() {
                if number == 1,
                    let scalar = try ProtoScalar.read(wrapped, wireType: wireType, from: &reader, field: "value")
                {
                    value = scalar
                } else {
                    try reader.skip(wireType, field: number)
                }
            }
            return value.json(as: wrapped, enumType: nil)
        }
    }

    // MARK: - Struct, Value, ListValue

    private func decodeStruct(_ bytes: ArraySlice<UInt8>, path: String, depth: Int) throws(ProtobufError) -> JSONValue {
        var object = JSONObject()
        var reader = ProtoWireReader(bytes)
        while let (number, wireType) = try reader.readTag() {
            guard number == 1, wireType == .lengthDelimited else {
                try reader.skip(wireType, field: number)
                continue
            }
            var entry = ProtoWireReader(try reader.readLengthDelimited())
            var key = ""
            var value: [UInt8] = []
            while let (field, type) = try entry.readTag() {
                if field == 1,
                    case .string(let text)? = try ProtoScalar.read(.string, wireType: type, from: &entry, field: "key")
                {
                    key = text
                } else if field == 2, type == .lengthDelimited {
                    value.append(contentsOf: try entry.readLengthDelimited())
                } else {
                    try entry.skip(type, field: field)
                }
            }
            object[key] = try decodeValue(value[...], path: ProtoJSONPath.key(path, key), depth: depth + 1)
        }
        return .object(object)
    }

    private func decodeList(_ bytes: ArraySlice<UInt8>, path: String, depth: Int) throws(ProtobufError) -> JSONValue {
        var values: [JSONValue] = []
        var reader = ProtoWireReader(bytes)
        while let (number, wireType) = try reader.readTag() {
            if number == 1, wireType == .lengthDelimited {
                let payload = try reader.readLengthDelimited()
                values.append(try decodeValue(payload, path: ProtoJSONPath.index(path, values.count), depth: depth + 1))
            } else {
                try reader.skip(wireType, field: number)
            }
        }
        return .array(values)
    }

    /// A `Value`: its kind (the last one set wins, as in any oneof); no kind is `null`, as in `MessageToJson`.
    private func decodeValue(_ bytes: ArraySlice<UInt8>, path: String, depth: Int) throws(ProtobufError) -> JSONValue {
        guard depth + 1 <= limits.maximumDepth else {
            throw ProtobufError(.tooDeep(limit: limits.maximumDepth), path: path)
        }
        var result: JSONValue = .null
        var nested: (kind: Int, bytes: [UInt8])?
        var reader = ProtoWireReader(bytes)
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .varint):
                _ = try reader.readVarint()
                result = .null
                nested = nil
            case (2, .fixed64):
                let value = Double(bitPattern: try reader.readFixed64())
                guard value.isFinite else {
                    throw ProtobufError(
                        .invalidWellKnownValue(type: "Value", reason: "number_value \(value) has no JSON form"),
                        path: path)
                }
                result = .double(value)
                nested = nil
            case (3, .lengthDelimited):
                guard
                    case .string(let text)? = try ProtoScalar.read(
                        .string, wireType: wireType, from: &reader, field: "string_value")
                else { continue }
                result = .string(text)
                nested = nil
            case (4, .varint):
                result = .bool(try reader.readVarint() != 0)
                nested = nil
            case (5, .lengthDelimited), (6, .lengthDelimited):
                let payload = try reader.readLengthDelimited()
                if let earlier = nested, earlier.kind == number {
                    nested = (number, earlier.bytes + payload)
                } else {
                    nested = (number, Array(payload))
                }
            default: try reader.skip(wireType, field: number)
            }
        }
        if let nested {
            return nested.kind == 5
                ? try decodeStruct(nested.bytes[...], path: path, depth: depth + 1)
                : try decodeList(nested.bytes[...], path: path, depth: depth + 1)
        }
        return result
    }

    // MARK: - Any

    /// An `Any`: `{"@type": url, ...fields}`, or `{"@type": url, "value": json}` for a well-known type inside.
    private func decodeAny(_ bytes: ArraySlice<UInt8>, path: String, depth: Int) throws(ProtobufError) -> JSONValue {
        var url = ""
        var value: [UInt8] = []
        var reader = ProtoWireReader(bytes)
        while let (number, wireType) = try reader.readTag() {
            if number == 1,
                case .string(let text)? = try ProtoScalar.read(
                    .string, wireType: wireType, from: &reader, field: "type_url")
            {
                url = text
            } else if number == 2,
                case .bytes(let payload)? = try ProtoScalar.read(
                    .bytes, wireType: wireType, from: &reader, field: "value")
            {
                value = payload
            } else {
                try reader.skip(wireType, field: number)
            }
        }
        if url.isEmpty && value.isEmpty { return .object(JSONObject()) }
        let message = try schema.anyMessage(url: url, path: path)
        let inner = try decode(value[...], as: message, path: path, depth: depth + 1)
        if ProtoWellKnownType(rawValue: message.fullName)?.hasCustomJSON == true {
            return .object(JSONObject([("@type", .string(url)), ("value", inner)]))
        }
        var members: [JSONObject.Member] = [("@type", .string(url))]
        members.append(contentsOf: inner.objectValue?.members ?? [])
        return .object(JSONObject(members))
    }
}
