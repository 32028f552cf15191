import APITestHTTP
import APITestSecurity
import Foundation
import Testing

/// Pinning in the TLS handshake, against chains made by the openssl command and served by nginx.
@Suite(.serialized) final class PinningTests {
    /// What a case must end in.
    enum Outcome: Equatable, CustomStringConvertible {
        case trusted(matchedDepth: Int?)
        case pinMismatch
        case invalid(TLSEvaluation.Problem)
        /// The policy itself is refused before connecting (AFNetworking's rule).
        case refusedPolicy

        var description: String {
            switch self {
            case .trusted(let depth): "trusted(depth \(depth.map(String.init) ?? "-"))"
            case .pinMismatch: "pinMismatch"
            case .invalid(let problem): "invalid(\(problem.rawValue))"
            case .refusedPolicy: "refusedPolicy"
            }
        }
    }

    /// The policy of `settings` as a run builds it (certificate files read); nil when the model's rules refuse it.
    static func policy(_ settings: SecuritySettings) throws -> SecurityPolicy? {
        do {
            return try SecurityPolicy(settings)
        } catch {
            guard error.problem != nil else { throw error }
            return nil
        }
    }

    /// Builds the policy of `settings` as a run does (certificate files read, the model's rules checked), performs
    /// one request with it and classifies the result.
    static func outcome(
        of settings: SecuritySettings, url: String, session: SessionManager
    ) async throws -> (Outcome, TLSEvaluation?) {
        guard let policy = try policy(settings) else { return (.refusedPolicy, nil) }
        var request = HTTPRequest(url: url)
        request.security = policy
        do {
            let response = try await session.perform(request)
            #expect(response.statusCode == 200)
            return (.trusted(matchedDepth: response.tlsEvaluation?.matchedDepth), response.tlsEvaluation)
        } catch let error as HTTPError {
            guard let evaluation = error.tlsEvaluation else {
                Issue.record("no evaluation in \(error)")
                return (.invalid(.other), nil)
            }
            switch evaluation.verdict {
            case .pinMismatch: return (.pinMismatch, evaluation)
            case .certificateInvalid: return (.invalid(evaluation.problem ?? .other), evaluation)
            default: return (.invalid(.other), evaluation)
            }
        }
    }

    /// mode × pinned certificate × allowInvalidCertificates × validatesDomainName × host, against the chain
    /// leaf (localhost) → intermediate, whose root no trust store holds (no caFile).
    @Test func pinningTable() async throws {
        let fixture = try await PinningFixture.start()
        defer { fixture.stop() }
        let session = SessionManager()
        defer { session.shutdown() }
        var checked = 0
        for mode in PinningMode.allCases {
            for name in ["leaf", "inter", "root", "unrelated"] {
                for allowInvalid in [false, true] {
                    for validatesDomain in [false, true] {
                        for host in ["localhost", "127.0.0.1"] {
                            let settings = SecuritySettings(
                                pinning: mode,
                                pins: mode == .publicKey ? [try PublicKeyPin(try #require(fixture.pins[name]))] : [],
                                certificates: mode == .certificate ? [fixture.file("\(name).pem")] : [],
                                allowInvalidCertificates: allowInvalid, validatesDomainName: validatesDomain)
                            let expected = Self.expected(
                                mode: mode, pinned: name, allowInvalid: allowInvalid, validatesDomain: validatesDomain,
                                hostMatches: host == "localhost")
                            let (actual, _) = try await Self.outcome(
                                of: settings, url: fixture.url("chain", host: host), session: session)
                            #expect(
                                actual == expected,
                                "mode \(mode) pinned \(name) allowInvalid \(allowInvalid) validatesDomain \(validatesDomain) host \(host)"
                            )
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 96)
    }

    /// The expected outcome of a table case; the served chain is leaf → intermediate and the root is unknown.
    static func expected(
        mode: PinningMode, pinned: String, allowInvalid: Bool, validatesDomain: Bool, hostMatches: Bool
    ) -> Outcome {
        let depth = ["leaf": 0, "inter": 1, "root": 2][pinned]
        switch mode {
        case .none:
            // Nothing pinned: the root is unknown, so only "allow invalid, no domain check" passes; allowing invalid
            // certificates with domain validation on is AFNetworking's refused combination.
            if !allowInvalid { return .invalid(.unknownIssuer) }
            return validatesDomain ? .refusedPolicy : .trusted(matchedDepth: nil)
        case .publicKey:
            if !allowInvalid { return .invalid(.unknownIssuer) }
            if validatesDomain && !hostMatches { return .invalid(.hostnameMismatch) }
            // The built chain stops at the intermediate: the root's key is not part of it.
            guard let depth, pinned != "root" else { return .pinMismatch }
            return .trusted(matchedDepth: depth)
        case .certificate:
            // The pinned certificate is the only trust anchor, whatever allowInvalidCertificates says.
            guard let depth else { return .invalid(.unknownIssuer) }
            if validatesDomain && !hostMatches { return .invalid(.hostnameMismatch) }
            return .trusted(matchedDepth: depth)
        }
    }
}
