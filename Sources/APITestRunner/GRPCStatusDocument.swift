import APITestHTTP
import APITestJSON
import APITestProtobuf
import Foundation

/// The status of a gRPC call as the JSON document `expect.grpc`'s `message` and `details` checks read:
/// `{"code": 5, "status": "NOT_FOUND", "message": "...", "details": [{"@type": "type.googleapis.com/...", ...}]}`.
/// The details are the `google.rpc.Status` in `grpc-status-details-bin`, each `Any` decoded against the loaded
/// descriptors (one whose type the schema lacks is `{"@type": url, "value": base64}`).
enum GRPCStatusDocument {
    /// The document of `status`, its details decoded with `schema`.
    static func json(of status: GRPCStatus, schema: ProtoSchema?) -> JSONValue {
        var members: [JSONObject.Member] = [
            ("code", .integer(Int64(status.rawCode))),
            ("status", .string(status.codeName)),
            ("message", .string(status.message)),
        ]
        members.append(("details", .array(status.details.map { details(Array($0), schema: schema) } ?? [])))
        return .object(JSONObject(members))
    }

    /// The `details` of a serialized `google.rpc.Status` (field 3, repeated `Any`); empty when it does not decode.
    static func details(_ bytes: [UInt8], schema: ProtoSchema?) -> [JSONValue] {
        var reader = ProtoWireReader(bytes[...])
        var details: [JSONValue] = []
        do throws(ProtobufError) {
            while let (number, wireType) = try reader.readTag() {
                guard number == 3, wireType == .lengthDelimited else {
                    try reader.skip(wireType, field: number)
                    continue
                }
                details.append(try any(reader.readLengthDelimited(), schema: schema))
            }
        } catch {
            return details
        }
        return details
    }

    /// One `google.protobuf.Any`: its type URL (field 1) and value (field 2), the value decoded when the schema
    /// declares its type.
    private static func any(_ bytes: ArraySlice<UInt8>, schema: ProtoSchema?) throws(ProtobufError) -> JSONValue {
        var reader = ProtoWireReader(bytes)
        var url = ""
        var value: [UInt8] = []
        while let (number, wireType) = try reader.readTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited): url = String(decoding: try reader.readLengthDelimited(), as: UTF8.self)
            case (2, .lengthDelimited): value = Array(try reader.readLengthDelimited())
            default: try reader.skip(wireType, field: number)
            }
        }
        let typeName = url.split(separator: "/").last.map(String.init) ?? url
        if let schema, schema.messages[typeName] != nil,
            case .object(let object) = try? schema.decode(value, as: typeName)
        {
            var members: [JSONObject.Member] = [("@type", .string(url))]
            for (key, member) in object { members.append((key, member)) }
            return .object(JSONObject(members))
        }
        return .object(JSONObject([("@type", .string(url)), ("value", .string(Data(value).base64EncodedString()))]))
    }
}
