import APITestHTTP
import APITestSuite
import Foundation

/// `apitest run`'s TLS flags: each one given replaces the suite's `security:` setting of the same name.
public struct SecurityOverrides: Sendable, Hashable {
    public var pinning: SecurityPolicy.PinningMode?
    /// Pins (`sha256//...`); when any is given they replace the suite's.
    public var pins: [String]
    /// Certificate files (absolute or relative to the working directory); when any is given they replace the suite's.
    public var certificates: [String]
    public var allowInvalidCertificates: Bool?
    public var validatesDomainName: Bool?
    public var caFile: String?
    public var clientCertificate: String?
    public var clientKey: String?

    public init(
        pinning: SecurityPolicy.PinningMode? = nil, pins: [String] = [], certificates: [String] = [],
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
    public var isEmpty: Bool { self == SecurityOverrides() }

    /// The policy for a suite: its `security:` block with these overrides laid over it; `nil` when neither sets
    /// anything (the transport's defaults: full verification, nothing pinned).
    public func policy(for spec: SecuritySpec?) throws(SecurityPolicyError) -> SecurityPolicy? {
        guard spec != nil || !isEmpty else { return nil }
        var policy = SecurityPolicy()
        if let spec {
            policy.pinningMode = SecurityPolicy.PinningMode(rawValue: spec.pinning.rawValue) ?? .none
            policy.pins = try Self.parse(spec.pins)
            policy.pinnedCertificates = try Self.load(spec.certificates)
            policy.allowInvalidCertificates = spec.allowInvalidCertificates
            policy.validatesDomainName = spec.validatesDomainName
            policy.caFile = spec.caFile
            policy.clientCertificate = spec.clientCertificate
            policy.clientKey = spec.clientKey
            policy.hosts = spec.hosts
        }
        if let pinning { policy.pinningMode = pinning }
        if !pins.isEmpty { policy.pins = try Self.parse(pins) }
        if !certificates.isEmpty { policy.pinnedCertificates = try Self.load(certificates) }
        if let allowInvalidCertificates { policy.allowInvalidCertificates = allowInvalidCertificates }
        if let validatesDomainName { policy.validatesDomainName = validatesDomainName }
        if let caFile { policy.caFile = caFile }
        if let clientCertificate { policy.clientCertificate = clientCertificate }
        if let clientKey { policy.clientKey = clientKey }
        // Pins or certificates given on the command line without a mode mean public-key pinning.
        if pinning == nil, policy.pinningMode == .none, !pins.isEmpty || !certificates.isEmpty {
            policy.pinningMode = pins.isEmpty ? .certificate : .publicKey
        }
        try policy.validate()
        return policy
    }

    private static func parse(_ texts: [String]) throws(SecurityPolicyError) -> [PinnedKey] {
        var result: [PinnedKey] = []
        for text in texts { result.append(try PinnedKey(text)) }
        return result
    }

    private static func load(_ paths: [String]) throws(SecurityPolicyError) -> [PinnedCertificate] {
        var result: [PinnedCertificate] = []
        for path in paths { result += try PinnedCertificate.load(contentsOf: path) }
        return result
    }
}
