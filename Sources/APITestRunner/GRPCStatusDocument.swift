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

    /// The error detail types of `google/rpc/error_details.proto` (the ones gRPC servers send), compiled once per
    /// process with `protoc` when a detail of one of them arrives that the suite's schema does not declare; nil when
    /// `protoc` is not there (such a detail then shows its bytes in base64).
    static let standardDetails: ProtoSchema? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-rpc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("google/rpc/error_details.proto")
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try errorDetailsProto.write(to: file, atomically: true, encoding: .utf8)
            return try ProtocRunner().schema(files: ["google/rpc/error_details.proto"], workingDirectory: folder.path)
        } catch {
            return nil
        }
    }()

    /// The message types of `google/rpc/error_details.proto`, as Google publishes them.
    static let errorDetailsProto = """
        syntax = "proto3";
        package google.rpc;
        import "google/protobuf/duration.proto";
        message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
        message RetryInfo { google.protobuf.Duration retry_delay = 1; }
        message DebugInfo { repeated string stack_entries = 1; string detail = 2; }
        message QuotaFailure {
          message Violation { string subject = 1; string description = 2; }
          repeated Violation violations = 1;
        }
        message PreconditionFailure {
          message Violation { string type = 1; string subject = 2; string description = 3; }
          repeated Violation violations = 1;
        }
        message BadRequest {
          message FieldViolation {
            string field = 1; string description = 2; string reason = 3; LocalizedMessage localized_message = 4;
          }
          repeated FieldViolation field_violations = 1;
        }
        message RequestInfo { string request_id = 1; string serving_data = 2; }
        message ResourceInfo {
          string resource_type = 1; string resource_name = 2; string owner = 3; string description = 4;
        }
        message Help {
          message Link { string description = 1; string url = 2; }
          repeated Link links = 1;
        }
        message LocalizedMessage { string locale = 1; string message = 2; }
        """

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
        let known = schema.flatMap { $0.messages[typeName] != nil ? $0 : nil }
        let decoder = known ?? (typeName.hasPrefix("google.rpc.") ? standardDetails : nil)
        if let decoder, decoder.messages[typeName] != nil,
            case .object(let object) = try? decoder.decode(value, as: typeName)
        {
            var members: [JSONObject.Member] = [("@type", .string(url))]
            for (key, member) in object { members.append((key, member)) }
            return .object(JSONObject(members))
        }
        return .object(JSONObject([("@type", .string(url)), ("value", .string(Data(value).base64EncodedString()))]))
    }
}
