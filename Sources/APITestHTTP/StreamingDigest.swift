import CTLSShim

/// A digest fed piece by piece as a body streams in, so that a body of any size is hashed in constant memory.
/// Not thread-safe: one transfer's delegate owns it on the event-loop thread.
final class StreamingDigest {
    let algorithm: BodyDigest.Algorithm
    private var context: OpaquePointer?

    /// `nil` when OpenSSL cannot start the digest (it does not know it, or memory ran out).
    init?(_ algorithm: BodyDigest.Algorithm) {
        guard let context = apitest_digest_begin(algorithm.rawValue) else { return nil }
        self.algorithm = algorithm
        self.context = context
    }

    deinit {
        apitest_digest_free(context)
    }

    /// Adds bytes; false when OpenSSL failed (the digest is then unusable).
    func update(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let context else { return false }
        return apitest_digest_update(context, bytes.baseAddress, bytes.count) == 1
    }

    /// The lower-case hex digest of everything added; `nil` on failure. Call once.
    func finish() -> String? {
        guard let context else { return nil }
        var out = [UInt8](repeating: 0, count: 64)
        let size = apitest_digest_finish(context, &out)
        apitest_digest_free(context)
        self.context = nil
        return size == 0 ? nil : BodyDigest.hex(Array(out.prefix(Int(size))))
    }
}
