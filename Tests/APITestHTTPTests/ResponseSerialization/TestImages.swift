import Foundation

/// Small real images built byte by byte from their specifications.
enum TestImages {
    // MARK: - PNG

    /// A complete RGB PNG: IHDR, one IDAT holding a zlib stream of stored (uncompressed) deflate blocks, IEND.
    static func png(width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]
        appendChunk("IHDR", header, to: &out)
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += [UInt8(x & 0xFF), UInt8(y & 0xFF), 0x80] }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let end = min(offset + 65535, raw.count)
            let length = UInt16(end - offset)
            zlib.append(end == raw.count ? 1 : 0)
            zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            zlib += raw[offset..<end]
            offset = end
        } while offset < raw.count
        zlib.appendBigEndian(adler32(raw))
        appendChunk("IDAT", zlib, to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        out.appendBigEndian(UInt32(data.count))
        let typeAndData = Array(type.utf8) + data
        out += typeAndData
        out.appendBigEndian(crc32(typeAndData))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    // MARK: - JPEG

    /// A baseline JPEG's headers: SOI, APP0 (JFIF), an APP1 with filler, DQT, SOF0 (or SOF2), DHT, SOS, EOI.
    /// The decoder reads only up to the frame header, so no entropy-coded data is needed.
    static func jpeg(width: Int, height: Int, progressive: Bool = false) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let exif = Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0xC0, count: 40) // 0xC0 bytes inside a segment
        out += [0xFF, 0xE1] + bigEndian16(exif.count + 2) + exif
        out += [0xFF, 0xFF] // a fill byte before the next marker
        out += [0xFF, 0xDB] + bigEndian16(67) + [0] + [UInt8](repeating: 1, count: 64)
        out +=
            [0xFF, progressive ? 0xC2 : 0xC0] + bigEndian16(11) + [8] + bigEndian16(height) + bigEndian16(width)
            + [1, 1, 0x11, 0]
        out += [0xFF, 0xC4] + bigEndian16(20) + [0x00] + [1] + [UInt8](repeating: 0, count: 15) + [0]
        out += [0xFF, 0xDA] + bigEndian16(8) + [1, 1, 0, 0, 0x3F, 0] + [0x00]
        out += [0xFF, 0xD9]
        return out
    }

    // MARK: - GIF

    /// A 1-bit GIF89a: header, logical screen, a two-colour table, one image of LZW data, trailer.
    static func gif(width: Int, height: Int) -> [UInt8] {
        var out = Array("GIF89a".utf8)
        out += littleEndian16(width) + littleEndian16(height) + [0x80, 0, 0]
        out += [0, 0, 0, 0xFF, 0xFF, 0xFF]
        out += [0x2C, 0, 0, 0, 0] + littleEndian16(width) + littleEndian16(height) + [0]
        out += [2, 2, 0x4C, 0x01, 0] // a tiny LZW stream (its content is not read)
        out += [0x3B]
        return out
    }

    // MARK: - WebP

    static func webpLossy(width: Int, height: Int) -> [UInt8] {
        var frame: [UInt8] = [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A]
        frame += littleEndian16(width & 0x3FFF) + littleEndian16(height & 0x3FFF)
        frame += [UInt8](repeating: 0, count: 10)
        return riff(chunk: "VP8 ", frame)
    }

    static func webpLossless(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14 | 1 << 28 // alpha flag, version 0
        var data: [UInt8] = [0x2F]
        data += [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
        data += [0, 0, 0]
        return riff(chunk: "VP8L", data)
    }

    static func webpExtended(width: Int, height: Int) -> [UInt8] {
        var data: [UInt8] = [0x10, 0, 0, 0]
        data += littleEndian24(width - 1) + littleEndian24(height - 1)
        return riff(chunk: "VP8X", data)
    }

    private static func riff(chunk: String, _ data: [UInt8]) -> [UInt8] {
        var body = Array("WEBP".utf8) + Array(chunk.utf8) + littleEndian32(UInt32(data.count)) + data
        if data.count % 2 == 1 { body.append(0) }
        return Array("RIFF".utf8) + littleEndian32(UInt32(body.count)) + body
    }

    // MARK: - BMP

    /// A 24-bit BMP with a BITMAPINFOHEADER; a negative `height` makes it top-down.
    static func bmp(width: Int, height: Int) -> [UInt8] {
        let rowSize = (width * 3 + 3) / 4 * 4
        let pixels = rowSize * abs(height)
        var out = Array("BM".utf8) + littleEndian32(UInt32(54 + pixels)) + [0, 0, 0, 0] + littleEndian32(54)
        out +=
            littleEndian32(40) + littleEndian32(UInt32(bitPattern: Int32(width)))
            + littleEndian32(UInt32(bitPattern: Int32(height)))
        out += littleEndian16(1) + littleEndian16(24) + littleEndian32(0) + littleEndian32(UInt32(pixels))
        out += littleEndian32(2835) + littleEndian32(2835) + littleEndian32(0) + littleEndian32(0)
        out += [UInt8](repeating: 0x7F, count: pixels)
        return out
    }

    /// An OS/2 BMP with the 12-byte BITMAPCOREHEADER (16-bit sizes).
    static func bmpCore(width: Int, height: Int) -> [UInt8] {
        var out = Array("BM".utf8) + littleEndian32(26) + [0, 0, 0, 0] + littleEndian32(26)
        out +=
            littleEndian32(12) + littleEndian16(width) + littleEndian16(height) + littleEndian16(1)
            + littleEndian16(24)
        return out
    }

    // MARK: - Bytes

    static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func littleEndian16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }
    static func littleEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }
}
