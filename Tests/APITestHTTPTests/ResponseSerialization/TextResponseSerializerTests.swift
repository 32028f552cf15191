import Foundation
import Testing

@testable import APITestHTTP

@Suite struct TextResponseSerializerTests {
    func text(_ bytes: [UInt8], _ contentType: String) throws -> String {
        let decoded = try TextResponseSerializer().decode(
            ResponseFixtures.response(Data(bytes), contentType: contentType))
        guard case .text(let text) = decoded else {
            throw ResponseSerializationError(decoder: "test", reason: "not text")
        }
        return text
    }

    func error(_ bytes: [UInt8], _ contentType: String) throws -> ResponseSerializationError {
        try #require(
            ResponseFixtures.decodeError(
                TextResponseSerializer(), ResponseFixtures.response(Data(bytes), contentType: contentType)))
    }

    @Test func decodesEachCharset() throws {
        #expect(try text(Array("naïve ☃ 𝄞".utf8), "text/plain; charset=utf-8") == "naïve ☃ 𝄞")
        #expect(try text([0xEF, 0xBB, 0xBF] + Array("bom".utf8), "text/plain; charset=UTF-8") == "bom")
        #expect(try text([0x63, 0x61, 0x66, 0xE9], "text/plain; charset=iso-8859-1") == "café")
        #expect(try text([0x63, 0x61, 0x66, 0xE9], "text/plain; charset=\"latin1\"") == "café")
        #expect(
            try text([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x85], "text/plain; charset=windows-1252")
                == "€ \u{201C}q\u{201D} …")
        #expect(try text(Array("plain".utf8), "text/plain; charset=us-ascii") == "plain")
        // UTF-16 with a byte order mark (either order), without one (big-endian), and with an explicit order.
        #expect(try text([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00], "text/plain; charset=utf-16") == "hi")
        #expect(try text([0xFE, 0xFF, 0x00, 0x68, 0x00, 0x69], "text/plain; charset=utf-16") == "hi")
        #expect(try text([0x00, 0x68, 0x00, 0x69], "text/plain; charset=utf-16") == "hi")
        #expect(try text([0x68, 0x00, 0x3D, 0xD8, 0x00, 0xDE], "text/plain; charset=utf-16le") == "h😀")
        #expect(try text([0x00, 0x68, 0xD8, 0x3D, 0xDE, 0x00], "text/plain; charset=UTF-16BE") == "h😀")
    }

    @Test func defaultsToUTF8AndHonoursUTF16ByteOrderMarks() throws {
        #expect(try text(Array("héllo".utf8), "text/plain") == "héllo")
        #expect(try text([0xFF, 0xFE, 0x6F, 0x00, 0x6B, 0x00], "text/html") == "ok")
        #expect(try error([0x63, 0x61, 0x66, 0xE9], "text/plain").byteOffset == 3)
    }

    @Test func invalidBytesNameTheirOffset() throws {
        let utf8 = try error(Array("abc".utf8) + [0xC3, 0x28] + Array("def".utf8), "text/plain; charset=utf-8")
        #expect(utf8.decoder == "text")
        #expect(utf8.byteOffset == 4)
        #expect(utf8.description == "text decoder: byte 4: invalid UTF-8 byte 0x28")
        #expect(try error([0x61, 0xED, 0xA0, 0x80], "text/plain").byteOffset == 2) // an encoded surrogate
        #expect(try error([0x61, 0xE2, 0x82], "text/plain").byteOffset == 1) // truncated sequence
        #expect(try error([0x61, 0xC0, 0x80], "text/plain").byteOffset == 1) // overlong
        #expect(try error(Array("ok".utf8) + [0xA0], "text/plain; charset=us-ascii").byteOffset == 2)
        #expect(try error([0x41, 0x81], "text/plain; charset=windows-1252").byteOffset == 1)
        #expect(try error([0x00, 0x41, 0xDC, 0x00], "text/plain; charset=utf-16be").byteOffset == 2)
        #expect(try error([0x41, 0x00, 0x42], "text/plain; charset=utf-16le").byteOffset == 2)
        let unknown = try error(Array("x".utf8), "text/plain; charset=klingon")
        #expect(unknown.reason.hasPrefix("unsupported charset 'klingon'"))
        #expect(unknown.byteOffset == nil)
    }

    @Test func acceptsTextTypesOnly() {
        let serializer = TextResponseSerializer()
        #expect(serializer.accepts(ResponseFixtures.response("x", contentType: "text/plain")))
        #expect(serializer.accepts(ResponseFixtures.response("x", contentType: "text/csv; charset=utf-8")))
        #expect(!serializer.accepts(ResponseFixtures.response("x", contentType: "application/json")))
        #expect(!serializer.accepts(ResponseFixtures.response("x")))
    }
}
