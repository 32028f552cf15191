// MARK: - WebSocketFrameDecoder

/// Reads RFC 6455 frames from a server out of the bytes received, as they arrive (section 5.2).
///
/// Checks what a frame alone can break: a masked frame (a server never masks), reserved bits without an extension,
/// reserved opcodes, control frames longer than 125 bytes or fragmented, and 64-bit lengths with the top bit set.
/// A data frame whose payload would pass the message limit is refused from its header, before its payload is read.
struct WebSocketFrameDecoder {
    private var buffer: [UInt8] = []
    private var start = 0

    /// The bytes received and not yet decoded.
    var pendingCount: Int { buffer.count - start }

    /// Adds received bytes.
    mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, nil when more bytes are needed. `maxDataPayload` is the most payload a data frame may
    /// carry now (the message limit less what its earlier fragments used).
    mutating func nextFrame(maxDataPayload: Int, limit: Int) throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        let reserved = (first >> 4) & 0x7
        if reserved != 0 { throw WebSocketError(.reservedBits(reserved)) }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw WebSocketError(.unknownOpcode(first & 0x0F))
        }
        let fin = first & 0x80 != 0
        if second & 0x80 != 0 { throw WebSocketError(.maskedServerFrame) }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + index]) }
            if length & (1 << 63) != 0 { throw WebSocketError(.invalidLength) }
            headerLength = 10
        }
        if opcode.isControl {
            if length > UInt64(WebSocketFrame.maximumControlPayload) {
                throw WebSocketError(.controlFrameTooLong(Int(clamping: length)))
            }
            if !fin { throw WebSocketError(.fragmentedControlFrame(opcode)) }
        } else if length > UInt64(max(0, maxDataPayload)) {
            throw WebSocketError(.messageTooLarge(limit: limit))
        }
        let payloadLength = Int(length)
        guard available >= headerLength + payloadLength else { return nil }
        let payloadStart = start + headerLength
        let payload = Array(buffer[payloadStart..<payloadStart + payloadLength])
        start = payloadStart + payloadLength
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }
}
