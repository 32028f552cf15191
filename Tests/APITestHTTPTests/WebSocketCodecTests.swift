import Testing

@testable import APITestHTTP

/// RFC 6455's framing: section 5.7's examples, the client's masking, and every protocol violation a server's frames
/// can commit, each a typed error with the close code section 7.4.1 assigns.
@Suite struct WebSocketCodecTests {
    /// Every event `bytes` decode to, with a 16 MiB limit unless `limit` says otherwise.
    private func events(_ bytes: [UInt8], limit: Int = 16 << 20) throws(WebSocketError) -> [WebSocketEvent] {
        var reader = WebSocketMessageReader(limit: limit)
        reader.append(bytes)
        var events: [WebSocketEvent] = []
        while let event = try reader.nextEvent() { events.append(event) }
        return events
    }

    /// The kind of error decoding `bytes` throws, nil when none.
    private func failure(_ bytes: [UInt8], limit: Int = 16 << 20) -> WebSocketError? {
        do throws(WebSocketError) {
            _ = try events(bytes, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    private static let hello: [UInt8] = Array("Hello".utf8)

    // MARK: - Section 5.7

    @Test func aSingleFrameUnmaskedTextMessage() throws {
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        #expect(try events(bytes) == [.message(WebSocketMessage(kind: .text, data: Self.hello))])
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).encoded(maskingKey: nil) == bytes)
    }

    @Test func aSingleFrameMaskedTextMessageIsWhatTheClientSends() {
        let frame = WebSocketFrame(opcode: .text, payload: Self.hello)
        #expect(
            frame.encoded(maskingKey: [0x37, 0xfa, 0x21, 0x3d])
                == [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
    }

    @Test func aMaskedFrameFromTheServerIsAProtocolError() {
        let error = failure([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        #expect(error?.kind == .maskedServerFrame)
        #expect(error?.closeCode == 1002)
    }

    @Test func aFragmentedUnmaskedTextMessage() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
        #expect(try events(bytes) == [.message(WebSocketMessage(kind: .text, data: Self.hello, frames: 2))])
    }

    @Test func unmaskedPingAndMaskedPong() throws {
        #expect(try events([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]) == [.ping(Self.hello)])
        #expect(
            WebSocketFrame(opcode: .pong, payload: Self.hello).encoded(maskingKey: [0x37, 0xfa, 0x21, 0x3d])
                == [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
    }

    @Test func twoHundredFiftySixBytesTakeTheSixteenBitLength() throws {
        let payload = (0..<256).map { UInt8($0 & 0xFF) }
        let bytes: [UInt8] = [0x82, 0x7E, 0x01, 0x00] + payload
        #expect(WebSocketFrame(opcode: .binary, payload: payload).encoded(maskingKey: nil) == bytes)
        #expect(try events(bytes) == [.message(WebSocketMessage(kind: .binary, data: payload))])
    }

    @Test func sixtyFourKibibytesTakeTheSixtyFourBitLength() throws {
        let payload = [UInt8](repeating: 0x2A, count: 65536)
        let bytes: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00] + payload
        #expect(WebSocketFrame(opcode: .binary, payload: payload).encoded(maskingKey: nil) == bytes)
        #expect(try events(bytes) == [.message(WebSocketMessage(kind: .binary, data: payload))])
        // 125 bytes still fit the 7-bit length, 65535 the 16-bit one.
        #expect(
            WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 125)).encoded(maskingKey: nil)[1]
                == 125)
        let largest16 = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 65535))
        #expect(Array(largest16.encoded(maskingKey: nil)[1...3]) == [126, 0xFF, 0xFF])
    }

    // MARK: - Masking and byte-at-a-time reading

    @Test func everyFrameTheClientSendsGetsAFreshKeyAndUnmasksToItsPayload() {
        let frame = WebSocketFrame(opcode: .text, payload: Array("a message long enough to show the key".utf8))
        var keys: Set<[UInt8]> = []
        for _ in 0..<8 {
            let key = WebSocketFrame.randomMaskingKey()
            keys.insert(key)
            let bytes = frame.encoded(maskingKey: key)
            #expect(bytes[1] & 0x80 != 0)
            #expect(Array(bytes[2..<6]) == key)
            let unmasked = bytes[6...].enumerated().map { $0.element ^ key[$0.offset & 3] }
            #expect(unmasked == frame.payload)
        }
        #expect(keys.count > 1)
    }

    @Test func framesSplitAtEveryByteDecodeTheSame() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x00, 0x80, 0x02, 0x6c, 0x6f]
        var reader = WebSocketMessageReader(limit: 1024)
        var events: [WebSocketEvent] = []
        for byte in bytes {
            reader.append([byte])
            while let event = try reader.nextEvent() { events.append(event) }
        }
        #expect(events == [.ping([]), .message(WebSocketMessage(kind: .text, data: Self.hello, frames: 2))])
    }

    // MARK: - Fragmentation and UTF-8

    @Test func controlFramesMayComeBetweenFragments() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x01, 0x21, 0x8A, 0x00, 0x80, 0x02, 0x6c, 0x6f]
        #expect(
            try events(bytes) == [
                .ping([0x21]), .pong([]), .message(WebSocketMessage(kind: .text, data: Self.hello, frames: 2)),
            ])
    }

    @Test func aCharacterSplitAcrossFragmentsIsValidText() throws {
        // "é" is C3 A9: one byte in each fragment.
        let bytes: [UInt8] = [0x01, 0x02, 0x61, 0xC3, 0x80, 0x02, 0xA9, 0x62]
        #expect(
            try events(bytes) == [.message(WebSocketMessage(kind: .text, data: [0x61, 0xC3, 0xA9, 0x62], frames: 2))])
    }

    @Test func invalidUTF8InATextMessageIsError1007() {
        let error = failure([0x01, 0x01, 0xC3, 0x80, 0x01, 0x28])
        #expect(error?.kind == .invalidUTF8(what: "text message"))
        #expect(error?.closeCode == 1007)
        // Binary messages are not text: the same bytes are fine.
        #expect(failure([0x02, 0x01, 0xC3, 0x80, 0x01, 0x28]) == nil)
    }

    @Test func aContinuationWithNoMessageIsAProtocolError() {
        #expect(failure([0x80, 0x01, 0x61])?.kind == .unexpectedContinuation)
    }

    @Test func aNewMessageInsideAFragmentedOneIsAProtocolError() {
        #expect(failure([0x01, 0x01, 0x61, 0x81, 0x01, 0x62])?.kind == .expectedContinuation(.text))
    }

    // MARK: - Frame violations

    @Test func reservedBitsUnknownOpcodesAndBadControlFramesAreProtocolErrors() {
        #expect(failure([0xC1, 0x01, 0x61])?.kind == .reservedBits(0b100))
        #expect(failure([0x83, 0x00])?.kind == .unknownOpcode(0x3))
        #expect(failure([0x8B, 0x00])?.kind == .unknownOpcode(0xB))
        #expect(
            failure([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126))?.kind == .controlFrameTooLong(126))
        #expect(failure([0x09, 0x00])?.kind == .fragmentedControlFrame(.ping))
        #expect(failure([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0x01])?.kind == .invalidLength)
        for bytes: [UInt8] in [[0xC1, 0x01, 0x61], [0x83, 0x00], [0x09, 0x00]] {
            #expect(failure(bytes)?.closeCode == 1002)
        }
    }

    @Test func aMessagePastTheLimitIsError1009FromItsHeader() {
        // The header announces 64 KiB: refused before the payload arrives.
        let error = failure([0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00], limit: 1000)
        #expect(error?.kind == .messageTooLarge(limit: 1000))
        #expect(error?.closeCode == 1009)
        // Fragments count together: 600 + 600 bytes pass a 1000-byte limit.
        let fragment = [UInt8](repeating: 0x61, count: 600)
        let fragmented: [UInt8] = [0x01, 0x7E, 0x02, 0x58] + fragment + [0x80, 0x7E, 0x02, 0x58] + fragment
        #expect(failure(fragmented, limit: 1000)?.kind == .messageTooLarge(limit: 1000))
        #expect(failure(fragmented, limit: 1200) == nil)
    }

    // MARK: - Close frames

    @Test func closeFramesCarryACodeAndAUTF8Reason() throws {
        #expect(try events([0x88, 0x00]) == [.close(code: nil, reason: "")])
        #expect(try events([0x88, 0x04, 0x03, 0xE8, 0x6F, 0x6B]) == [.close(code: 1000, reason: "ok")])
        #expect(try events([0x88, 0x02, 0x0F, 0xA0]) == [.close(code: 4000, reason: "")])
        #expect(failure([0x88, 0x01, 0x03])?.kind == .invalidClose(code: nil))
        // 1005 and 1006 are never sent, 999 and 2000 are no codes.
        for code: UInt16 in [1005, 1006, 1015, 999, 2000] {
            #expect(failure([0x88, 0x02, UInt8(code >> 8), UInt8(code & 0xFF)])?.kind == .invalidClose(code: code))
        }
        #expect(failure([0x88, 0x03, 0x03, 0xE8, 0xFF])?.kind == .invalidUTF8(what: "close reason"))
        #expect(WebSocketFrame.closePayload(code: 1001, reason: "bye") == [0x03, 0xE9, 0x62, 0x79, 0x65])
    }
}
