// Generated images for /image/png and /image/gif.

// MARK: - ImageEncoder

/// Builds small, valid PNG and GIF images of a requested size.
enum ImageEncoder {
    /// Largest width or height accepted.
    static let maximumDimension = 4096

    // MARK: - PNG

    /// An 8-bit RGB PNG with a colour gradient: red grows left to right, green top to bottom.
    static func png(width: Int, height: Int) throws(Zlib.Failure) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0]) // bit depth 8, colour type RGB, deflate, filter 0, no interlace
        appendChunk("IHDR", header, to: &out)

        let deflater = try Deflater(format: .zlib)
        var compressed: [UInt8] = []
        var row = [UInt8](repeating: 0, count: 1 + width * 3)
        let xScale = max(width - 1, 1)
        let yScale = max(height - 1, 1)
        for y in 0..<height {
            let green = UInt8(y * 255 / yScale)
            row.withUnsafeMutableBufferPointer { buffer in
                buffer[0] = 0 // filter type None
                for x in 0..<width {
                    buffer[1 + x * 3] = UInt8(x * 255 / xScale)
                    buffer[2 + x * 3] = green
                    buffer[3 + x * 3] = ((x / 16 + y / 16) % 2 == 0) ? 96 : 160
                }
            }
            compressed.append(contentsOf: try deflater.feed(row))
        }
        compressed.append(contentsOf: try deflater.finish())
        var offset = 0
        repeat {
            let end = min(offset + 256 * 1024, compressed.count)
            appendChunk("IDAT", Array(compressed[offset..<end]), to: &out)
            offset = end
        } while offset < compressed.count
        appendChunk("IEND", [], to: &out)
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out.appendBigEndian(UInt32(data.count))
        out.append(contentsOf: typeBytes)
        out.append(contentsOf: data)
        let crc = Zlib.crc32(data, continuing: Zlib.crc32(typeBytes))
        out.appendBigEndian(crc)
    }

    // MARK: - GIF

    /// A GIF89a with a four-colour palette and a checkerboard, LZW-coded without compression (a clear code every
    /// two pixels keeps every code 3 bits wide).
    static func gif(width: Int, height: Int) -> [UInt8] {
        var out = Array("GIF89a".utf8)
        out.appendLittleEndian(UInt16(width))
        out.appendLittleEndian(UInt16(height))
        out.append(contentsOf: [0x91, 0, 0]) // global colour table of 4 entries, background 0, no aspect ratio
        out.append(contentsOf: [
            0xFF, 0xFF, 0xFF, // white
            0xE0, 0x40, 0x20, // orange
            0x20, 0x60, 0xC0, // blue
            0x00, 0x00, 0x00, // black
        ])
        out.append(0x2C) // image descriptor
        out.appendLittleEndian(UInt16(0))
        out.appendLittleEndian(UInt16(0))
        out.appendLittleEndian(UInt16(width))
        out.appendLittleEndian(UInt16(height))
        out.append(0) // no local colour table, not interlaced
        out.append(2) // LZW minimum code size

        let clearCode: UInt32 = 4
        let endCode: UInt32 = 5
        var writer = BitWriter()
        writer.write(clearCode, bits: 3)
        var sinceClear = 0
        for y in 0..<height {
            for x in 0..<width {
                if sinceClear == 2 {
                    writer.write(clearCode, bits: 3)
                    sinceClear = 0
                }
                writer.write((x / 8 + y / 8) % 2 == 0 ? 1 : 2, bits: 3)
                sinceClear += 1
            }
        }
        writer.write(endCode, bits: 3)
        let data = writer.finish()
        var offset = 0
        while offset < data.count {
            let end = min(offset + 255, data.count)
            out.append(UInt8(end - offset))
            out.append(contentsOf: data[offset..<end])
            offset = end
        }
        out.append(0) // block terminator
        out.append(0x3B) // trailer
        return out
    }

    /// Packs variable-width codes least significant bit first, as GIF's LZW wants.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var accumulator: UInt32 = 0
        private var count: UInt32 = 0

        mutating func write(_ code: UInt32, bits: UInt32) {
            accumulator |= code << count
            count += bits
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                count -= 8
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator)) }
            return bytes
        }
    }
}

// MARK: - Byte order helpers

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ])
    }

    mutating func appendLittleEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)])
    }
}
