import Foundation
import Testing

@testable import APITestHTTP

@Suite struct ImageResponseSerializerTests {
    func info(_ bytes: [UInt8], contentType: String? = nil) throws -> ImageInfo {
        let decoded = try ImageResponseSerializer().decode(
            ResponseFixtures.response(Data(bytes), contentType: contentType))
        guard case .image(let info) = decoded else {
            throw ResponseSerializationError(decoder: "test", reason: "not an image")
        }
        return info
    }

    @Test func readsEachFormatsHeader() throws {
        #expect(try info(TestImages.png(width: 3, height: 2)) == ImageInfo(format: "png", width: 3, height: 2))
        #expect(
            try info(TestImages.jpeg(width: 640, height: 480)) == ImageInfo(format: "jpeg", width: 640, height: 480))
        #expect(
            try info(TestImages.jpeg(width: 17, height: 4099, progressive: true))
                == ImageInfo(format: "jpeg", width: 17, height: 4099))
        #expect(try info(TestImages.gif(width: 300, height: 7)) == ImageInfo(format: "gif", width: 300, height: 7))
        #expect(
            try info(TestImages.webpLossy(width: 1000, height: 16383))
                == ImageInfo(format: "webp", width: 1000, height: 16383))
        #expect(
            try info(TestImages.webpLossless(width: 1, height: 16384))
                == ImageInfo(format: "webp", width: 1, height: 16384))
        #expect(
            try info(TestImages.webpExtended(width: 70000, height: 5))
                == ImageInfo(format: "webp", width: 70000, height: 5))
        #expect(try info(TestImages.bmp(width: 5, height: 3)) == ImageInfo(format: "bmp", width: 5, height: 3))
        #expect(try info(TestImages.bmp(width: 5, height: -3)) == ImageInfo(format: "bmp", width: 5, height: 3))
        #expect(try info(TestImages.bmpCore(width: 9, height: 8)) == ImageInfo(format: "bmp", width: 9, height: 8))
    }

    @Test func formatComesFromTheBytes() throws {
        // Declared as PNG, but the bytes are a GIF: the header decides.
        #expect(try info(TestImages.gif(width: 2, height: 2), contentType: "image/png").format == "gif")
    }

    @Test func truncatedImagesAreErrors() throws {
        let cases: [(String, [UInt8], Int)] = [
            ("png", TestImages.png(width: 3, height: 2), 20),
            ("jpeg", TestImages.jpeg(width: 3, height: 2), 100),
            ("gif", TestImages.gif(width: 3, height: 2), 8),
            ("webp", TestImages.webpLossy(width: 3, height: 2), 27),
            ("bmp", TestImages.bmp(width: 3, height: 2), 20),
        ]
        for (format, bytes, keep) in cases {
            let error = try #require(
                ResponseFixtures.decodeError(
                    ImageResponseSerializer(),
                    ResponseFixtures.response(Data(bytes.prefix(keep)), contentType: "image/\(format)")),
                "\(format)")
            #expect(error.decoder == "image")
            #expect(error.reason.hasPrefix("truncated \(format.uppercased()) header"), "\(error)")
            #expect(error.byteOffset == keep, "\(format)")
        }
    }

    @Test func notAnImageIsAnError() throws {
        let error = try #require(
            ResponseFixtures.decodeError(
                ImageResponseSerializer(), ResponseFixtures.response("hello world", contentType: "image/png")))
        #expect(error.byteOffset == 0)
        #expect(error.reason.contains("no PNG, JPEG, GIF, WebP or BMP signature"))
        #expect(error.reason.contains("68 65 6C 6C"))

        var scan = TestImages.jpeg(width: 3, height: 2)
        let sof = try #require(
            scan.firstIndex(of: 0xC0).flatMap { _ in
                (0..<scan.count - 1).first { scan[$0] == 0xFF && scan[$0 + 1] == 0xC0 }
            })
        scan.removeSubrange(sof..<(sof + 13)) // drop the frame header
        let noFrame = try #require(
            ResponseFixtures.decodeError(
                ImageResponseSerializer(), ResponseFixtures.response(Data(scan), contentType: "image/jpeg")))
        #expect(noFrame.reason.contains("before a frame header"))
    }

    @Test func malformedHeadersNameTheByte() throws {
        func failure(_ bytes: [UInt8]) throws -> ResponseSerializationError {
            try #require(
                ResponseFixtures.decodeError(
                    ImageResponseSerializer(), ResponseFixtures.response(Data(bytes), contentType: "image/png")))
        }
        var png = TestImages.png(width: 2, height: 2)
        png.replaceSubrange(12..<16, with: Array("IDAT".utf8))
        let notIHDR = try failure(png)
        #expect(notIHDR.byteOffset == 12)
        #expect(notIHDR.reason == "PNG: the first chunk is not IHDR")

        var webp = TestImages.webpLossy(width: 2, height: 2)
        webp.replaceSubrange(12..<16, with: Array("ALPH".utf8))
        let chunk = try failure(webp)
        #expect(chunk.byteOffset == 12)
        #expect(chunk.reason.contains("unknown first chunk 'ALPH'"))

        var bmp = TestImages.bmp(width: 2, height: 2)
        bmp[14] = 20
        let dib = try failure(bmp)
        #expect(dib.byteOffset == 14)
        #expect(dib.reason == "BMP: unknown DIB header size 20")

        // Standalone markers (RST0, TEM) between segments are skipped; bytes that are not a marker are an error.
        let jpeg = TestImages.jpeg(width: 31, height: 9)
        let withStandalone = Array(jpeg[0..<2]) + [0xFF, 0xD0, 0xFF, 0x01] + Array(jpeg[2...])
        #expect(try info(withStandalone) == ImageInfo(format: "jpeg", width: 31, height: 9))
        let garbage = try failure(Array(jpeg[0..<2]) + [0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34])
        #expect(garbage.byteOffset == 8)
        #expect(garbage.reason == "JPEG: expected a marker, found byte 0x12")
    }

    @Test func acceptsImageTypesAndSniffsUntypedBodies() {
        let serializer = ImageResponseSerializer()
        let png = Data(TestImages.png(width: 1, height: 1))
        for type in ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "IMAGE/PNG; q=1"] {
            #expect(serializer.accepts(ResponseFixtures.response(png, contentType: type)), "\(type)")
        }
        #expect(!serializer.accepts(ResponseFixtures.response(png, contentType: "image/svg+xml")))
        #expect(!serializer.accepts(ResponseFixtures.response(png, contentType: "text/plain")))
        #expect(serializer.accepts(ResponseFixtures.response(png)))
        #expect(serializer.accepts(ResponseFixtures.response(png, contentType: "application/octet-stream")))
        #expect(
            !serializer.accepts(ResponseFixtures.response(Data("plain".utf8), contentType: "application/octet-stream")))
    }
}
