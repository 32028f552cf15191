package import Foundation

/// What `apitest pin-check` found: the chain a server presented, what was pinned, and the verdict. Plain facts
/// (names and pins as text), so that reporters render it without the HTTP layer.
package struct PinCheckResult: Sendable, Hashable {
    /// The verdict, worst first within its meaning.
    package enum Status: String, Sendable, Hashable, CaseIterable {
        /// The chain is trusted and a pin matched (or nothing was pinned), and nothing expires too soon.
        case matched
        /// No certificate of the chain matches a configured pin.
        case pinMismatch
        /// The chain failed verification: expired, not yet valid, self-signed, unknown issuer, host mismatch.
        case certificateInvalid
        /// A certificate of the chain expires within the days asked for.
        case expiring
        /// No handshake could be checked: DNS, refused, timeout, TLS protocol error.
        case connectionFailed
    }

    /// One certificate of the chain, leaf first.
    package struct Certificate: Sendable, Hashable, Encodable {
        /// Its position in the chain: 0 for the leaf.
        package var depth: Int
        /// Subject and issuer as the certificate writes them (server-controlled text).
        package var subject: String
        package var issuer: String
        package var notBefore: Date
        package var notAfter: Date
        /// Whole days from the check until `notAfter` (negative once expired).
        package var daysLeft: Int
        package var serialNumber: String
        package var subjectAlternativeNames: [String]
        package var sha256Fingerprint: String
        /// The curl-format pin of its public key.
        package var publicKeyPin: String
        /// Whether it matches what is pinned (shown also when the chain is refused).
        package var matchesPin: Bool

        /// A certificate with every fact given.
        package init(
            depth: Int, subject: String, issuer: String, notBefore: Date, notAfter: Date, daysLeft: Int,
            serialNumber: String, subjectAlternativeNames: [String], sha256Fingerprint: String,
            publicKeyPin: String, matchesPin: Bool
        ) {
            self.depth = depth
            self.subject = subject
            self.issuer = issuer
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.daysLeft = daysLeft
            self.serialNumber = serialNumber
            self.subjectAlternativeNames = subjectAlternativeNames
            self.sha256Fingerprint = sha256Fingerprint
            self.publicKeyPin = publicKeyPin
            self.matchesPin = matchesPin
        }
    }

    /// The https URL checked.
    package var url: String
    /// The pinning mode: `none`, `publicKey` or `certificate`.
    package var mode: String
    /// The pins checked, as shown: keys in `publicKey` mode, the pinned certificates' keys in `certificate` mode.
    package var configuredPins: [String]
    /// The chain the server presented, leaf first (empty when the connection failed before it).
    package var chain: [Certificate]
    package var status: Status
    /// One line saying why (`pin matched at depth 1 (...)`, `connection failed: ...`).
    package var verdict: String
    /// The verification problem's name when the chain was refused (`expired`, `hostnameMismatch`...).
    package var problem: String?
    package var matchedDepth: Int?
    package var matchedPin: String?

    /// A result with every fact given.
    package init(
        url: String, mode: String, configuredPins: [String], chain: [Certificate], status: Status, verdict: String,
        problem: String? = nil, matchedDepth: Int? = nil, matchedPin: String? = nil
    ) {
        self.url = url
        self.mode = mode
        self.configuredPins = configuredPins
        self.chain = chain
        self.status = status
        self.verdict = verdict
        self.problem = problem
        self.matchedDepth = matchedDepth
        self.matchedPin = matchedPin
    }
}
