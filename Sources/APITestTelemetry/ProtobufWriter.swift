import APITestProtobuf

/// OTLP's span messages in protobuf's wire format: the field kinds its spans use, with proto3's rule that a field at
/// its default is left out. The encoding itself is ``ProtoWireWriter``'s, the one the gRPC codec uses.
struct ProtobufWriter {
    private var wire = ProtoWireWriter()

    /// The bytes written so far.
    var bytes: [UInt8] { wire.bytes }

    /// A varint field (wire type 0); left out at zero unless `always` (a oneof member is written even then).
    mutating func varintField(_ field: Int, _ value: UInt64, always: Bool = false) {
        guard value != 0 || always else { return }
        wire.writeTag(field, .varint)
        wire.writeVarint(value)
    }

    /// A fixed64 field (wire type 1), little-endian; left out at zero.
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        wire.writeTag(field, .fixed64)
        wire.writeFixed64(value)
    }

    /// A string field (wire type 2, UTF-8); left out when empty unless `always`.
    mutating func string(_ field: Int, _ text: String, always: Bool = false) {
        guard !text.isEmpty || always else { return }
        lengthDelimited(field, Array(text.utf8))
    }

    /// A bytes field of `words`, each written big-endian (a trace id's two halves, a span id).
    mutating func bytes(_ field: Int, bigEndian words: [UInt64]) {
        var data: [UInt8] = []
        data.reserveCapacity(words.count * 8)
        for word in words {
            for shift in stride(from: 56, through: 0, by: -8) {
                data.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        lengthDelimited(field, data)
    }

    /// An embedded message field (wire type 2).
    mutating func message(_ field: Int, _ message: ProtobufWriter) {
        lengthDelimited(field, message.bytes)
    }

    private mutating func lengthDelimited(_ field: Int, _ data: [UInt8]) {
        wire.writeTag(field, .lengthDelimited)
        wire.writeLengthDelimited(data)
    }
}
