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

/// The handshake check of one transfer; lives as long as its `TaskDelegate`.
final class TLSTransferState {
    let compiled: CompiledSecurityPolicy
    let pointer: OpaquePointer

    init(compiled: CompiledSecurityPolicy, hosts: [String]) {
        self.compiled = compiled
        pointer = apitest_tls_transfer_new(compiled.pointer, hosts.map { $0.lowercased() }.joined(separator: "\n"))
    }

    deinit { apitest_tls_transfer_free(pointer) }

    /// What the last checked handshake found, `nil` when none was checked.
    var evaluation: TLSEvaluation? {
        var outcome = apitest_tls_outcome()
        apitest_tls_transfer_outcome(pointer, &outcome)
        guard outcome.handshakes > 0 else { return nil }
        let chain = apitest_tls_transfer_chain(pointer).map { CertificateList.infos(of: $0) } ?? []
        var evaluation = TLSEvaluation(
            verdict: .notEvaluated, policyApplied: outcome.applied != 0, chain: chain,
            configuredPins: compiled.policy.pinningMode == .none ? [] : compiled.pinNames)
        switch Int(outcome.verdict) {
        case Int(APITEST_TLS_TRUSTED): evaluation.verdict = .trusted
        case Int(APITEST_TLS_PIN_MISMATCH): evaluation.verdict = .pinMismatch
        case Int(APITEST_TLS_INVALID): evaluation.verdict = .certificateInvalid
        default: evaluation.verdict = .notEvaluated
        }
        if outcome.error_code != 0 {
            evaluation.problem = Self.problem(Int(outcome.error_code))
            evaluation.problemDepth = Int(outcome.error_depth)
            evaluation.problemDetail = String(cString: apitest_x509_error_string(outcome.error_code))
        }
        if outcome.matched_depth >= 0 {
            evaluation.matchedDepth = Int(outcome.matched_depth)
            let index = Int(outcome.matched_pin)
            if index >= 0, index < compiled.pinNames.count { evaluation.matchedPin = compiled.pinNames[index] }
        }
        return evaluation
    }

    static func problem(_ code: Int) -> TLSEvaluation.Problem {
        switch apitest_x509_error_kind(Int32(code)) {
        case 1: .expired
        case 2: .notYetValid
        case 3: .selfSigned
        case 4: .unknownIssuer
        case 5: .hostnameMismatch
        default: .other
        }
    }
}

/// Certificate facts per TLS connection, so that reused connections report the same chain without parsing it
/// again. Used on the event-loop thread only.
final class PeerCertificateCache {
    private var byConnection: [UInt: [CertificateInfo]] = [:]
    private let limit: Int

    init(limit: Int) {
        self.limit = max(16, limit * 4)
    }

    /// The certificates the server sent on the connection `easy` uses now, leaf first; empty for plain HTTP.
    func certificates(for easy: UnsafeMutableRawPointer) -> [CertificateInfo] {
        guard let ssl = apitest_easy_ssl(easy) else { return [] }
        let id = apitest_ssl_connection_id(ssl)
        if let known = byConnection[id] { return known }
        guard let list = apitest_certs_from_ssl(ssl) else { return [] }
        defer { apitest_certs_free(list) }
        let infos = CertificateList.infos(of: list)
        if byConnection.count >= limit { byConnection.removeAll(keepingCapacity: true) }
        byConnection[id] = infos
        return infos
    }
}
