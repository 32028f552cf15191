import Foundation

/// A public-key pin in curl's format: `sha256//` followed by the base64 SHA-256 of a DER SubjectPublicKeyInfo,
/// parsed once where it is read (a suite's `pins:`, `--pin`).
///
/// The same value as `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256
/// -binary | base64`, and as curl's `--pinnedpubkey`, OkHttp's and TrustKit's pins.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// What every pin starts with.
    public static let prefix = "sha256//"

    /// The 32 bytes of the SHA-256.
    public let sha256: [UInt8]

    /// Parses `sha256//<base64 of 32 bytes>` (surrounding spaces ignored); throws the problem with the text.
    public init(_ text: String) throws(SecurityProblem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix(Self.prefix) else { throw SecurityProblem(.notAPin(text)) }
        guard let bytes = Data(base64Encoded: String(trimmed.dropFirst(Self.prefix.count))) else {
            throw SecurityProblem(.pinNotBase64(text))
        }
        guard bytes.count == 32 else { throw SecurityProblem(.pinLength(text, bytes: bytes.count)) }
        sha256 = Array(bytes)
    }

    /// The pin of a SHA-256 computed elsewhere (a certificate's key, read by the HTTP layer).
    public init(sha256: [UInt8]) {
        self.sha256 = sha256
    }

    /// The pin as written: `sha256//<base64>`.
    public var description: String { Self.prefix + Data(sha256).base64EncodedString() }
}
