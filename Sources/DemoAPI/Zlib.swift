import CZlib

// MARK: - Zlib

/// Compression with zlib: gzip and zlib streams, plus CRC-32.
enum Zlib {
    /// The container zlib wraps deflate data in.
    enum Format {
        /// RFC 1952 gzip (windowBits 31).
        case gzip
        /// RFC 1950 zlib (windowBits 15), what HTTP calls `deflate`.
        case zlib

        var windowBits: Int32 {
            switch self {
            case .gzip: 31
            case .zlib: 15
            }
        }
    }

    /// A zlib failure, with zlib's return code.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "zlib error \(code)" }
    }

    /// Compresses `input` in one go.
    static func compress(_ input: [UInt8], format: Format, level: Int32 = 6) throws(Failure) -> [UInt8] {
        let deflater = try Deflater(format: format, level: level)
        var output = try deflater.feed(input)
        output.append(contentsOf: try deflater.finish())
        return output
    }

    /// CRC-32 (the one PNG and gzip use) of `bytes`, continuing from `crc`.
    static func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(UInt(crc), buffer.baseAddress, UInt32(buffer.count)))
        }
    }
}

// MARK: - Deflater

/// A streaming deflate compressor owning one `z_stream`.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var finished = false

    /// Opens a compressor with `deflateInit2`.
    init(format: Zlib.Format, level: Int32 = 6) throws(Zlib.Failure) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = deflateInit2_(
            stream, level, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size)
        )
        guard code == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Zlib.Failure(code: code)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses more input; returns whatever output zlib produced so far.
    func feed(_ input: [UInt8]) throws(Zlib.Failure) -> [UInt8] {
        try run(input, flush: Z_NO_FLUSH)
    }

    /// Flushes the remaining output and ends the stream.
    func finish() throws(Zlib.Failure) -> [UInt8] {
        guard !finished else { return [] }
        finished = true
        return try run([], flush: Z_FINISH)
    }

    private func run(_ input: [UInt8], flush: Int32) throws(Zlib.Failure) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var failure: Int32?
        input.withUnsafeBufferPointer { inputBuffer in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
            stream.pointee.avail_in = UInt32(inputBuffer.count)
            chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                while true {
                    stream.pointee.next_out = chunkBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(chunkBuffer.count)
                    let code = deflate(stream, flush)
                    if code != Z_OK && code != Z_STREAM_END && code != Z_BUF_ERROR {
                        failure = code
                        break
                    }
                    let produced = chunkBuffer.count - Int(stream.pointee.avail_out)
                    output.append(contentsOf: chunkBuffer[0..<produced])
                    if code == Z_STREAM_END { break }
                    if flush == Z_NO_FLUSH && stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { break }
                    if code == Z_BUF_ERROR && produced == 0 { break }
                }
            }
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        if let failure { throw Zlib.Failure(code: failure) }
        return output
    }
}
