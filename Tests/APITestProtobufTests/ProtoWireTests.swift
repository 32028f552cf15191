import Testing

@testable import APITestProtobuf

/// The wire reader on hostile input: every malformed encoding is a typed error, never a trap.
@Suite struct ProtoWireTests {
    @Test func varintsRoundTrip() throws {
        for value: UInt64 in [0, 1, 127, 128, 300, UInt64(UInt32.max), UInt64.max] {
            var writer = ProtoWireWriter()
            writer.writeVarint(value)
            var reader = ProtoWireReader(writer.bytes[...])
            #expect(try reader.readVarint() == value)
            #expect(reader.isAtEnd)
        }
    }

    @Test func anOverlongVarintIsRefused() {
        var reader = ProtoWireReader([UInt8](repeating: 0xFF, count: 11)[...])
        #expect(throws: ProtobufError(.varintOverflow)) { try reader.readVarint() }
        var beyond = ProtoWireReader(([UInt8](repeating: 0xFF, count: 9) + [0x02])[...])
        #expect(throws: ProtobufError(.varintOverflow)) { try beyond.readVarint() }
    }

    @Test func truncatedInputIsRefused() {
        var varint = ProtoWireReader([0x80][...])
        #expect(throws: ProtobufError(.truncated)) { try varint.readVarint() }
        var length = ProtoWireReader([0x05, 0x01][...])
        #expect(throws: ProtobufError(.truncated)) { try length.readLengthDelimited() }
        var fixed = ProtoWireReader([0x01, 0x02, 0x03][...])
        #expect(throws: ProtobufError(.truncated)) { try fixed.readFixed32() }
        var huge = ProtoWireReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01][...])
        #expect(throws: ProtobufError(.truncated)) { try huge.readLengthDelimited() }
    }

    @Test func invalidTagsAreRefused() {
        var zero = ProtoWireReader([0x00][...])
        #expect(throws: ProtobufError(.invalidTag(0))) { try zero.readTag() }
        var wireType7 = ProtoWireReader([0x0F][...])
        #expect(throws: ProtobufError(.invalidTag(15))) { try wireType7.readTag() }
        var group = ProtoWireReader([0x0B, 0x0C][...])
        #expect(throws: ProtobufError(.groupsUnsupported("field 1"))) {
            let tag = try group.readTag()
            try group.skip(tag!.wireType, field: tag!.number)
        }
    }
}
