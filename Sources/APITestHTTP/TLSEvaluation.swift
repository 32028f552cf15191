/// What the handshake check found: the verified chain, which pin matched where, or why the chain was refused.
public struct TLSEvaluation: Sendable, Hashable {
    /// The outcome of the check.
    public enum Verdict: String, Sendable, Hashable {
        /// The chain was accepted (and a pin matched when pinning).
        case trusted
        /// The chain was acceptable but no certificate of it matched a pin.
        case pinMismatch
        /// The chain failed verification (see `problem`).
        case certificateInvalid
        /// No handshake was checked (plain HTTP, or the connection failed first).
        case notEvaluated
    }

    /// A verification failure, named plainly.
    public enum Problem: String, Sendable, Hashable {
        case expired
        case notYetValid = "not yet valid"
        case selfSigned = "self-signed"
        case unknownIssuer = "unknown issuer"
        case hostnameMismatch = "hostname mismatch"
        case other = "invalid"
    }

    public var verdict: Verdict
    /// Whether the policy's pins applied to the host (false for a redirect to a host the pins were not declared for).
    public var policyApplied: Bool
    /// The chain as verified, leaf first; ends with the trust anchor when one was found.
    public var chain: [CertificateInfo]
    public var problem: Problem?
    /// The depth in `chain` of the certificate with the problem.
    public var problemDepth: Int?
    /// OpenSSL's own words for the problem.
    public var problemDetail: String?
    /// Where a pin matched: the depth in `chain` and the pin (`sha256//...`, or the pinned certificate's pin).
    public var matchedDepth: Int?
    public var matchedPin: String?
    /// The pins the policy checked against (`publicKey` mode: keys; `certificate` mode: the certificates' keys).
    public var configuredPins: [String]

    public init(
        verdict: Verdict, policyApplied: Bool = true, chain: [CertificateInfo] = [], problem: Problem? = nil,
        problemDepth: Int? = nil, problemDetail: String? = nil, matchedDepth: Int? = nil, matchedPin: String? = nil,
        configuredPins: [String] = []
    ) {
        self.verdict = verdict
        self.policyApplied = policyApplied
        self.chain = chain
        self.problem = problem
        self.problemDepth = problemDepth
        self.problemDetail = problemDetail
        self.matchedDepth = matchedDepth
        self.matchedPin = matchedPin
        self.configuredPins = configuredPins
    }

    /// A sentence for a failed check: what failed, the chain's pins and the configured ones.
    public var failureMessage: String {
        switch verdict {
        case .pinMismatch:
            let chainPins = chain.enumerated().map {
                "depth \($0.offset) \($0.element.subject): \($0.element.publicKeyPin)"
            }
            return "certificate pinning failed: no certificate of the chain matches a pin; the chain's pins: "
                + chainPins.joined(separator: "; ") + "; configured pins: " + configuredPins.joined(separator: ", ")
        case .certificateInvalid:
            let name = problem?.rawValue ?? "invalid"
            var text = "certificate \(name)"
            if let depth = problemDepth, depth >= 0, depth < chain.count {
                text += " at depth \(depth) (\(chain[depth].subject))"
            }
            if let problemDetail { text += ": \(problemDetail)" }
            return text
        case .trusted, .notEvaluated:
            return ""
        }
    }
}
