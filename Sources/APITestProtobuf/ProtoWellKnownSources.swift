import Foundation

/// The `.proto` sources of the well-known types the JSON mapping knows (declarations only), written to an import
/// path of their own for ``ProtocRunner``: Debian's `protoc` has no copies without `libprotobuf-dev`.
///
/// The declarations are those of Google's `google/protobuf/*.proto` (Copyright 2008 Google Inc., BSD 3-Clause
/// licence: redistribution with this notice; see https://github.com/protocolbuffers/protobuf/blob/main/LICENSE),
/// with comments and language options left out. Field names, numbers and types are unchanged, so the descriptors
/// are the same on the wire.
enum ProtoWellKnownSources {
    /// File name under `google/protobuf/` → source.
    static let files: [String: String] = [
        "any.proto": """
        syntax = "proto3";
        package google.protobuf;
        message Any {
          string type_url = 1;
          bytes value = 2;
        }
        """,
        "duration.proto": """
        syntax = "proto3";
        package google.protobuf;
        message Duration {
          int64 seconds = 1;
          int32 nanos = 2;
        }
        """,
        "empty.proto": """
        syntax = "proto3";
        package google.protobuf;
        message Empty {}
        """,
        "field_mask.proto": """
        syntax = "proto3";
        package google.protobuf;
        message FieldMask {
          repeated string paths = 1;
        }
        """,
        "struct.proto": """
        syntax = "proto3";
        package google.protobuf;
        message Struct {
          map<string, Value> fields = 1;
        }
        message Value {
          oneof kind {
            NullValue null_value = 1;
            double number_value = 2;
            string string_value = 3;
            bool bool_value = 4;
            Struct struct_value = 5;
            ListValue list_value = 6;
          }
        }
        enum NullValue {
          NULL_VALUE = 0;
        }
        message ListValue {
          repeated Value values = 1;
        }
        """,
        "timestamp.proto": """
        syntax = "proto3";
        package google.protobuf;
        message Timestamp {
          int64 seconds = 1;
          int32 nanos = 2;
        }
        """,
        "wrappers.proto": """
        syntax = "proto3";
        package google.protobuf;
        message DoubleValue { double value = 1; }
        message FloatValue { float value = 1; }
        message Int64Value { int64 value = 1; }
        message UInt64Value { uint64 value = 1; }
        message Int32Value { int32 value = 1; }
        message UInt32Value { uint32 value = 1; }
        message BoolValue { bool value = 1; }
        message StringValue { string value = 1; }
        message BytesValue { bytes value = 1; }
        """,
    ]

    /// Writes the files under `directory/google/protobuf/`.
    static func write(into directory: URL) throws {
        let folder = directory.appendingPathComponent("google/protobuf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, source) in files {
            try Data(
                ("// Google's well-known type, BSD 3-Clause (see ProtoWellKnownSources.swift).\n" + source + "\n").utf8
            )
            .write(to: folder.appendingPathComponent(name))
        }
    }
}
