import Foundation

/// How a server's certificate chain is trusted: AFSecurityPolicy's knobs, checked during the TLS handshake.
///
/// - `none`: the chain must be valid (trust store or `caFile`), unless `allowInvalidCertificates`.
/// - `publicKey`: as `none`, and the public key of some certificate of the verified chain (leaf, intermediate or
///   root) must match one of `pins` (or of the keys of `pinnedCertificates`).
/// - `certificate`: the pinned certificates are the only trust anchors; the chain must be valid up to one of
///   them (a leaf or intermediate may be an anchor), so a server with its own CA passes with domain validation on.
///
/// A pin failure aborts the handshake: no request byte reaches the server. Pins apply to `hosts` (by default the
/// host of each request's URL), never to the host of a redirect elsewhere, which gets full default verification.
public struct SecurityPolicy: Sendable, Hashable {
    /// What must match for a chain to be trusted.
    public enum PinningMode: String, Sendable, Hashable, CaseIterable {
        case none, publicKey, certificate
    }

    public var pinningMode: PinningMode
    /// Public-key pins (`sha256//...`); any certificate of the verified chain may match.
    public var pins: [PinnedKey]
    /// Pinned certificates: trust anchors in `certificate` mode; their keys are pins in `publicKey` mode.
    public var pinnedCertificates: [PinnedCertificate]
    /// Accept chains that fail verification (unknown issuer, self-signed, expired). Never disables a pin, and never
    /// the host-name check while `validatesDomainName` is on.
    public var allowInvalidCertificates: Bool
    /// Check that the certificate is valid for the host name (or IP address) of the URL.
    public var validatesDomainName: Bool
    /// A PEM bundle of trust anchors to use instead of the system's (not used in `certificate` mode).
    public var caFile: String?
    /// A client certificate (PEM) and its key, for mutual TLS.
    public var clientCertificate: String?
    public var clientKey: String?
    /// The hosts the pins apply to (case-insensitive); empty: the host of each request's URL.
    public var hosts: [String]

    public init(
        pinningMode: PinningMode = .none, pins: [PinnedKey] = [], pinnedCertificates: [PinnedCertificate] = [],
        allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true, caFile: String? = nil,
        clientCertificate: String? = nil, clientKey: String? = nil, hosts: [String] = []
    ) {
        self.pinningMode = pinningMode
        self.pins = pins
        self.pinnedCertificates = pinnedCertificates
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.hosts = hosts
    }

    /// The default: full verification, nothing pinned.
    public static let `default` = SecurityPolicy()

    /// The pins checked in `publicKey` mode: `pins`, then the keys of `pinnedCertificates`.
    public var effectivePins: [PinnedKey] {
        var result = pins
        for certificate in pinnedCertificates {
            if let key = try? PinnedKey(certificate.info.publicKeyPin), !result.contains(key) { result.append(key) }
        }
        return result
    }

    /// Whether anything is pinned for the current mode.
    public var hasPins: Bool {
        switch pinningMode {
        case .none: false
        case .publicKey: !effectivePins.isEmpty
        case .certificate: !pinnedCertificates.isEmpty
        }
    }

    /// Checks that the policy can ever trust a server; throws with the reason when it cannot.
    ///
    /// As AFNetworking: domain validation with invalid certificates allowed and nothing pinned is refused, since a
    /// self-signed certificate can only be trusted through a pin.
    public func validate() throws(SecurityPolicyError) {
        if allowInvalidCertificates && validatesDomainName && !hasPins {
            throw SecurityPolicyError(
                "to validate the domain name of a self-signed or otherwise invalid certificate you must pin it: "
                    + "set 'pinning' with 'pins' or 'certificates', or turn 'validatesDomainName' off")
        }
        switch pinningMode {
        case .none:
            break
        case .publicKey where effectivePins.isEmpty:
            throw SecurityPolicyError("pinning 'publicKey' needs at least one pin or certificate")
        case .certificate where pinnedCertificates.isEmpty:
            throw SecurityPolicyError("pinning 'certificate' needs at least one certificate")
        default:
            break
        }
        if clientKey != nil && clientCertificate == nil {
            throw SecurityPolicyError("a client key needs a client certificate")
        }
    }

    /// The pin-list warning TrustKit enforces: a single pin leaves no backup for a key rotation.
    public var singlePinWarning: String? {
        guard pinningMode == .publicKey, effectivePins.count == 1 else { return nil }
        return "only one pin: add a backup pin (a key not yet in use, or the CA's), or a key rotation will lock "
            + "clients out; TrustKit requires two"
    }
}
