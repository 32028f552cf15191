// SHA-256 (FIPS 180-4), written out because the demo server depends on nothing but Hummingbird and zlib.

// MARK: - SHA256

/// Incremental SHA-256 hasher.
struct SHA256 {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The round constants, copied once into memory that can be read without bounds checks.
    nonisolated(unsafe) private static let roundConstants: UnsafeMutablePointer<UInt32> = {
        let pointer = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        pointer.initialize(from: k, count: 64)
        return pointer
    }()

    private var pending: [UInt8] = []
    private var totalLength: UInt64 = 0

    init() { pending.reserveCapacity(64) }

    /// Hex digest of `bytes` in one call.
    static func hexDigest<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// Feeds more input.
    mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        totalLength &+= UInt64(bytes.count)
        let handled: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            self.absorb(UnsafeRawBufferPointer(buffer))
            return true
        }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { absorb($0) }
        }
    }

    /// Finishes the hash and returns the 32-byte digest.
    mutating func finalize() -> [UInt8] {
        let bitLength = totalLength &* 8
        var padding: [UInt8] = [0x80]
        let used = (pending.count + 1) % 64
        padding.append(contentsOf: repeatElement(0, count: used <= 56 ? 56 - used : 120 - used))
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        padding.withUnsafeBytes { absorb($0) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(contentsOf: [
                UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ])
        }
        return digest
    }

    /// Finishes the hash and returns the digest as lower-case hex.
    mutating func finalizeHex() -> String { Hex.encode(finalize()) }

    // MARK: - Compression

    private mutating func absorb(_ input: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { scheduleBuffer in
            guard let schedule = scheduleBuffer.baseAddress else { return }
            var offset = 0
            if !pending.isEmpty {
                let take = min(64 - pending.count, input.count)
                pending.append(contentsOf: input[0..<take])
                offset = take
                if pending.count == 64 {
                    let block = pending
                    block.withUnsafeBytes { buffer in
                        if let base = buffer.baseAddress { compress(base, schedule: schedule) }
                    }
                    pending.removeAll(keepingCapacity: true)
                }
            }
            guard let base = input.baseAddress else { return }
            while input.count - offset >= 64 {
                compress(base + offset, schedule: schedule)
                offset += 64
            }
            if offset < input.count { pending.append(contentsOf: input[offset...]) }
        }
    }

    private mutating func compress(_ block: UnsafeRawPointer, schedule w: UnsafeMutablePointer<UInt32>) {
        // Written with explicit shifts and raw pointers: the demo is usually a debug build, where helper calls and
        // checked subscripts would dominate the run time.
        let bytes = block.assumingMemoryBound(to: UInt8.self)
        var t = 0
        while t < 16 {
            let p = bytes + t * 4
            w[t] = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
            t += 1
        }
        while t < 64 {
            let x = w[t - 15]
            let y = w[t - 2]
            let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
            let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            t += 1
        }
        var (a, b, c, d, e, f, g, h) = state
        let k = SHA256.roundConstants
        t = 0
        while t < 64 {
            let s1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
            let s0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ s0 &+ maj
            t += 1
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }
}

// MARK: - Hex

/// Lower-case hexadecimal encoding.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lower-case hex text of `bytes`.
    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
