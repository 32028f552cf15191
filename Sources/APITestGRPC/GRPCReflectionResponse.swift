package import APITestProtobuf

/// One answer of gRPC's server reflection protocol (`ServerReflectionResponse`, the same on the wire in `v1` and
/// `v1alpha`), read from untrusted bytes with ``ProtoWireReader``.
///
/// The fields, from `reflection.proto`: `valid_host` (1), `original_request` (2), and one of
/// `file_descriptor_response` (4: repeated serialized `FileDescriptorProto`s, field 1),
/// `all_extension_numbers_response` (5), `list_services_response` (6: repeated `ServiceResponse`, each a `name` in
/// field 1) and `error_response` (7: `error_code` in field 1, `error_message` in field 2). As in any oneof, the
/// last member on the wire wins; fields this client does not know are skipped.
package enum GRPCReflectionResponse: Sendable, Hashable {
    /// `file_descriptor_response`: serialized `FileDescriptorProto`s, the file asked for and perhaps its imports.
    case fileDescriptors([[UInt8]])
    /// `list_services_response`: the full names of the services, in the server's order.
    case services([String])
    /// `all_extension_numbers_response`, which this client never asks for.
    case extensionNumbers
    /// `error_response`: a gRPC status code (NOT_FOUND for an unknown file or symbol) and its message.
    case error(code: Int, message: String)

    // MARK: - Field numbers

    private static let fileDescriptorResponseField = 4
    private static let extensionNumbersField = 5
    private static let listServicesResponseField = 6
    private static let errorResponseField = 7

    // MARK: - Decoding

    /// The answer serialized in `bytes`.
    ///
    /// - Throws: `ProtobufError` when the bytes are not a valid encoding (truncated, a bad tag, a string that is not
    ///   UTF-8, a group), or when none of the answers is set (`malformedDescriptor`).
    package static func decode(_ bytes: [UInt8]) throws(ProtobufError) -> GRPCReflectionResponse {
        var reader = ProtoWireReader(bytes[...])
        var answer: GRPCReflectionResponse?
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (fileDescriptorResponseField, .lengthDelimited):
                answer = .fileDescriptors(try files(in: reader.readLengthDelimited()))
            case (extensionNumbersField, .lengthDelimited):
                _ = try reader.readLengthDelimited()
                answer = .extensionNumbers
            case (listServicesResponseField, .lengthDelimited):
                answer = .services(try services(in: reader.readLengthDelimited()))
            case (errorResponseField, .lengthDelimited):
                let (code, message) = try error(in: reader.readLengthDelimited())
                answer = .error(code: code, message: message)
            default:
                try reader.skip(wireType, field: number)
            }
        }
        guard let answer else {
            throw ProtobufError(.malformedDescriptor("a reflection answer with none of its answers set"))
        }
        return answer
    }

    /// `FileDescriptorResponse.file_descriptor_proto` (field 1, repeated bytes).
    private static func files(in bytes: ArraySlice<UInt8>) throws(ProtobufError) -> [[UInt8]] {
        var reader = ProtoWireReader(bytes)
        var files: [[UInt8]] = []
        while let (number, wireType) = try reader.readTag() {
            if number == 1, wireType == .lengthDelimited {
                files.append(Array(try reader.readLengthDelimited()))
            } else {
                try reader.skip(wireType, field: number)
            }
        }
        return files
    }

    /// `ListServiceResponse.service` (field 1, repeated `ServiceResponse`), each one's `name` (field 1).
    private static func services(in bytes: ArraySlice<UInt8>) throws(ProtobufError) -> [String] {
        var reader = ProtoWireReader(bytes)
        var names: [String] = []
        while let (number, wireType) = try reader.readTag() {
            guard number == 1, wireType == .lengthDelimited else {
                try reader.skip(wireType, field: number)
                continue
            }
            var service = ProtoWireReader(try reader.readLengthDelimited())
            var name = ""
            while let (inner, innerType) = try service.readTag() {
                if inner == 1, innerType == .lengthDelimited {
                    name = try string(service.readLengthDelimited(), field: "ServiceResponse.name")
                } else {
                    try service.skip(innerType, field: inner)
                }
            }
            names.append(name)
        }
        return names
    }

    /// `ErrorResponse`: `error_code` (field 1, int32) and `error_message` (field 2).
    private static func error(in bytes: ArraySlice<UInt8>) throws(ProtobufError) -> (Int, String) {
        var reader = ProtoWireReader(bytes)
        var code = 0
        var message = ""
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .varint): code = Int(Int32(truncatingIfNeeded: try reader.readVarint()))
            case (2, .lengthDelimited):
                message = try string(reader.readLengthDelimited(), field: "ErrorResponse.error_message")
            default: try reader.skip(wireType, field: number)
            }
        }
        return (code, message)
    }

    private static func string(_ bytes: ArraySlice<UInt8>, field: String) throws(ProtobufError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ProtobufError(.invalidUTF8(field: field))
        }
        return text
    }
}
