import APITestSupport
import COpenSSL

// MARK: - Digests

/// Digests and HMAC for expression functions, computed by OpenSSL's libcrypto (`EVP_Digest`, `EVP_Q_mac`).
enum Digests {
    /// The digest `algorithm` (`SHA256`, `SHA1`, `MD5`) of `bytes`.
    static func digest(_ algorithm: String, _ bytes: [UInt8]) throws(ExpressionFunctions.Problem) -> [UInt8] {
        guard let md = EVP_get_digestbyname(algorithm) else {
            throw ExpressionFunctions.Problem("OpenSSL does not know the digest \(algorithm)")
        }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, md, nil)
        }
        guard ok == 1 else { throw ExpressionFunctions.Problem("OpenSSL could not compute \(algorithm)") }
        return Array(out.prefix(Int(length)))
    }

    /// HMAC-SHA256 (RFC 2104) of `message` with `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) throws(ExpressionFunctions.Problem) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 0
        // An empty key or message still needs a valid pointer.
        let keyBytes = key.isEmpty ? [0] : key
        let messageBytes = message.isEmpty ? [0] : message
        let result = keyBytes.withUnsafeBytes { keyPointer in
            messageBytes.withUnsafeBufferPointer { messagePointer in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyPointer.baseAddress, key.count, messagePointer.baseAddress,
                    message.count, &out, out.count, &length)
            }
        }
        guard result != nil, length == 32 else { throw ExpressionFunctions.Problem("OpenSSL could not compute HMAC") }
        return out
    }
}
