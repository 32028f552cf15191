/// Protobuf's wire format, the few field kinds OTLP's spans use.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// A varint field (wire type 0); left out at zero unless `always` (a oneof member is written even then).
    mutating func varintField(_ field: Int, _ value: UInt64, always: Bool = false) {
        guard value != 0 || always else { return }
        tag(field, wireType: 0)
        varint(value)
    }

    /// A fixed64 field (wire type 1), little-endian.
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, wireType: 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A string field (wire type 2, UTF-8); left out when empty unless `always`.
    mutating func string(_ field: Int, _ text: String, always: Bool = false) {
        guard !text.isEmpty || always else { return }
        lengthDelimited(field, Array(text.utf8))
    }

    /// A bytes field of `words`, each written big-endian (a trace id's two halves, a span id).
    mutating func bytes(_ field: Int, bigEndian words: [UInt64]) {
        var data: [UInt8] = []
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
        tag(field, wireType: 2)
        varint(UInt64(data.count))
        bytes += data
    }

    private mutating func tag(_ field: Int, wireType: UInt64) {
        varint(UInt64(field) << 3 | wireType)
    }

    private mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
