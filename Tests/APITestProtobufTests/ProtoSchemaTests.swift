import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestProtobuf

/// Descriptors from `protoc` and from reflection's `FileDescriptorProto`s: the model, name resolution across files
/// and packages, method lookup with did-you-mean, and `protoc`'s errors located.
@Suite struct ProtoSchemaTests {
    @Test func theModelHoldsWhatTheFilesDeclare() throws {
        let schema = try ProtoSchema(fileDescriptorSet: ProtobufOracle.acmeDescriptorSet())
        #expect(schema.files.map(\.name).contains("acme/codec.proto"))
        #expect(
            schema.files.first { $0.name == "acme/codec.proto" }?.dependencies.contains("acme/common.proto") == true)
        let user = try schema.message(named: "acme.codec.User")
        #expect(user.syntax == .proto3)
        #expect(user.nestedMessageNames.contains("acme.codec.User.Address"))
        #expect(user.nestedEnumNames == ["acme.codec.User.Status"])
        #expect(user.field(named: "nick")?.name == "display_name")
        #expect(user.field(named: "display_name")?.jsonName == "nick")
        #expect(user.field(named: "userId")?.number == 1)
        let roles = try #require(user.field(named: "roles"))
        #expect(roles.type == .enumeration && roles.typeName == "acme.codec.Role" && roles.isRepeated)
        #expect(user.isPacked(roles))
        #expect(user.field(named: "balance")?.typeName == "acme.common.Money")
        #expect(user.field(named: "unpacked")?.packedOption == false)
        #expect(user.field(named: "unpacked").map(user.isPacked) == false)
        let age = try #require(user.field(named: "age"))
        #expect(age.isProto3Optional && user.hasPresence(age))
        #expect(user.field(named: "email")?.oneofIndex == user.oneofs.firstIndex(of: "contact"))
        let counters = try #require(user.field(named: "counters")?.typeName)
        #expect(schema.messages[counters]?.isMapEntry == true)
        let legacy = try schema.message(named: "acme.legacy.Legacy")
        #expect(legacy.syntax == .proto2)
        #expect(legacy.field(named: "id")?.label == .required)
        #expect(legacy.field(named: "name")?.defaultValue == "unnamed")
        #expect(legacy.field(named: "values").map(legacy.isPacked) == false)
        #expect(legacy.field(named: "packedValues").map(legacy.isPacked) == true)
        #expect(schema.enums["acme.legacy.Legacy.Kind"]?.isClosed == true)
        #expect(schema.enums["acme.codec.Role"]?.isClosed == false)
    }

    @Test func methodsAreFoundByPathWithStreamingFlags() throws {
        let schema = try ProtoSchema(fileDescriptorSet: ProtobufOracle.acmeDescriptorSet())
        let get = try schema.method("acme.codec.Users/GetUser")
        #expect(get.inputType == "acme.codec.User" && get.outputType == "acme.codec.User")
        #expect(!get.clientStreaming && !get.serverStreaming)
        #expect(get.path == "/acme.codec.Users/GetUser")
        #expect(try schema.method("/acme.codec.Users/Watch").serverStreaming)
        #expect(try schema.method("acme.codec.Users.Upload").clientStreaming)
        let chat = try schema.method("acme.codec.Users/Chat")
        #expect(chat.clientStreaming && chat.serverStreaming && chat.outputType == "acme.codec.User")
        #expect(try schema.method("acme.codec.Users/Upload").outputType == "acme.codec.Envelope")
        #expect(schema.allMethods.map(\.name) == ["Chat", "GetUser", "Upload", "Watch"])
    }

    @Test func unknownNamesGetDidYouMean() throws {
        let schema = try ProtoSchema(fileDescriptorSet: ProtobufOracle.acmeDescriptorSet())
        #expect(
            throws: ProtobufError(.unknownMethod(service: "acme.codec.Users", method: "GetUsr", suggestion: "GetUser"))
        ) {
            try schema.method("acme.codec.Users/GetUsr")
        }
        #expect(throws: ProtobufError(.unknownService(name: "acme.codec.User", suggestion: "acme.codec.Users"))) {
            try schema.method("acme.codec.User/GetUser")
        }
        #expect(throws: ProtobufError(.invalidMethodReference("GetUser"))) { try schema.method("GetUser") }
        #expect(throws: ProtobufError(.unknownMessage(name: "acme.codec.Usr", suggestion: "acme.codec.User"))) {
            try schema.message(named: "acme.codec.Usr")
        }
        let error = ProtobufError(.unknownMethod(service: "acme.codec.Users", method: "GetUsr", suggestion: "GetUser"))
        #expect(error.description == "unknown method 'GetUsr' of service acme.codec.Users; did you mean 'GetUser'?")
    }

    /// Reflection answers with serialized `FileDescriptorProto`s, repeating shared imports: the same schema results.
    @Test func fileDescriptorProtosAsReflectionReturnsThem() throws {
        let set = try ProtobufOracle.acmeDescriptorSet()
        var reader = ProtoWireReader(set[...])
        var files: [[UInt8]] = []
        while let (number, wireType) = try reader.readTag() {
            #expect(number == 1 && wireType == .lengthDelimited)
            files.append(Array(try reader.readLengthDelimited()))
        }
        let fromReflection = try ProtoSchema(fileDescriptorProtos: files.reversed() + files)
        let fromSet = try ProtoSchema(fileDescriptorSet: set)
        #expect(fromReflection.messages == fromSet.messages)
        #expect(fromReflection.services == fromSet.services)
        #expect(fromReflection.files.count == files.count)
    }

    /// Unresolved descriptors (hand-written, or from other tools) name types relative to their scope; protoc's
    /// rule finds the innermost.
    @Test func relativeTypeNamesResolveInnermostFirst() throws {
        func field(_ name: String, _ number: Int, typeName: String) -> [UInt8] {
            var writer = ProtoWireWriter()
            writer.writeTag(1, .lengthDelimited)
            writer.writeLengthDelimited(Array(name.utf8))
            writer.writeTag(3, .varint)
            writer.writeVarint(UInt64(number))
            writer.writeTag(6, .lengthDelimited)
            writer.writeLengthDelimited(Array(typeName.utf8))
            return writer.bytes
        }
        func message(_ name: String, fields: [[UInt8]], nested: [[UInt8]] = []) -> [UInt8] {
            var writer = ProtoWireWriter()
            writer.writeTag(1, .lengthDelimited)
            writer.writeLengthDelimited(Array(name.utf8))
            for bytes in fields {
                writer.writeTag(2, .lengthDelimited)
                writer.writeLengthDelimited(bytes)
            }
            for bytes in nested {
                writer.writeTag(3, .lengthDelimited)
                writer.writeLengthDelimited(bytes)
            }
            return writer.bytes
        }
        var file = ProtoWireWriter()
        file.writeTag(1, .lengthDelimited)
        file.writeLengthDelimited(Array("rel.proto".utf8))
        file.writeTag(2, .lengthDelimited)
        file.writeLengthDelimited(Array("a.b".utf8))
        let inner = message("Inner", fields: [])
        let outer = message(
            "Outer",
            fields: [
                field("x", 1, typeName: "Inner"), field("y", 2, typeName: "Leaf"),
                field("z", 3, typeName: "b.Leaf"),
            ], nested: [inner])
        for bytes in [outer, message("Leaf", fields: []), message("Inner", fields: [])] {
            file.writeTag(4, .lengthDelimited)
            file.writeLengthDelimited(bytes)
        }
        file.writeTag(12, .lengthDelimited)
        file.writeLengthDelimited(Array("proto3".utf8))
        let schema = try ProtoSchema(fileDescriptorProtos: [file.bytes])
        let resolved = try schema.message(named: "a.b.Outer")
        #expect(resolved.field(number: 1)?.typeName == "a.b.Outer.Inner")
        #expect(resolved.field(number: 2)?.typeName == "a.b.Leaf")
        #expect(resolved.field(number: 3)?.typeName == "a.b.Leaf")

        var broken = ProtoWireWriter()
        broken.writeTag(2, .lengthDelimited)
        broken.writeLengthDelimited(Array("p".utf8))
        broken.writeTag(4, .lengthDelimited)
        broken.writeLengthDelimited(message("M", fields: [field("f", 1, typeName: "Mm")]))
        #expect(throws: ProtobufError(.unresolvedType(name: "Mm", referencedFrom: "p.M.f", suggestion: "p.M"))) {
            try ProtoSchema(fileDescriptorProtos: [broken.bytes])
        }
    }

    @Test func protocErrorsAreLocated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("protoc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("syntax = \"proto3\";\npackage p;\nmessage A {\n  Missing m = 1;\n}\n".utf8)
            .write(to: folder.appendingPathComponent("api/bad.proto"))
        let runner = ProtocRunner()
        do {
            _ = try runner.schema(files: ["api/bad.proto"], workingDirectory: folder.path)
            Issue.record("protoc accepted an undefined type")
        } catch {
            #expect(error.location == SourceLocation(file: "api/bad.proto", line: 4, column: 3))
            guard case .protocFailed(let text) = error.kind else {
                Issue.record("\(error)")
                return
            }
            #expect(text.contains("\"Missing\" is not defined"))
        }
        // Import paths: protoc names the file under its import path; the error names it as the user wrote it.
        do {
            _ = try runner.schema(files: ["bad.proto"], importPaths: ["api"], workingDirectory: folder.path)
            Issue.record("protoc accepted an undefined type")
        } catch {
            #expect(error.location == SourceLocation(file: "api/bad.proto", line: 4, column: 3))
        }
        do {
            _ = try runner.schema(files: ["nope.proto"], workingDirectory: folder.path)
            Issue.record("protoc accepted a missing file")
        } catch {
            #expect(error.location == nil)
            #expect(error.description.contains("nope.proto"))
        }
        #expect(throws: ProtobufError.self) {
            try ProtocRunner(executable: "/nonexistent/protoc").schema(files: ["a.proto"])
        }
    }

    /// The well-known types come with the runner: a file importing them compiles without libprotobuf-dev.
    @Test func wellKnownImportsNeedNoSystemCopies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("protoc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            """
            syntax = "proto3";
            import "google/protobuf/timestamp.proto";
            message T { google.protobuf.Timestamp at = 1; }
            """.utf8
        ).write(to: folder.appendingPathComponent("t.proto"))
        let schema = try ProtocRunner().schema(files: ["t.proto"], workingDirectory: folder.path)
        let bytes = try schema.encode(["at": "2001-02-03T04:05:06Z"], as: "T")
        #expect(try schema.decode(bytes, as: "T") == ["at": "2001-02-03T04:05:06Z"])
    }

    @Test func malformedDescriptorSetsAreErrors() {
        #expect(throws: ProtobufError(.truncated)) { try ProtoSchema(fileDescriptorSet: [0x0A, 0x05, 0x01]) }
        #expect(throws: ProtobufError(.malformedDescriptor("a message without a name"))) {
            try ProtoSchema(fileDescriptorSet: [0x0A, 0x02, 0x22, 0x00])
        }
    }
}
