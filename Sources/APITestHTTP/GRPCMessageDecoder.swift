import Foundation

/// Cuts a gRPC response body into its messages as the bytes arrive: each is a flag byte, a 4-byte big-endian
/// length and that many bytes. A message split across reads is completed from the next ones, several in one read are
/// all handed over; a length above the limit is an error before anything is allocated for it.
struct GRPCMessageDecoder {
    /// The largest message accepted, in bytes.
    let limit: Int
    /// The bytes of the current message's 5-byte prefix received so far.
    private var prefix: [UInt8] = []
    /// The current message's length, once its prefix is complete.
    private var expected: Int?
    /// The current message's bytes so far.
    private var message = Data()
    /// Messages handed over.
    private(set) var count = 0

    init(limit: Int) {
        self.limit = limit
        prefix.reserveCapacity(5)
    }

    /// Takes the next body bytes, calling `emit` with each message they complete; stops early (returning false) when
    /// `emit` returns false. Throws for a compressed or unknown flag or a length above the limit.
    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, emit: (Data) -> Bool
    ) throws(GRPCError) -> Bool {
        var index = 0
        while index < bytes.count {
            guard let length = expected else {
                let take = min(5 - prefix.count, bytes.count - index)
                prefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                if prefix.count == 5 {
                    guard prefix[0] == 0 else { throw GRPCError(.unsupportedMessageFlag(prefix[0])) }
                    let length = Int(prefix[1]) << 24 | Int(prefix[2]) << 16 | Int(prefix[3]) << 8 | Int(prefix[4])
                    guard length <= limit else { throw GRPCError(.messageTooLarge(length: length, limit: limit)) }
                    expected = length
                    message = Data()
                    message.reserveCapacity(length)
                    if length == 0, !complete(emit) { return false }
                }
                continue
            }
            let take = min(length - message.count, bytes.count - index)
            message.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
            index += take
            if message.count == length, !complete(emit) { return false }
        }
        return true
    }

    /// Hands over the current message and starts the next.
    private mutating func complete(_ emit: (Data) -> Bool) -> Bool {
        let done = message
        message = Data()
        expected = nil
        prefix.removeAll(keepingCapacity: true)
        count += 1
        return emit(done)
    }

    /// The body ended: throws when it ended inside a message.
    func finish() throws(GRPCError) {
        if let expected {
            throw GRPCError(.truncatedMessage(received: 5 + message.count, expected: 5 + expected))
        }
        if !prefix.isEmpty { throw GRPCError(.truncatedMessage(received: prefix.count, expected: 5)) }
    }

    /// `messages` framed for a request body: each with its 5-byte prefix (flag 0, not compressed).
    static func frame(_ messages: [Data]) -> Data {
        var body = Data()
        body.reserveCapacity(messages.reduce(0) { $0 + 5 + $1.count })
        for message in messages {
            let length = UInt32(truncatingIfNeeded: message.count)
            body.append(contentsOf: [
                0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            ])
            body.append(message)
        }
        return body
    }
}
