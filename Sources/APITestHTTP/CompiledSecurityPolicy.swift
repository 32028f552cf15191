import APITestSecurity
import CCurlShim
import CTLSShim
import Foundation

/// A `SecurityPolicy` compiled for OpenSSL: made once per distinct policy on the event-loop thread. What crosses to C
/// is typed: each pin as its digest bytes with the algorithm (``PublicKeyPin/sha256``), each pinned certificate as
/// the DER encoding it was loaded with, parsed once there (never text to parse again).
final class CompiledSecurityPolicy {
    let policy: SecurityPolicy
    /// A number distinct for each distinct policy, used to keep connections verified under one policy apart
    /// from those verified under another (see `CurlMultiLoop.configureSecurity`).
    let id: Int
    let pointer: OpaquePointer
    /// The pins in the order the C side reports matches: `publicKey` mode's pins, or the pinned certificates' keys.
    let pins: [PublicKeyPin]

    /// Why OpenSSL refused a policy (a pinned certificate that is not one DER certificate, memory).
    struct Refused: Error, Equatable {
        var message: String
    }

    init(policy: SecurityPolicy, id: Int) throws(Refused) {
        let settings = policy.settings
        let pins = policy.effectivePins
        if let short = pins.first(where: { $0.sha256.count != 32 }) {
            throw Refused(message: "the pin \(short) is not a SHA-256 digest of 32 bytes")
        }
        let typedPins = pins.map { pin in
            var typed = apitest_pin()
            typed.algorithm = Int32(APITEST_PIN_SHA256)
            withUnsafeMutableBytes(of: &typed.digest) { $0.copyBytes(from: pin.sha256) }
            return typed
        }
        let mode: Int32
        switch settings.pinning {
        case .none: mode = Int32(APITEST_PIN_NONE)
        case .publicKey: mode = Int32(APITEST_PIN_PUBLIC_KEY)
        case .certificate: mode = Int32(APITEST_PIN_CERTIFICATE)
        }
        var message = [CChar](repeating: 0, count: 256)
        let made = Self.withDER(policy.pinnedCertificates.map(\.der)) { certificates in
            apitest_tls_policy_new(
                mode, settings.allowInvalidCertificates ? 1 : 0, settings.validatesDomainName ? 1 : 0, typedPins,
                Int32(typedPins.count), certificates.baseAddress, Int32(certificates.count), &message, message.count)
        }
        guard let made else {
            throw Refused(
                message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.policy = policy
        self.id = id
        self.pointer = made
        self.pins = settings.pinning == .certificate ? policy.pinnedCertificates.map(\.info.publicKey) : pins
    }

    deinit { apitest_tls_policy_free(pointer) }

    /// The pins as they are named in evaluations (`sha256//<base64>`).
    var pinNames: [String] { pins.map(\.description) }

    /// Calls `body` with `ders` as `apitest_der` values, valid during the call only.
    private static func withDER<Result>(
        _ ders: [Data], _ body: (UnsafeBufferPointer<apitest_der>) -> Result
    ) -> Result {
        // One buffer holds every certificate, so the pointers stay valid for the whole call.
        let joined = ders.reduce(into: Data()) { $0.append($1) }
        return joined.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            var offset = 0
            let list = ders.map { der -> apitest_der in
                defer { offset += der.count }
                return apitest_der(bytes: base.map { $0 + offset }, length: der.count)
            }
            return list.withUnsafeBufferPointer(body)
        }
    }
}
