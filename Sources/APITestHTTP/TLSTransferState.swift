import APITestSecurity
import CTLSShim
import Foundation

/// The handshake check of one transfer; lives as long as its `TaskDelegate`.
final class TLSTransferState {
    let compiled: CompiledSecurityPolicy
    let pointer: OpaquePointer

    init(compiled: CompiledSecurityPolicy, hosts: [String]) {
        self.compiled = compiled
        pointer = apitest_tls_transfer_new(compiled.pointer, hosts.map { $0.lowercased() }.joined(separator: "\n"))
    }

    deinit { apitest_tls_transfer_free(pointer) }

    /// Whether the request was stopped before going over a connection this policy had not checked.
    var stoppedUncheckedConnection: Bool {
        var outcome = apitest_tls_outcome()
        apitest_tls_transfer_outcome(pointer, &outcome)
        return outcome.unchecked_connection != 0
    }

    /// What the last checked handshake found, `nil` when none was checked.
    var evaluation: TLSEvaluation? {
        var outcome = apitest_tls_outcome()
        apitest_tls_transfer_outcome(pointer, &outcome)
        guard outcome.handshakes > 0 else { return nil }
        let chain = apitest_tls_transfer_chain(pointer).map { CertificateList.infos(of: $0) } ?? []
        var evaluation = TLSEvaluation(
            verdict: .notEvaluated, policyApplied: outcome.applied != 0, chain: chain,
            configuredPins: compiled.policy.settings.pinning == .none ? [] : compiled.pinNames)
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
