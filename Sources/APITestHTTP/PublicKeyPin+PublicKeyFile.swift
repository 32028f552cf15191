public import APITestSecurity
import CTLSShim

/// Pins read from key files: OpenSSL's part of the model's ``PublicKeyPin``.
extension PublicKeyPin {
    /// The pin of the public key in a PEM or DER public-key file.
    public static func ofPublicKey(contentsOf path: String) throws(SecurityPolicyError) -> PublicKeyPin {
        var digest = [UInt8](repeating: 0, count: 32)
        guard apitest_spki_sha256_of_public_key_file(path, &digest) != 0 else {
            throw SecurityPolicyError("cannot read a public key from '\(path)'")
        }
        return PublicKeyPin(sha256: digest)
    }
}
