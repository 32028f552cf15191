/// Reads `FileDescriptorSet` and `FileDescriptorProto` bytes (descriptor.proto's own encoding) into the model:
/// what `protoc --include_imports --descriptor_set_out` writes and what gRPC reflection returns.
///
/// Only the parts the codec and the runner need are read (names, fields, oneofs, enums, services, the `map_entry`
/// and `packed` options); everything else (source info, other options, extensions) is skipped. Type names are kept
/// as written; ``ProtoSchema`` resolves them.
package struct ProtoDescriptorDecoder {
    /// What one file declares, before names are resolved.
    package struct DecodedFile: Sendable {
        /// The file.
        package var file: ProtoFileDescriptor
        /// Its messages, nested ones included, with the type names of fields as written.
        package var messages: [ProtoMessageDescriptor]
        /// Its enums, nested ones included.
        package var enums: [ProtoEnumDescriptor]
        /// Its services, with input and output types as written.
        package var services: [ProtoServiceDescriptor]
    }

    /// Descriptors nest (messages in messages); deeper than this is refused rather than recursed into.
    static let maximumNesting = 100

    /// Decodes a `FileDescriptorSet`.
    package static func decodeSet(_ bytes: [UInt8]) throws(ProtobufError) -> [DecodedFile] {
        var reader = ProtoWireReader(bytes[...])
        var files: [DecodedFile] = []
        while let (number, wireType) = try reader.readTag() {
            if number == 1, wireType == .lengthDelimited {
                files.append(try decodeFile(reader.readLengthDelimited()))
            } else {
                try reader.skip(wireType, field: number)
            }
        }
        return files
    }

    /// Decodes one `FileDescriptorProto`.
    package static func decodeFile(_ bytes: ArraySlice<UInt8>) throws(ProtobufError) -> DecodedFile {
        var reader = ProtoWireReader(bytes)
        var name = ""
        var package = ""
        var dependencies: [String] = []
        var syntaxText = ""
        var messageBytes: [ArraySlice<UInt8>] = []
        var enumBytes: [ArraySlice<UInt8>] = []
        var serviceBytes: [ArraySlice<UInt8>] = []
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try string(reader.readLengthDelimited())
            case (2, .lengthDelimited): package = try string(reader.readLengthDelimited())
            case (3, .lengthDelimited): dependencies.append(try string(reader.readLengthDelimited()))
            case (4, .lengthDelimited): messageBytes.append(try reader.readLengthDelimited())
            case (5, .lengthDelimited): enumBytes.append(try reader.readLengthDelimited())
            case (6, .lengthDelimited): serviceBytes.append(try reader.readLengthDelimited())
            case (12, .lengthDelimited): syntaxText = try string(reader.readLengthDelimited())
            default: try reader.skip(wireType, field: number)
            }
        }
        let syntax: ProtoSyntax
        switch syntaxText {
        case "", "proto2": syntax = .proto2
        case "proto3": syntax = .proto3
        default: syntax = .editions
        }
        var decoded = DecodedFile(
            file: ProtoFileDescriptor(name: name, package: package, dependencies: dependencies, syntax: syntax),
            messages: [], enums: [], services: [])
        let prefix = package.isEmpty ? "" : package + "."
        for bytes in messageBytes {
            try decodeMessage(bytes, prefix: prefix, syntax: syntax, depth: 0, into: &decoded)
        }
        for bytes in enumBytes {
            decoded.enums.append(try decodeEnum(bytes, prefix: prefix, syntax: syntax))
        }
        for bytes in serviceBytes {
            decoded.services.append(try decodeService(bytes, prefix: prefix))
        }
        decoded.file.messageNames = decoded.messages.map(\.fullName)
        decoded.file.enumNames = decoded.enums.map(\.fullName)
        decoded.file.serviceNames = decoded.services.map(\.fullName)
        return decoded
    }

    // MARK: - Messages

    private static func decodeMessage(
        _ bytes: ArraySlice<UInt8>, prefix: String, syntax: ProtoSyntax, depth: Int, into file: inout DecodedFile
    ) throws(ProtobufError) {
        guard depth < maximumNesting else { throw ProtobufError(.tooDeep(limit: maximumNesting)) }
        var reader = ProtoWireReader(bytes)
        var name = ""
        var fields: [ProtoFieldDescriptor] = []
        var nested: [ArraySlice<UInt8>] = []
        var enums: [ArraySlice<UInt8>] = []
        var oneofs: [String] = []
        var isMapEntry = false
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try string(reader.readLengthDelimited())
            case (2, .lengthDelimited): fields.append(try decodeField(reader.readLengthDelimited()))
            case (3, .lengthDelimited): nested.append(try reader.readLengthDelimited())
            case (4, .lengthDelimited): enums.append(try reader.readLengthDelimited())
            case (7, .lengthDelimited):
                isMapEntry = try bool(in: reader.readLengthDelimited(), number: 7) ?? false
            case (8, .lengthDelimited):
                var oneof = ProtoWireReader(try reader.readLengthDelimited())
                var oneofName = ""
                while let (field, type) = try oneof.readTag() {
                    if field == 1, type == .lengthDelimited {
                        oneofName = try string(oneof.readLengthDelimited())
                    } else {
                        try oneof.skip(type, field: field)
                    }
                }
                oneofs.append(oneofName)
            default: try reader.skip(wireType, field: number)
            }
        }
        guard !name.isEmpty else { throw ProtobufError(.malformedDescriptor("a message without a name")) }
        let fullName = prefix + name
        for field in fields {
            if let index = field.oneofIndex, index >= oneofs.count {
                throw ProtobufError(
                    .malformedDescriptor("field '\(field.name)' of \(fullName) names oneof \(index), which is absent"))
            }
        }
        let position = file.messages.count
        file.messages.append(
            ProtoMessageDescriptor(
                fullName: fullName, fields: fields, oneofs: oneofs, isMapEntry: isMapEntry, syntax: syntax))
        var nestedNames: [String] = []
        for bytes in nested {
            let before = file.messages.count
            try decodeMessage(bytes, prefix: fullName + ".", syntax: syntax, depth: depth + 1, into: &file)
            nestedNames.append(file.messages[before].fullName)
        }
        var enumNames: [String] = []
        for bytes in enums {
            let decoded = try decodeEnum(bytes, prefix: fullName + ".", syntax: syntax)
            enumNames.append(decoded.fullName)
            file.enums.append(decoded)
        }
        file.messages[position].nestedMessageNames = nestedNames
        file.messages[position].nestedEnumNames = enumNames
    }

    private static func decodeField(_ bytes: ArraySlice<UInt8>) throws(ProtobufError) -> ProtoFieldDescriptor {
        var reader = ProtoWireReader(bytes)
        var name = ""
        var number = 0
        var label = ProtoFieldDescriptor.Label.optional
        var type: ProtoFieldDescriptor.FieldType?
        var typeName: String?
        var defaultValue: String?
        var oneofIndex: Int?
        var jsonName: String?
        var proto3Optional = false
        var packed: Bool?
        while let (field, wireType) = try reader.readTag() {
            switch (field, wireType) {
            case (1, .lengthDelimited): name = try string(reader.readLengthDelimited())
            case (3, .varint): number = Int(truncatingIfNeeded: try reader.readVarint())
            case (4, .varint):
                let raw = try reader.readVarint()
                guard let value = ProtoFieldDescriptor.Label(rawValue: Int(truncatingIfNeeded: raw)) else {
                    throw ProtobufError(.malformedDescriptor("field '\(name)' has label \(raw)"))
                }
                label = value
            case (5, .varint):
                let raw = try reader.readVarint()
                guard let value = ProtoFieldDescriptor.FieldType(rawValue: Int(truncatingIfNeeded: raw)) else {
                    throw ProtobufError(.malformedDescriptor("field '\(name)' has type \(raw)"))
                }
                type = value
            case (6, .lengthDelimited): typeName = try string(reader.readLengthDelimited())
            case (7, .lengthDelimited): defaultValue = try string(reader.readLengthDelimited())
            case (8, .lengthDelimited): packed = try bool(in: reader.readLengthDelimited(), number: 2)
            case (9, .varint):
                let raw = try reader.readVarint()
                guard raw < 1 << 20 else { throw ProtobufError(.malformedDescriptor("oneof index \(raw)")) }
                oneofIndex = Int(raw)
            case (10, .lengthDelimited): jsonName = try string(reader.readLengthDelimited())
            case (17, .varint): proto3Optional = try reader.readVarint() != 0
            default: try reader.skip(wireType, field: field)
            }
        }
        guard !name.isEmpty else { throw ProtobufError(.malformedDescriptor("a field without a name")) }
        guard number >= 1, number <= 0x1FFF_FFFF else {
            throw ProtobufError(.malformedDescriptor("field '\(name)' has number \(number)"))
        }
        // A descriptor may leave the type out when it names a type (unresolved descriptors); the schema decides
        // between message and enum then.
        guard let type = type ?? (typeName == nil ? nil : .message) else {
            throw ProtobufError(.malformedDescriptor("field '\(name)' has no type"))
        }
        return ProtoFieldDescriptor(
            name: name, number: number, jsonName: jsonName, type: type, label: label, typeName: typeName,
            oneofIndex: oneofIndex, isProto3Optional: proto3Optional, packedOption: packed,
            defaultValue: defaultValue)
    }

    // MARK: - Enums and services

    private static func decodeEnum(
        _ bytes: ArraySlice<UInt8>, prefix: String, syntax: ProtoSyntax
    ) throws(ProtobufError) -> ProtoEnumDescriptor {
        var reader = ProtoWireReader(bytes)
        var name = ""
        var values: [ProtoEnumDescriptor.Value] = []
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try string(reader.readLengthDelimited())
            case (2, .lengthDelimited):
                var value = ProtoWireReader(try reader.readLengthDelimited())
                var valueName = ""
                var valueNumber: Int32 = 0
                while let (field, type) = try value.readTag() {
                    switch (field, type) {
                    case (1, .lengthDelimited): valueName = try string(value.readLengthDelimited())
                    case (2, .varint): valueNumber = Int32(truncatingIfNeeded: try value.readVarint())
                    default: try value.skip(type, field: field)
                    }
                }
                values.append(.init(name: valueName, number: valueNumber))
            default: try reader.skip(wireType, field: number)
            }
        }
        guard !name.isEmpty else { throw ProtobufError(.malformedDescriptor("an enum without a name")) }
        return ProtoEnumDescriptor(fullName: prefix + name, values: values, isClosed: syntax == .proto2)
    }

    private static func decodeService(
        _ bytes: ArraySlice<UInt8>, prefix: String
    ) throws(ProtobufError) -> ProtoServiceDescriptor {
        var reader = ProtoWireReader(bytes)
        var name = ""
        var methods: [ProtoMethodDescriptor] = []
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited): name = try string(reader.readLengthDelimited())
            case (2, .lengthDelimited):
                var method = ProtoWireReader(try reader.readLengthDelimited())
                var decoded = ProtoMethodDescriptor(serviceName: "", name: "", inputType: "", outputType: "")
                while let (field, type) = try method.readTag() {
                    switch (field, type) {
                    case (1, .lengthDelimited): decoded.name = try string(method.readLengthDelimited())
                    case (2, .lengthDelimited): decoded.inputType = try string(method.readLengthDelimited())
                    case (3, .lengthDelimited): decoded.outputType = try string(method.readLengthDelimited())
                    case (5, .varint): decoded.clientStreaming = try method.readVarint() != 0
                    case (6, .varint): decoded.serverStreaming = try method.readVarint() != 0
                    default: try method.skip(type, field: field)
                    }
                }
                methods.append(decoded)
            default: try reader.skip(wireType, field: number)
            }
        }
        guard !name.isEmpty else { throw ProtobufError(.malformedDescriptor("a service without a name")) }
        let fullName = prefix + name
        for index in methods.indices { methods[index].serviceName = fullName }
        return ProtoServiceDescriptor(fullName: fullName, methods: methods)
    }

    // MARK: - Values

    private static func string(_ bytes: ArraySlice<UInt8>) throws(ProtobufError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ProtobufError(.malformedDescriptor("a name that is not UTF-8"))
        }
        return text
    }

    /// The bool field `number` of an options message, when set.
    private static func bool(in bytes: ArraySlice<UInt8>, number: Int) throws(ProtobufError) -> Bool? {
        var reader = ProtoWireReader(bytes)
        var result: Bool?
        while let (field, wireType) = try reader.readTag() {
            if field == number, wireType == .varint {
                result = try reader.readVarint() != 0
            } else {
                try reader.skip(wireType, field: field)
            }
        }
        return result
    }
}
