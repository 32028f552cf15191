import CTLSShim
public import Foundation

/// Digests of response bodies, computed by OpenSSL: lower-case hex, as `sha256sum` and `md5sum` print them.
public enum BodyDigest {
    /// The digests apitest computes.
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case sha256
        case md5
    }

    /// The SHA-256 of `data`.
    public static func sha256(_ data: Data) -> String { hex(digest("sha256", data)) }

    /// The MD5 of `data` (for checksums APIs publish, not for security).
    public static func md5(_ data: Data) -> String { hex(digest("md5", data)) }

    /// The digest `algorithm` of `data`.
    public static func digest(_ algorithm: Algorithm, of data: Data) -> String {
        hex(digest(algorithm.rawValue, data))
    }

    private static func digest(_ name: String, _ data: Data) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        let size = data.withUnsafeBytes { bytes in
            apitest_digest(name, bytes.baseAddress, bytes.count, &out)
        }
        return Array(out.prefix(Int(size)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
