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
    /// What the user asked for: the one model of a `security:` block and the TLS flags (`APITestSecurity`), and the
    /// one owner of every setting (the mode, pins, switches, files and hosts are read as `settings.pinning`, ...).
    /// Only the loaded certificates are the policy's own: `settings.certificates` are the files they were read from
    /// when the policy was built (changing them afterwards reads nothing; build a new policy).
    public var settings: SecuritySettings
    /// Pinned certificates, read from `settings.certificates`: trust anchors in `certificate` mode; their keys are
    /// pins in `publicKey` mode.
    public private(set) var pinnedCertificates: [PinnedCertificate]

    /// Full verification against the system's trust store, nothing pinned.
    public init() {
        settings = SecuritySettings()
        pinnedCertificates = []
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
        var result = settings.pins
        for certificate in pinnedCertificates {
            if !result.contains(certificate.info.publicKey) { result.append(certificate.info.publicKey) }
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
    private func validate() throws(SecurityPolicyError) {
        if let error = problems.first(where: \.isError) { throw SecurityPolicyError(error) }
    }
}
