/// Parsers for the headers of PNG, JPEG, GIF, WebP and BMP images: just enough to read width and height.
enum ImageHeaderParser {
    struct Failure: Error {
        var reason: String
        var offset: Int?
    }

    enum Format: String {
        case png, jpeg, gif, webp, bmp
    }

    /// The format whose signature starts `bytes`, if any. With `strict`, used to claim bodies without an image
    /// content type, BMP's two-letter signature also needs a known DIB header size, so that text starting with
    /// "BM" is not taken for an image.
    static func sniff(_ bytes: some Collection<UInt8>, strict: Bool = false) -> Format? {
        let head = Array(bytes.prefix(18))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        if head.starts(with: Array("BM".utf8)) {
            guard strict else { return .bmp }
            guard head.count >= 18, head[6..<10].allSatisfy({ $0 == 0 }) else { return nil }
            let headerSize = UInt32(head[14]) | UInt32(head[15]) << 8 | UInt32(head[16]) << 16 | UInt32(head[17]) << 24
            return [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) ? .bmp : nil
        }
        return nil
    }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> ImageInfo {
        guard let format = sniff(bytes) else {
            if bytes.isEmpty { throw Failure(reason: "the body is empty, not an image", offset: 0) }
            throw Failure(
                reason: "no PNG, JPEG, GIF, WebP or BMP signature at the start of the body (first bytes "
                    + bytes.prefix(8).map { TextDecoding.hex($0) }.joined(separator: " ") + ")",
                offset: 0)
        }
        let reader = ByteReader(bytes: bytes, format: format)
        switch format {
        case .png: return try png(reader)
        case .jpeg: return try jpeg(reader)
        case .gif: return try gif(reader)
        case .webp: return try webp(reader)
        case .bmp: return try bmp(reader)
        }
    }

    // MARK: - PNG

    /// PNG: the signature, then the IHDR chunk (length, type, width and height as 32-bit big-endian).
    private static func png(_ reader: ByteReader) throws(Failure) -> ImageInfo {
        try reader.need(24, for: "the IHDR chunk")
        guard reader.bytes[12..<16].elementsEqual("IHDR".utf8) else {
            throw Failure(reason: "PNG: the first chunk is not IHDR", offset: 12)
        }
        let width = Int(reader.uint32BE(at: 16))
        let height = Int(reader.uint32BE(at: 20))
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw Failure(reason: "PNG: invalid IHDR size \(width)x\(height)", offset: width > 0 ? 20 : 16)
        }
        return ImageInfo(format: "png", width: width, height: height)
    }

    // MARK: - JPEG

    /// JPEG: walks the marker segments after SOI (skipping APPn, DQT, DHT, ...) to the first SOFn frame header.
    private static func jpeg(_ reader: ByteReader) throws(Failure) -> ImageInfo {
        var index = 2
        let bytes = reader.bytes
        while true {
            try reader.need(index + 2, for: "a marker")
            guard bytes[index] == 0xFF else {
                throw Failure(
                    reason: "JPEG: expected a marker, found byte 0x\(TextDecoding.hex(bytes[index]))", offset: index)
            }
            // Fill bytes: any number of 0xFF before the marker code.
            var codeIndex = index + 1
            while codeIndex < bytes.count, bytes[codeIndex] == 0xFF { codeIndex += 1 }
            try reader.need(codeIndex + 1, for: "a marker")
            let marker = bytes[codeIndex]
            index = codeIndex + 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue // standalone markers: no length
            case 0xD9:
                throw Failure(reason: "JPEG: end of image before a frame header (SOFn)", offset: codeIndex - 1)
            case 0xDA:
                throw Failure(reason: "JPEG: scan data before a frame header (SOFn)", offset: codeIndex - 1)
            default:
                break
            }
            try reader.need(index + 2, for: "the length of marker 0xFF\(TextDecoding.hex(marker))")
            let length = Int(reader.uint16BE(at: index))
            guard length >= 2 else {
                throw Failure(reason: "JPEG: invalid segment length \(length)", offset: index)
            }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrameHeader {
                try reader.need(index + 7, for: "the frame header (SOF\(marker - 0xC0))")
                let height = Int(reader.uint16BE(at: index + 3))
                let width = Int(reader.uint16BE(at: index + 5))
                guard width > 0 else { throw Failure(reason: "JPEG: frame width 0", offset: index + 5) }
                return ImageInfo(format: "jpeg", width: width, height: height)
            }
            index += length
        }
    }

    // MARK: - GIF

    /// GIF: the logical screen descriptor after the signature (16-bit little-endian width and height).
    private static func gif(_ reader: ByteReader) throws(Failure) -> ImageInfo {
        try reader.need(10, for: "the logical screen descriptor")
        return ImageInfo(format: "gif", width: Int(reader.uint16LE(at: 6)), height: Int(reader.uint16LE(at: 8)))
    }

    // MARK: - WebP

    /// WebP: RIFF container, then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
    private static func webp(_ reader: ByteReader) throws(Failure) -> ImageInfo {
        try reader.need(16, for: "the first chunk header")
        let bytes = reader.bytes
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            try reader.need(30, for: "the VP8 frame header")
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else {
                throw Failure(reason: "WebP: VP8 start code 9D 01 2A missing", offset: 23)
            }
            let width = Int(reader.uint16LE(at: 26) & 0x3FFF)
            let height = Int(reader.uint16LE(at: 28) & 0x3FFF)
            return ImageInfo(format: "webp", width: width, height: height)
        case "VP8L":
            try reader.need(25, for: "the VP8L header")
            guard bytes[20] == 0x2F else { throw Failure(reason: "WebP: VP8L signature 0x2F missing", offset: 20) }
            let bits = reader.uint32LE(at: 21)
            return ImageInfo(
                format: "webp", width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            try reader.need(30, for: "the VP8X header")
            let width = Int(reader.uint24LE(at: 24)) + 1
            let height = Int(reader.uint24LE(at: 27)) + 1
            return ImageInfo(format: "webp", width: width, height: height)
        default:
            throw Failure(reason: "WebP: unknown first chunk '\(chunk)' (expected VP8, VP8L or VP8X)", offset: 12)
        }
    }

    // MARK: - BMP

    /// BMP: the DIB header after the 14-byte file header; 16-bit sizes in OS/2 BITMAPCOREHEADER, else signed 32-bit
    /// (a negative height marks a top-down bitmap).
    private static func bmp(_ reader: ByteReader) throws(Failure) -> ImageInfo {
        try reader.need(18, for: "the DIB header size")
        let headerSize = reader.uint32LE(at: 14)
        if headerSize == 12 {
            try reader.need(22, for: "the BITMAPCOREHEADER")
            return ImageInfo(format: "bmp", width: Int(reader.uint16LE(at: 18)), height: Int(reader.uint16LE(at: 20)))
        }
        guard headerSize >= 40 else {
            throw Failure(reason: "BMP: unknown DIB header size \(headerSize)", offset: 14)
        }
        try reader.need(26, for: "the BITMAPINFOHEADER")
        let width = Int(Int32(bitPattern: reader.uint32LE(at: 18)))
        let height = Int(Int32(bitPattern: reader.uint32LE(at: 22)))
        guard width > 0 else { throw Failure(reason: "BMP: invalid width \(width)", offset: 18) }
        guard height != Int(Int32.min) else { throw Failure(reason: "BMP: invalid height \(height)", offset: 22) }
        return ImageInfo(format: "bmp", width: width, height: abs(height))
    }

    // MARK: - ByteReader

    struct ByteReader {
        let bytes: [UInt8]
        let format: Format

        /// Throws a truncation error unless the body has at least `count` bytes.
        func need(_ count: Int, for what: String) throws(Failure) {
            guard bytes.count < count else { return }
            throw Failure(
                reason: "truncated \(format.rawValue.uppercased()) header: \(what) needs \(count) bytes, the body has "
                    + "\(bytes.count)",
                offset: bytes.count)
        }

        func uint16BE(at offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }
        func uint16LE(at offset: Int) -> UInt16 { UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset]) }
        func uint24LE(at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        }
        func uint32BE(at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                | UInt32(bytes[offset + 3])
        }
        func uint32LE(at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
    }
}
