import CTLSShim
import Foundation

/// A public-key pin in curl's format: `sha256//` followed by the base64 SHA-256 of a DER SubjectPublicKeyInfo.
///
/// The same value as `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256
/// -binary | base64`, and as curl's `--pinnedpubkey`, OkHttp's and TrustKit's pins.
public struct PinnedKey: Sendable, Hashable, CustomStringConvertible {
    public static let prefix = "sha256//"

    /// The 32 bytes of the SHA-256.
    public let sha256: [UInt8]

    /// Parses `sha256//<base64>`; throws with the reason when the text is not a pin.
    public init(_ text: String) throws(SecurityPolicyError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix(Self.prefix) else {
            throw SecurityPolicyError("'\(text)' is not a pin; pins look like sha256//<base64 of 32 bytes>")
        }
        let encoded = String(trimmed.dropFirst(Self.prefix.count))
        guard let bytes = Data(base64Encoded: encoded) else {
            throw SecurityPolicyError("the pin '\(text)' is not valid base64")
        }
        guard bytes.count == 32 else {
            throw SecurityPolicyError(
                "the pin '\(text)' holds \(bytes.count) bytes; a SHA-256 pin holds 32 (44 base64 characters)")
        }
        sha256 = Array(bytes)
    }

    init(sha256: [UInt8]) {
        self.sha256 = sha256
    }

    /// The pin of the public key in a PEM or DER public-key file.
    public static func ofPublicKey(contentsOf path: String) throws(SecurityPolicyError) -> PinnedKey {
        var digest = [UInt8](repeating: 0, count: 32)
        guard apitest_spki_sha256_of_public_key_file(path, &digest) != 0 else {
            throw SecurityPolicyError("cannot read a public key from '\(path)'")
        }
        return PinnedKey(sha256: digest)
    }

    public var description: String { Self.prefix + Data(sha256).base64EncodedString() }
}
