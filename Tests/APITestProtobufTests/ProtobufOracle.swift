import APITestJSON
import APITestProtobuf
import Foundation

/// The fixtures of the codec's tests and Google's own protobuf runtime as their oracle: `protobuf_oracle.py` on
/// Python's `protobuf` (PyPI, pinned in scripts/install-deps.sh). A missing module fails the test with Python's
/// message; it never skips.
enum ProtobufOracle {
    /// `Tests/APITestProtobufTests/Fixtures`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// What the oracle answered for one case: a value, or Python's error.
    enum Answer: Equatable {
        case encoded(binary: [UInt8], json: JSONValue)
        case parsed(JSONValue)
        case failed(String)
    }

    /// A failure of the oracle itself (Python missing, the script failing).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The descriptor set of the test schema (`protos/acme/*.proto`), compiled by `protoc` with the runner.
    static func acmeDescriptorSet() throws -> [UInt8] {
        try ProtocRunner().descriptorSet(
            files: ["acme/codec.proto", "acme/legacy.proto"], importPaths: ["protos"],
            workingDirectory: fixtures.path)
    }

    /// The conformance suite's `TestAllTypesProto3` schema.
    static func conformanceDescriptorSet() throws -> [UInt8] {
        try ProtocRunner().descriptorSet(
            files: ["test_messages_proto3.proto"], importPaths: ["."],
            workingDirectory: fixtures.appendingPathComponent("conformance").path)
    }

    /// Python's answers: each `encode` case (JSON → `ParseDict` → binary and `MessageToJson`) and each `parse`
    /// case (binary → `ParseFromString` → `MessageToDict`).
    static func ask(
        descriptorSet: [UInt8], encode: [(type: String, json: JSONValue)] = [],
        parse: [(type: String, binary: [UInt8])] = []
    ) throws -> (encoded: [Answer], parsed: [Answer]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "protobuf-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let setFile = folder.appendingPathComponent("set.pb")
        try Data(descriptorSet).write(to: setFile)
        let request: JSONValue = .object(
            JSONObject([
                ("descriptor_set", .string(setFile.path)),
                (
                    "encode",
                    .array(encode.map { .object(JSONObject([("type", .string($0.type)), ("json", $0.json)])) })
                ),
                (
                    "parse",
                    .array(
                        parse.map {
                            .object(
                                JSONObject([
                                    ("type", .string($0.type)),
                                    ("binary", .string(Data($0.binary).base64EncodedString())),
                                ]))
                        })
                ),
            ]))
        let input = folder.appendingPathComponent("request.json")
        try Data(JSONWriter.bytes(request)).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", fixtures.appendingPathComponent("protobuf_oracle.py").path]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "protobuf_oracle.py failed (status \(process.terminationStatus); is Python's protobuf "
                    + "installed? scripts/install-deps.sh installs it): \(stderr)")
        }
        let answer = try JSONParser.parse(Array(stdout))
        func answers(_ key: String, encoded: Bool) -> [Answer] {
            (answer[key]?.arrayValue ?? []).map { item in
                if let error = item["error"]?.stringValue { return .failed(error) }
                if encoded {
                    let binary = Data(base64Encoded: item["binary"]?.stringValue ?? "").map { Array($0) } ?? []
                    return .encoded(binary: binary, json: item["json"] ?? .null)
                }
                return .parsed(item["json"] ?? .null)
            }
        }
        return (answers("encoded", encoded: true), answers("parsed", encoded: false))
    }
}
