/// The protobuf wire format read from untrusted bytes, one field at a time.
///
/// This package has its own small reader and writer rather than swift-protobuf: swift-protobuf's build time would
/// cost every CI run, and a dynamic codec needs only the wire format (varints, fixed widths, length-delimited
/// payloads) and the descriptors, which ``ProtoDescriptorDecoder`` reads with this reader. Every read is bounds
/// checked: a varint beyond 10 bytes or 64 bits, or a length beyond the remaining bytes, throws instead of trapping.
package struct ProtoWireReader {
    /// The wire types of the protobuf encoding.
    package enum WireType: Int, Sendable {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5
    }

    private let bytes: ArraySlice<UInt8>
    /// The index of the next byte to read.
    private(set) var position: Int

    /// A reader over `bytes` (a slice keeps its indices).
    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// True when every byte has been read.
    package var isAtEnd: Bool { position >= bytes.endIndex }

    // MARK: - Primitives

    /// Reads a base-128 varint of up to 10 bytes.
    package mutating func readVarint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.endIndex else { throw ProtobufError(.truncated) }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw ProtobufError(.varintOverflow) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw ProtobufError(.varintOverflow) }
        }
    }

    /// Reads 4 little-endian bytes.
    package mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard bytes.endIndex - position >= 4 else { throw ProtobufError(.truncated) }
        var value: UInt32 = 0
        for offset in 0..<4 { value |= UInt32(bytes[position + offset]) << (8 * UInt32(offset)) }
        position += 4
        return value
    }

    /// Reads 8 little-endian bytes.
    package mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard bytes.endIndex - position >= 8 else { throw ProtobufError(.truncated) }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[position + offset]) << (8 * UInt64(offset)) }
        position += 8
        return value
    }

    /// Reads a length prefix and the payload it announces (a slice of the input, not a copy).
    package mutating func readLengthDelimited() throws(ProtobufError) -> ArraySlice<UInt8> {
        let length = try readVarint()
        guard length <= UInt64(bytes.endIndex - position) else { throw ProtobufError(.truncated) }
        let end = position + Int(length)
        defer { position = end }
        return bytes[position..<end]
    }

    // MARK: - Fields

    /// Reads a field's tag: its number (1 through 2^29-1) and wire type; `nil` at the end of the input.
    package mutating func readTag() throws(ProtobufError) -> (number: Int, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let tag = try readVarint()
        let number = tag >> 3
        guard number >= 1, number <= 0x1FFF_FFFF, let wireType = WireType(rawValue: Int(tag & 7)) else {
            throw ProtobufError(.invalidTag(tag))
        }
        return (Int(number), wireType)
    }

    /// Skips the value of a field of `wireType` (a field the schema does not declare). Groups are refused.
    package mutating func skip(_ wireType: WireType, field number: Int) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .startGroup, .endGroup: throw ProtobufError(.groupsUnsupported("field \(number)"))
        }
    }
}
