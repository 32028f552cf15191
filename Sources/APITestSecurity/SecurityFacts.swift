/// What the combination rules of `security` look at: the mode, how much is pinned and the switches. Settings give
/// them before any file is read (``SecuritySettings/facts``); the HTTP layer's policy gives them with the keys of
/// its loaded certificates counted. ``problems`` is the one place the rules are written.
public struct SecurityFacts: Sendable, Hashable {
    /// The pinning mode.
    public var pinning: PinningMode
    /// The public-key pins given.
    public var pins: Int
    /// The pinned certificates (files before loading, certificates after).
    public var certificates: Int
    /// The distinct keys checked in `publicKey` mode: the pins and the pinned certificates' keys.
    public var pinnedKeys: Int
    /// Whether chains that fail verification are accepted.
    public var allowInvalidCertificates: Bool
    /// Whether the host name is checked.
    public var validatesDomainName: Bool
    /// Whether a client certificate is given.
    public var hasClientCertificate: Bool
    /// Whether a client key is given.
    public var hasClientKey: Bool

    /// Facts with every value given.
    public init(
        pinning: PinningMode, pins: Int, certificates: Int, pinnedKeys: Int, allowInvalidCertificates: Bool,
        validatesDomainName: Bool, hasClientCertificate: Bool, hasClientKey: Bool
    ) {
        self.pinning = pinning
        self.pins = pins
        self.certificates = certificates
        self.pinnedKeys = pinnedKeys
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.hasClientCertificate = hasClientCertificate
        self.hasClientKey = hasClientKey
    }

    /// Whether anything is pinned for the mode.
    public var isPinned: Bool {
        switch pinning {
        case .none: false
        case .publicKey: pinnedKeys > 0
        case .certificate: certificates > 0
        }
    }

    /// AFNetworking's rules between the settings and TrustKit's backup-pin warning, in a fixed order: what the mode
    /// needs or ignores, then invalid certificates with domain validation, then the client key; the single-pin
    /// warning last.
    public var problems: [SecurityProblem] {
        var problems: [SecurityProblem] = []
        switch pinning {
        case .none:
            if pins > 0 { problems.append(SecurityProblem(.ignored(.pins, mode: .none))) }
            if certificates > 0 { problems.append(SecurityProblem(.ignored(.certificates, mode: .none))) }
        case .publicKey:
            if pinnedKeys == 0 { problems.append(SecurityProblem(.publicKeyNeedsPins)) }
        case .certificate:
            if certificates == 0 { problems.append(SecurityProblem(.certificateNeedsCertificates)) }
            if pins > 0 { problems.append(SecurityProblem(.ignored(.pins, mode: .certificate))) }
        }
        // A self-signed certificate can only be trusted through a pin (AFSecurityPolicy refuses this policy).
        if allowInvalidCertificates && validatesDomainName && !isPinned {
            problems.append(SecurityProblem(.invalidCertificatesNeedPin))
        }
        if hasClientKey && !hasClientCertificate { problems.append(SecurityProblem(.clientKeyNeedsCertificate)) }
        // A key rotation would lock out every client that ships a single pin; TrustKit requires two.
        if pinning == .publicKey && pinnedKeys == 1 { problems.append(SecurityProblem(.singlePin)) }
        return problems
    }
}
