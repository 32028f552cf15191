// MARK: - WebSocketFrame

/// One RFC 6455 frame (section 5.2): its FIN bit, opcode and unmasked payload.
///
/// A client masks every frame it sends with a fresh random key (`encoded(maskingKey:)`); frames from a server are
/// never masked and are read by `WebSocketFrameDecoder`.
public struct WebSocketFrame: Sendable, Hashable {
    /// The frame's opcode (RFC 6455 section 5.2): three data kinds and three control kinds.
    public enum Opcode: UInt8, Sendable, Hashable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Whether this is a control opcode (close, ping, pong): at most 125 bytes of payload, never fragmented.
        public var isControl: Bool { rawValue & 0x8 != 0 }

        /// The opcode's name in reports (`text`, `ping`, ...).
        public var name: String {
            switch self {
            case .continuation: "continuation"
            case .text: "text"
            case .binary: "binary"
            case .close: "close"
            case .ping: "ping"
            case .pong: "pong"
            }
        }
    }

    /// The most payload bytes a control frame may carry (RFC 6455 section 5.5).
    public static let maximumControlPayload = 125

    /// Whether this is the last frame of its message.
    public var fin: Bool
    /// What the frame carries.
    public var opcode: Opcode
    /// The payload, unmasked.
    public var payload: [UInt8]

    /// A frame of `opcode` with `payload`, the last of its message unless `fin` is false.
    public init(fin: Bool = true, opcode: Opcode, payload: [UInt8] = []) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    // MARK: - Encoding

    /// The frame's bytes on the wire, masked with `maskingKey` (four bytes; a client's frames) or unmasked (nil).
    /// The length takes the shortest of the 7-, 16- and 64-bit forms (section 5.2).
    public func encoded(maskingKey: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 14)
        bytes.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        let count = payload.count
        if count <= 125 {
            bytes.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes.append(UInt8(count >> 8))
            bytes.append(UInt8(count & 0xFF))
        } else {
            bytes.append(maskBit | 127)
            let length = UInt64(count)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((length >> UInt64(shift)) & 0xFF)) }
        }
        if let maskingKey {
            precondition(maskingKey.count == 4, "a masking key is four bytes")
            bytes += maskingKey
            for (index, byte) in payload.enumerated() { bytes.append(byte ^ maskingKey[index & 3]) }
        } else {
            bytes += payload
        }
        return bytes
    }

    /// A fresh masking key from the system's random source, as section 5.3 asks for every frame a client sends.
    public static func randomMaskingKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    // MARK: - Close frames

    /// The payload of a close frame: the status code in network byte order, then the reason's UTF-8 (section 5.5.1);
    /// empty when there is no code.
    public static func closePayload(code: UInt16?, reason: String) -> [UInt8] {
        guard let code else { return [] }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }
}
