import APITestSecurity
import CCurlShim
import CTLSShim
import Foundation

/// A `SecurityPolicy` compiled for OpenSSL: made once per distinct policy on the event-loop thread.
final class CompiledSecurityPolicy {
    let policy: SecurityPolicy
    /// A number distinct for each distinct policy, used to keep connections verified under one policy apart
    /// from those verified under another (see `CurlMultiLoop.configureSecurity`).
    let id: Int
    let pointer: OpaquePointer
    /// The pins in the order the C side reports matches: `publicKey` mode's pins, or the pinned certificates.
    let pinNames: [String]

    init(policy: SecurityPolicy, id: Int) {
        self.policy = policy
        self.id = id
        let pins = policy.effectivePins
        let bytes = pins.flatMap(\.sha256)
        var certificates: OpaquePointer?
        if !policy.pinnedCertificates.isEmpty {
            var pem = Data()
            for certificate in policy.pinnedCertificates { pem.append(Self.pem(certificate.der)) }
            certificates = pem.withUnsafeBytes { raw in
                apitest_certs_from_data(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, nil, 0)
            }
        }
        let mode: Int32
        switch policy.pinningMode {
        case .none: mode = Int32(APITEST_PIN_NONE)
        case .publicKey: mode = Int32(APITEST_PIN_PUBLIC_KEY)
        case .certificate: mode = Int32(APITEST_PIN_CERTIFICATE)
        }
        pointer = apitest_tls_policy_new(
            mode, policy.allowInvalidCertificates ? 1 : 0, policy.validatesDomainName ? 1 : 0, bytes,
            Int32(pins.count), certificates)
        if let certificates { apitest_certs_free(certificates) }
        pinNames =
            policy.pinningMode == .certificate
            ? policy.pinnedCertificates.map(\.info.publicKeyPin) : pins.map(\.description)
    }

    deinit { apitest_tls_policy_free(pointer) }

    private static func pem(_ der: Data) -> Data {
        let body = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return Data("-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n".utf8)
    }
}
