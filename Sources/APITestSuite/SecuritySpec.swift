import APITestSupport

/// A suite's `security:` block: how the servers' certificate chains are trusted and pinned (AFSecurityPolicy's
/// knobs, pins in curl's format). File paths are absolute (resolved against the suite's directory).
public struct SecuritySpec: Sendable, Hashable {
    /// What must match for a chain to be trusted.
    public enum Pinning: String, Sendable, Hashable, CaseIterable {
        case none, publicKey, certificate
    }

    public var pinning: Pinning
    /// Public-key pins, `sha256//<base64>`, checked to be 32-byte SHA-256 values.
    public var pins: [String]
    /// PEM (several certificates allowed) or DER files.
    public var certificates: [String]
    public var allowInvalidCertificates: Bool
    public var validatesDomainName: Bool
    public var caFile: String?
    public var clientCertificate: String?
    public var clientKey: String?
    /// The hosts the pins apply to; empty: the host of every request of the suite (never a redirect's).
    public var hosts: [String]
    /// Where the `security` key is.
    public var location: SourceLocation

    public init(
        pinning: Pinning = .none, pins: [String] = [], certificates: [String] = [],
        allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true, caFile: String? = nil,
        clientCertificate: String? = nil, clientKey: String? = nil, hosts: [String] = [],
        location: SourceLocation
    ) {
        self.pinning = pinning
        self.pins = pins
        self.certificates = certificates
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.hosts = hosts
        self.location = location
    }
}
