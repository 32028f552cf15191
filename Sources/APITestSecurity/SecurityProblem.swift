/// What is wrong with a pin or with a combination of security settings: an error (the settings make no usable
/// policy) or a warning, and the setting it concerns. The words are rendered in one place,
/// `SecurityProblem+Rendering.swift`, for a suite's keys or in plain words.
public struct SecurityProblem: Error, Sendable, Hashable {
    /// Each way a pin or a combination of settings can be wrong.
    public enum Kind: Sendable, Hashable {
        /// The text does not start with `sha256//`.
        case notAPin(String)
        /// The text after `sha256//` is not base64.
        case pinNotBase64(String)
        /// The pin decodes to `bytes` bytes, not the 32 of a SHA-256.
        case pinLength(String, bytes: Int)
        /// The setting (`pins` or `certificates`) is given but the mode does not use it (a warning).
        case ignored(SecuritySetting, mode: PinningMode)
        /// `publicKey` mode with nothing pinned.
        case publicKeyNeedsPins
        /// `certificate` mode without certificates.
        case certificateNeedsCertificates
        /// Invalid certificates allowed with domain validation and nothing pinned: nothing could ever be trusted.
        case invalidCertificatesNeedPin
        /// A client key without its certificate.
        case clientKeyNeedsCertificate
        /// `publicKey` mode with one pinned key and no backup (a warning).
        case singlePin
    }

    /// Whether a problem stops the settings from being used.
    public enum Severity: Sendable, Hashable {
        case error, warning
    }

    /// What is wrong.
    public var kind: Kind

    /// The problem of a kind.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// Errors make no policy; warnings are shown and the settings are used.
    public var severity: Severity {
        switch kind {
        case .ignored, .singlePin: .warning
        default: .error
        }
    }

    /// Whether this is an error.
    public var isError: Bool { severity == .error }

    /// The setting the problem is about: the suite parser points at its key.
    public var setting: SecuritySetting {
        switch kind {
        case .notAPin, .pinNotBase64, .pinLength: .pins
        case .ignored(let setting, _): setting
        case .publicKeyNeedsPins, .certificateNeedsCertificates, .singlePin: .pinning
        case .invalidCertificatesNeedPin: .allowInvalidCertificates
        case .clientKeyNeedsCertificate: .clientKey
        }
    }
}
