/// How a server's certificate chain is trusted and pinned, as the user wrote it: a suite's `security:` block, or
/// that block with the run's TLS flags laid over it (``SecurityOverrides``). Pins are parsed; certificate files are
/// paths (absolute), read only when the HTTP layer builds its policy from these settings.
public struct SecuritySettings: Sendable, Hashable {
    /// What must match for a chain to be trusted.
    public var pinning: PinningMode
    /// Public-key pins; any certificate of the chain may match.
    public var pins: [PublicKeyPin]
    /// Pinned certificate files, PEM (several certificates allowed) or DER.
    public var certificates: [String]
    /// Accept chains that fail verification; never disables a pin, nor the host-name check while
    /// `validatesDomainName` is on.
    public var allowInvalidCertificates: Bool
    /// Check that the certificate is valid for the host name of the URL.
    public var validatesDomainName: Bool
    /// A PEM bundle of trust anchors to use instead of the system's.
    public var caFile: String?
    /// A client certificate (PEM) for mutual TLS.
    public var clientCertificate: String?
    /// The client certificate's key (PEM).
    public var clientKey: String?
    /// The hosts the pins apply to (lowercase); empty: the host of every request (never a redirect's).
    public var hosts: [String]

    /// Settings with the given values; the defaults are full verification with nothing pinned.
    public init(
        pinning: PinningMode = .none, pins: [PublicKeyPin] = [], certificates: [String] = [],
        allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true, caFile: String? = nil,
        clientCertificate: String? = nil, clientKey: String? = nil, hosts: [String] = []
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
    }

    /// What the combination rules see of these settings: each certificate file counts as one pinned key.
    public var facts: SecurityFacts {
        SecurityFacts(
            pinning: pinning, pins: pins.count, certificates: certificates.count,
            pinnedKeys: pins.count + certificates.count, allowInvalidCertificates: allowInvalidCertificates,
            validatesDomainName: validatesDomainName, hasClientCertificate: clientCertificate != nil,
            hasClientKey: clientKey != nil)
    }

    /// The problems of these settings under the combination rules (``SecurityFacts/problems``), errors and
    /// warnings.
    public var problems: [SecurityProblem] { facts.problems }
}
