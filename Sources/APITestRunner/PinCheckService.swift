package import APITestHTTP
package import APITestResults
package import APITestSecurity
package import Foundation

/// What `apitest pin-check` asks for: a server, the pins and trust settings to hold it to, and how.
package struct PinCheckRequest: Sendable {
    /// The https URL of the server.
    package var url: String
    /// The TLS flags; without a mode, pins mean `publicKey` and certificates alone mean `certificate` (as for
    /// `apitest run`).
    package var security: SecurityOverrides
    /// Fail when a certificate of the chain expires within this many days.
    package var minDays: Int?
    /// curl `--resolve` entries (`host:port:address`) to connect elsewhere than DNS says.
    package var resolve: [String]
    /// Time allowed to connect and complete the handshake.
    package var timeout: Duration?

    /// A request with every setting given.
    package init(
        url: String, security: SecurityOverrides, minDays: Int? = nil, resolve: [String] = [],
        timeout: Duration? = nil
    ) {
        self.url = url
        self.security = security
        self.minDays = minDays
        self.resolve = resolve
        self.timeout = timeout
    }
}

/// Runs `apitest pin-check`: one TLS handshake (no request is sent), its chain checked against the policy of a
/// ``PinCheck``, and the facts gathered into a ``PinCheckResult`` for the reporters.
package enum PinCheckService {
    /// Connects, checks the handshake against the check's policy (built once, by ``PinCheck/init(_:)``) and
    /// describes what it found; a connection that fails is a result too.
    package static func check(_ check: PinCheck, now: Date = Date()) async -> PinCheckResult {
        let request = check.request
        let policy = check.policy
        var configuration = SessionConfiguration(maxConnections: 1)
        if let timeout = request.timeout {
            configuration.timeout = timeout
            configuration.connectTimeout = timeout
        }
        let session = SessionManager(configuration: configuration)
        defer { session.shutdown() }
        do {
            let evaluation = try await session.checkHandshake(
                url: request.url, policy: policy, resolve: request.resolve)
            return result(url: request.url, policy: policy, evaluation: evaluation, minDays: request.minDays, now: now)
        } catch {
            let message = (error as? HTTPError)?.message ?? "\(error)"
            return result(url: request.url, policy: policy, connectionError: message)
        }
    }

    // MARK: - Describing the handshake

    /// The result of a checked handshake.
    static func result(
        url: String, policy: SecurityPolicy, evaluation: TLSEvaluation, minDays: Int?, now: Date
    ) -> PinCheckResult {
        let pins = configuredPins(policy)
        let chain = evaluation.chain.enumerated().map { depth, certificate in
            PinCheckResult.Certificate(
                depth: depth, subject: certificate.subject, issuer: certificate.issuer,
                notBefore: certificate.notBefore, notAfter: certificate.notAfter,
                daysLeft: certificate.daysLeft(from: now), serialNumber: certificate.serialNumber,
                subjectAlternativeNames: certificate.subjectAlternativeNames,
                sha256Fingerprint: certificate.sha256Fingerprint, publicKeyPin: certificate.publicKeyPin,
                matchesPin: matches(certificate, policy: policy, pins: pins))
        }
        let expiring = minDays.map { days in chain.filter { $0.daysLeft < days } } ?? []
        let status: PinCheckResult.Status
        let verdict: String
        switch evaluation.verdict {
        case .pinMismatch:
            status = .pinMismatch
            verdict = "pin mismatch: no certificate of the chain matches a configured pin"
        case .certificateInvalid:
            status = .certificateInvalid
            verdict = evaluation.failureMessage
        case .notEvaluated:
            status = .connectionFailed
            verdict = "connection failed: the handshake was not checked"
        case .trusted where !expiring.isEmpty:
            status = .expiring
            let items = expiring.map { "depth \($0.depth) (\($0.subject)) in \($0.daysLeft) days" }
            verdict = "expiring: " + items.joined(separator: ", ") + " (--min-days \(minDays ?? 0))"
        case .trusted:
            status = .matched
            if let depth = evaluation.matchedDepth, let pin = evaluation.matchedPin {
                let subject = depth < chain.count ? " (\(chain[depth].subject))" : ""
                verdict = "pin matched at depth \(depth)\(subject): \(pin)"
            } else {
                verdict = "the chain is trusted (nothing pinned)"
            }
        }
        return PinCheckResult(
            url: url, mode: policy.settings.pinning.rawValue, configuredPins: pins, chain: chain, status: status,
            verdict: verdict, problem: evaluation.problem?.rawValue, matchedDepth: evaluation.matchedDepth,
            matchedPin: evaluation.matchedPin)
    }

    /// The result when no handshake could be checked.
    static func result(url: String, policy: SecurityPolicy, connectionError: String) -> PinCheckResult {
        PinCheckResult(
            url: url, mode: policy.settings.pinning.rawValue, configuredPins: configuredPins(policy), chain: [],
            status: .connectionFailed, verdict: "connection failed: \(connectionError)")
    }

    /// The pins checked, as shown: keys in `publicKey` mode, the pinned certificates' keys in `certificate` mode.
    private static func configuredPins(_ policy: SecurityPolicy) -> [String] {
        switch policy.settings.pinning {
        case .none: []
        case .publicKey: policy.effectivePins.map(\.description)
        case .certificate: policy.pinnedCertificates.map(\.info.publicKeyPin)
        }
    }

    /// Whether `certificate` matches what is pinned.
    private static func matches(_ certificate: CertificateInfo, policy: SecurityPolicy, pins: [String]) -> Bool {
        switch policy.settings.pinning {
        case .none: false
        case .publicKey: pins.contains(certificate.publicKeyPin)
        case .certificate:
            policy.pinnedCertificates.contains { $0.info.sha256Fingerprint == certificate.sha256Fingerprint }
        }
    }
}
