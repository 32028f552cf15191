public import APITestSecurity
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
    /// What the user asked for: the one model of a `security:` block and the TLS flags (`APITestSecurity`). The
    /// properties below read and write it; only the loaded certificates are the policy's own.
    public var settings: SecuritySettings
    /// Pinned certificates, read from `settings.certificates` (or given): trust anchors in `certificate` mode;
    /// their keys are pins in `publicKey` mode.
    public var pinnedCertificates: [PinnedCertificate]

    /// The pinning mode.
    public var pinningMode: PinningMode {
        get { settings.pinning }
        set { settings.pinning = newValue }
    }
    /// Public-key pins (`sha256//...`); any certificate of the verified chain may match.
    public var pins: [PublicKeyPin] {
        get { settings.pins }
        set { settings.pins = newValue }
    }
    /// Accept chains that fail verification (unknown issuer, self-signed, expired). Never disables a pin, and never
    /// the host-name check while `validatesDomainName` is on.
    public var allowInvalidCertificates: Bool {
        get { settings.allowInvalidCertificates }
        set { settings.allowInvalidCertificates = newValue }
    }
    /// Check that the certificate is valid for the host name (or IP address) of the URL.
    public var validatesDomainName: Bool {
        get { settings.validatesDomainName }
        set { settings.validatesDomainName = newValue }
    }
    /// A PEM bundle of trust anchors to use instead of the system's (not used in `certificate` mode).
    public var caFile: String? {
        get { settings.caFile }
        set { settings.caFile = newValue }
    }
    /// A client certificate (PEM), for mutual TLS.
    public var clientCertificate: String? {
        get { settings.clientCertificate }
        set { settings.clientCertificate = newValue }
    }
    /// The client certificate's key (PEM).
    public var clientKey: String? {
        get { settings.clientKey }
        set { settings.clientKey = newValue }
    }
    /// The hosts the pins apply to (case-insensitive); empty: the host of each request's URL.
    public var hosts: [String] {
        get { settings.hosts }
        set { settings.hosts = newValue }
    }

    /// A policy with the given settings and already loaded certificates (tests, `pin-check` facts).
    public init(
        pinningMode: PinningMode = .none, pins: [PublicKeyPin] = [], pinnedCertificates: [PinnedCertificate] = [],
        allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true, caFile: String? = nil,
        clientCertificate: String? = nil, clientKey: String? = nil, hosts: [String] = []
    ) {
        self.settings = SecuritySettings(
            pinning: pinningMode, pins: pins, allowInvalidCertificates: allowInvalidCertificates,
            validatesDomainName: validatesDomainName, caFile: caFile, clientCertificate: clientCertificate,
            clientKey: clientKey, hosts: hosts)
        self.pinnedCertificates = pinnedCertificates
    }

    /// The policy of `settings`: the one place a policy is built from what the user wrote. Certificate files are
    /// read here (once); throws for a file without a certificate and for settings the model's rules refuse.
    public init(_ settings: SecuritySettings) throws(SecurityPolicyError) {
        var certificates: [PinnedCertificate] = []
        for path in settings.certificates { certificates += try PinnedCertificate.load(contentsOf: path) }
        self.settings = settings
        self.pinnedCertificates = certificates
        try validate()
    }

    /// The default: full verification, nothing pinned.
    public static let `default` = SecurityPolicy()

    /// The pins checked in `publicKey` mode: `pins`, then the keys of `pinnedCertificates`.
    public var effectivePins: [PublicKeyPin] {
        var result = pins
        for certificate in pinnedCertificates {
            if let key = try? PublicKeyPin(certificate.info.publicKeyPin), !result.contains(key) { result.append(key) }
        }
        return result
    }

    /// What the model's rules see of this policy: its settings' facts, with the certificates loaded and, in
    /// `publicKey` mode, the distinct keys of pins and certificates.
    public var facts: SecurityFacts {
        var facts = settings.facts
        facts.certificates = pinnedCertificates.count
        facts.pinnedKeys = effectivePins.count
        return facts
    }

    /// The problems of this policy under the model's rules (``SecurityFacts/problems``), errors and warnings.
    public var problems: [SecurityProblem] { facts.problems }

    /// Checks that the policy can ever trust a server; throws the first error of the model's rules.
    ///
    /// As AFNetworking: domain validation with invalid certificates allowed and nothing pinned is refused, since a
    /// self-signed certificate can only be trusted through a pin.
    public func validate() throws(SecurityPolicyError) {
        if let error = problems.first(where: \.isError) { throw SecurityPolicyError(error) }
    }
}
