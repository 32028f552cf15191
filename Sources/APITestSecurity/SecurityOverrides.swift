/// The run's TLS flags (`apitest run`, `apitest pin-check`): each one given replaces the same setting of a
/// suite's `security:` block (``SecuritySettings/overlaid(with:)``).
package struct SecurityOverrides: Sendable, Hashable {
    /// `--pinning` / `--mode`.
    package var pinning: PinningMode?
    /// `--pin`; when any is given they replace the suite's.
    package var pins: [PublicKeyPin]
    /// `--certificate` files (absolute); when any is given they replace the suite's.
    package var certificates: [String]
    /// `--allow-invalid-certificates`.
    package var allowInvalidCertificates: Bool?
    /// `--no-validate-domain` (false).
    package var validatesDomainName: Bool?
    /// `--ca-file`.
    package var caFile: String?
    /// `--client-cert`.
    package var clientCertificate: String?
    /// `--client-key`.
    package var clientKey: String?

    /// Overrides of the given settings; nothing given overrides nothing.
    package init(
        pinning: PinningMode? = nil, pins: [PublicKeyPin] = [], certificates: [String] = [],
        allowInvalidCertificates: Bool? = nil, validatesDomainName: Bool? = nil, caFile: String? = nil,
        clientCertificate: String? = nil, clientKey: String? = nil
    ) {
        self.pinning = pinning
        self.pins = pins
        self.certificates = certificates
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }

    /// Whether no flag was given.
    package var isEmpty: Bool { self == SecurityOverrides() }

    /// The settings of a suite whose block is `settings` (`nil`: none) under these overrides; `nil` when neither
    /// sets anything (the transport's defaults: full verification, nothing pinned).
    package func applied(to settings: SecuritySettings?) -> SecuritySettings? {
        guard settings != nil || !isEmpty else { return nil }
        return (settings ?? SecuritySettings()).overlaid(with: self)
    }
}
