import APITestHTTP
import APITestResults
import APITestSecurity
import Foundation
import Testing

@testable import APITestRunner

/// `pin-check`'s verdicts from a handshake's findings: what matched, what expires, and which flags make a policy.
@Suite struct PinCheckServiceTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)
    private static let leafKey = PublicKeyPin(sha256: Array(repeating: 1, count: 32))
    private static let rootKey = PublicKeyPin(sha256: Array(repeating: 2, count: 32))
    private static let leafPin = leafKey.description
    private static let rootPin = rootKey.description

    private static func certificate(_ name: String, key: PublicKeyPin, days: Double) -> CertificateInfo {
        CertificateInfo(
            subject: "CN=\(name)", issuer: "CN=root", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: now.addingTimeInterval(days * 86_400 + 60), serialNumber: "01", subjectAlternativeNames: [],
            sha256Fingerprint: name, publicKey: key)
    }

    private static let chain = [
        certificate("leaf", key: leafKey, days: 10), certificate("root", key: rootKey, days: 900),
    ]

    private func policy(pins: [String]) throws -> SecurityPolicy {
        let parsed = try pins.map { text throws(SecurityProblem) in try PublicKeyPin(text) }
        return try PinCheck(PinCheckRequest(url: "https://h/", security: SecurityOverrides(pins: parsed))).policy
    }

    @Test func aMatchNamesTheDepthAndMarksTheCertificate() throws {
        let evaluation = TLSEvaluation(verdict: .trusted, chain: Self.chain, matchedDepth: 1, matchedPin: Self.rootPin)
        let result = PinCheckService.result(
            url: "https://h/", policy: try policy(pins: [Self.rootPin]), evaluation: evaluation, minDays: nil,
            now: Self.now)
        #expect(result.status == .matched)
        #expect(result.mode == "publicKey")
        #expect(result.verdict == "pin matched at depth 1 (CN=root): \(Self.rootPin)")
        #expect(result.chain.map(\.matchesPin) == [false, true])
        #expect(result.chain.map(\.daysLeft) == [10, 900])
    }

    @Test func aCertificateExpiringWithinMinDaysFailsATrustedChain() throws {
        let evaluation = TLSEvaluation(verdict: .trusted, chain: Self.chain, matchedDepth: 1, matchedPin: Self.rootPin)
        let result = PinCheckService.result(
            url: "https://h/", policy: try policy(pins: [Self.rootPin]), evaluation: evaluation, minDays: 30,
            now: Self.now)
        #expect(result.status == .expiring)
        #expect(result.verdict == "expiring: depth 0 (CN=leaf) in 10 days (--min-days 30)")
    }

    @Test func aMismatchAndAFailedConnectionAreVerdictsToo() throws {
        let pinned = try policy(pins: [Self.leafPin.replacingOccurrences(of: "AQ", with: "Aw")])
        let mismatch = PinCheckService.result(
            url: "https://h/", policy: pinned, evaluation: TLSEvaluation(verdict: .pinMismatch, chain: Self.chain),
            minDays: nil, now: Self.now)
        #expect(mismatch.status == .pinMismatch)
        #expect(mismatch.chain.allSatisfy { !$0.matchesPin })
        let failed = PinCheckService.result(url: "https://h/", policy: pinned, connectionError: "connection refused")
        #expect(failed.status == .connectionFailed)
        #expect(failed.verdict == "connection failed: connection refused")
        #expect(failed.chain.isEmpty)
    }

    @Test func flagsMakeThePolicyAsRunsDo() throws {
        #expect(try policy(pins: []).settings.pinning == .none)
        #expect(try policy(pins: [Self.leafPin]).settings.pinning == .publicKey)
        #expect(throws: SecurityProblem(.pinNotBase64("sha256//short"))) { try policy(pins: ["sha256//short"]) }
        let impossible = PinCheckRequest(
            url: "https://h/", security: SecurityOverrides(allowInvalidCertificates: true))
        #expect(throws: SecurityPolicyError(SecurityProblem(.invalidCertificatesNeedPin))) {
            try PinCheck(impossible)
        }
    }
}
