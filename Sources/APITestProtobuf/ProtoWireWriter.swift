/// The protobuf wire format written into a byte buffer: the encoder's half of ``ProtoWireReader``.
package struct ProtoWireWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty writer.
    package init() {}

    /// Appends a base-128 varint.
    package mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Appends a field's tag.
    package mutating func writeTag(_ number: Int, _ wireType: ProtoWireReader.WireType) {
        writeVarint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends 4 little-endian bytes.
    package mutating func writeFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends 8 little-endian bytes.
    package mutating func writeFixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends a length prefix and `payload`.
    package mutating func writeLengthDelimited(_ payload: some Collection<UInt8>) {
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}
