public import Foundation

/// What `apitest pin-check` found: the chain a server presented, what was pinned, and the verdict. Plain facts
/// (names and pins as text), so that reporters render it without the HTTP layer.
public struct PinCheckResult: Sendable, Hashable {
    /// The verdict, worst first within its meaning.
    public enum Status: String, Sendable, Hashable, CaseIterable {
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
    public struct Certificate: Sendable, Hashable {
        /// Its position in the chain: 0 for the leaf.
        public var depth: Int
        /// Subject and issuer as the certificate writes them (server-controlled text).
        public var subject: String
        public var issuer: String
        public var notBefore: Date
        public var notAfter: Date
        /// Whole days from the check until `notAfter` (negative once expired).
        public var daysLeft: Int
        public var serialNumber: String
        public var subjectAlternativeNames: [String]
        public var sha256Fingerprint: String
        /// The curl-format pin of its public key.
        public var publicKeyPin: String
        /// Whether it matches what is pinned (shown also when the chain is refused).
        public var matchesPin: Bool

        /// A certificate with every fact given.
        public init(
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
    public var url: String
    /// The pinning mode: `none`, `publicKey` or `certificate`.
    public var mode: String
    /// The pins checked, as shown: keys in `publicKey` mode, the pinned certificates' keys in `certificate` mode.
    public var configuredPins: [String]
    /// The chain the server presented, leaf first (empty when the connection failed before it).
    public var chain: [Certificate]
    public var status: Status
    /// One line saying why (`pin matched at depth 1 (...)`, `connection failed: ...`).
    public var verdict: String
    /// The verification problem's name when the chain was refused (`expired`, `hostnameMismatch`...).
    public var problem: String?
    public var matchedDepth: Int?
    public var matchedPin: String?

    /// A result with every fact given.
    public init(
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
