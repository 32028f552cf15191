import COpenSSL

/// SHA-256, for the `sha256` check an import writes for a recorded binary message, computed by OpenSSL's libcrypto
/// (`EVP_Digest`), as every other digest apitest computes.
enum SHA256Digest {
    /// The digest of `bytes` as lower-case hex; nil if libcrypto cannot compute it.
    static func hex(_ bytes: [UInt8]) -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // An empty input still needs a valid pointer.
        let input = bytes.isEmpty ? [0] : bytes
        let ok = input.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1, length == 32 else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest.prefix(32) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
