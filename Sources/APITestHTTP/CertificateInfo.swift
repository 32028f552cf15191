public import APITestSecurity
import CTLSShim
public import Foundation

/// The facts of one X.509 certificate: names, validity, fingerprints and the public-key pin.
public struct CertificateInfo: Sendable, Hashable {
    /// The subject as a one-line RFC 2253 string (`CN=localhost,O=Example`).
    public var subject: String
    /// The issuer, in the same form as `subject`.
    public var issuer: String
    public var notBefore: Date
    public var notAfter: Date
    /// The serial number in upper-case hex.
    public var serialNumber: String
    /// Subject alternative names (`DNS:localhost`, `IP:127.0.0.1`).
    public var subjectAlternativeNames: [String]
    /// The SHA-256 of the DER certificate as colon-separated upper-case hex (`AB:CD:...`), as `openssl x509
    /// -fingerprint -sha256` prints it.
    public var sha256Fingerprint: String
    /// The pin of the certificate's public key: the SHA-256 of its DER SubjectPublicKeyInfo, as OpenSSL computed it.
    public var publicKey: PublicKeyPin

    /// The facts of one certificate.
    public init(
        subject: String, issuer: String, notBefore: Date, notAfter: Date, serialNumber: String,
        subjectAlternativeNames: [String], sha256Fingerprint: String, publicKey: PublicKeyPin
    ) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.serialNumber = serialNumber
        self.subjectAlternativeNames = subjectAlternativeNames
        self.sha256Fingerprint = sha256Fingerprint
        self.publicKey = publicKey
    }

    /// The curl-format pin of the certificate's public key, as text: `sha256//` + base64 of the SHA-256 of its DER
    /// SubjectPublicKeyInfo (for reports; ``publicKey`` is the value).
    public var publicKeyPin: String { publicKey.description }

    /// Whether the certificate names itself as its issuer.
    public var isSelfIssued: Bool { subject == issuer }

    /// Whole days from `date` until `notAfter` (negative once expired).
    public func daysLeft(from date: Date = Date()) -> Int {
        Int((notAfter.timeIntervalSince(date) / 86_400).rounded(.down))
    }
}

// MARK: - Reading certificates with OpenSSL

extension CertificateInfo {
    /// Every certificate of a PEM file (several allowed) or a DER file, in file order.
    public static func load(contentsOf path: String) throws(SecurityPolicyError) -> [CertificateInfo] {
        try PinnedCertificate.load(contentsOf: path).map(\.info)
    }
}
