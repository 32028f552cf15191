import Hummingbird

// MARK: - StreamingEndpoints

/// Endpoints that stream in constant memory: `/bytes`, `/stream-bytes`, `/drip` and `/sink`.
enum StreamingEndpoints {
    /// Largest `/bytes/{n}` and `/stream-bytes/{n}` (4 GiB).
    static let maximumBytes = 4 << 30
    /// Size of the chunks `/bytes` writes.
    static let chunkSize = 64 << 10

    static func routes() -> [Route] {
        [
            Route(["GET"], "/bytes/{n}") { request in
                let count = try request.intParameter("n", in: 0...maximumBytes)
                let seed = try seed(request)
                let body = ResponseBody(contentLength: count) { writer in
                    try await writeRandom(count: count, seed: seed, chunkSize: chunkSize, to: &writer)
                    try await writer.finish(nil)
                }
                return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
            },
            Route(["GET"], "/stream-bytes/{n}") { request in
                let count = try request.intParameter("n", in: 0...maximumBytes)
                let seed = try seed(request)
                let chunk = try request.intQuery("chunk_size", default: chunkSize, in: 1...(1 << 20))
                let body = ResponseBody(contentLength: nil) { writer in
                    try await writeRandom(count: count, seed: seed, chunkSize: chunk, to: &writer)
                    try await writer.finish(nil)
                }
                return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
            },
            Route(["GET"], "/drip") { request in try await drip(request) },
            Route(["POST", "PUT"], "/sink") { request in
                await request.continueIfExpected()
                var total = 0
                for try await chunk in request.request.body { total += chunk.readableBytes }
                return Reply.json(["bytes": .int(total)])
            },
        ]
    }

    private static func seed(_ request: DemoRequest) throws(DemoError) -> UInt64 {
        guard let text = request.query("seed") else { return 42 }
        guard let seed = UInt64(text) else { throw .badRequest("seed must be an unsigned 64-bit integer") }
        return seed
    }

    private static func writeRandom(
        count: Int, seed: UInt64, chunkSize: Int, to writer: inout any ResponseBodyWriter
    ) async throws {
        var generator = PseudoRandomBytes(seed: seed)
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, chunkSize)
            try await writer.write(generator.next(size))
            remaining -= size
        }
    }

    // MARK: - Drip

    /// Waits `delay` ms before answering at all (so it delays the response head too), then sends `numbytes`
    /// asterisks, the first at once and the last `duration` ms later, each written and flushed on its own.
    private static func drip(_ request: DemoRequest) async throws -> Response {
        let count = try request.intQuery("numbytes", default: 10, in: 0...(1 << 20))
        let duration = try request.intQuery("duration", default: 2000, in: 0...60000)
        let delay = try request.intQuery("delay", default: 0, in: 0...60000)
        try await Task.sleep(for: .milliseconds(delay))
        let body = ResponseBody(contentLength: count) { writer in
            let clock = ContinuousClock()
            let start = clock.now
            let star = ByteBuffer(bytes: [UInt8(ascii: "*")])
            for index in 0..<count {
                if index > 0, count > 1 {
                    let offset = Duration.milliseconds(duration) * index / (count - 1)
                    try await Task.sleep(until: start + offset, clock: clock)
                }
                try await writer.write(star)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
    }
}

// MARK: - PseudoRandomBytes

/// Deterministic bytes: the little-endian outputs of SplitMix64 from a seed, so `/bytes/{n}?seed=s` is always the
/// same n bytes and a shorter response is a prefix of a longer one.
struct PseudoRandomBytes {
    private var state: UInt64
    private var pending: [UInt8] = []

    init(seed: UInt64) { state = seed }

    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next `count` bytes of the stream.
    mutating func next(_ count: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            var offset = 0
            while offset < count, !pending.isEmpty {
                raw[offset] = pending.removeFirst()
                offset += 1
            }
            while count - offset >= 8 {
                raw.storeBytes(of: nextWord().littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            if offset < count {
                let word = nextWord()
                var bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> (UInt64($0) * 8)) }
                while offset < count {
                    raw[offset] = bytes.removeFirst()
                    offset += 1
                }
                pending = bytes
            }
            return count
        }
        return buffer
    }
}
