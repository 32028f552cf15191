import APITestSecurity
import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// What pinning guarantees beyond the table: named failures, pins equal to openssl's, nothing sent on failure,
/// no inheritance across redirects, no reuse of connections checked under another policy, certificate facts.
@Suite(.serialized) final class PinningBehaviourTests {
    let fixture: PinningFixture
    let session = SessionManager()

    init() async throws {
        fixture = try await PinningFixture.start()
    }

    deinit {
        session.shutdown()
        fixture.stop()
    }

    func pin(_ name: String) throws -> PublicKeyPin { try PublicKeyPin(try #require(fixture.pins[name])) }

    func perform(_ url: String, _ policy: SecurityPolicy) async throws -> HTTPResponse {
        var request = HTTPRequest(url: url)
        request.security = policy
        return try await session.perform(request)
    }

    func failure(_ url: String, _ policy: SecurityPolicy) async throws -> HTTPError {
        do {
            let response = try await perform(url, policy)
            Issue.record("expected a failure, got HTTP \(response.statusCode)")
            return HTTPError(.handshakeNotChecked)
        } catch let error as HTTPError {
            return error
        }
    }

    @Test func everyPinApitestComputesEqualsTheOpenSSLPipeline() async throws {
        let trusted = try SecurityPolicy(SecuritySettings(caFile: fixture.file("root.pem")))
        let response = try await perform(fixture.url("chain"), trusted)
        let evaluation = try #require(response.tlsEvaluation)
        #expect(evaluation.chain.map(\.publicKeyPin) == ["leaf", "inter", "root"].map { fixture.pins[$0] })
        #expect(response.peerCertificates.map(\.publicKeyPin) == ["leaf", "inter"].map { fixture.pins[$0] })
        for name in PinningFixture.certificateNames {
            let info = try #require(try CertificateInfo.load(contentsOf: fixture.file("\(name).pem")).first)
            #expect(info.publicKeyPin == fixture.pins[name], "\(name)")
        }
    }

    @Test func rootPinMatchesWhenTheRootIsATrustAnchor() async throws {
        let policy = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("unrelated"), try pin("root")], caFile: fixture.file("root.pem")))
        let response = try await perform(fixture.url("chain"), policy)
        #expect(response.statusCode == 200)
        #expect(response.tlsEvaluation?.matchedDepth == 2)
        #expect(response.tlsEvaluation?.matchedPin == fixture.pins["root"])
    }

    @Test func failuresAreNamedPlainly() async throws {
        let trusted = try SecurityPolicy(SecuritySettings(caFile: fixture.file("root.pem")))
        let expired = try await failure(fixture.url("expired"), trusted)
        #expect(expired.tlsEvaluation?.problem == .expired)
        #expect(expired.message.contains("certificate expired at depth 0"))
        let future = try await failure(fixture.url("notYetValid"), trusted)
        #expect(future.tlsEvaluation?.problem == .notYetValid)
        #expect(future.message.contains("certificate not yet valid at depth 0 (CN=localhost)"))
        let other = try await failure(fixture.url("otherHost"), trusted)
        #expect(other.tlsEvaluation?.problem == .hostnameMismatch)
        let selfSigned = try await failure(fixture.url("selfSigned"), trusted)
        #expect(selfSigned.tlsEvaluation?.problem == .selfSigned)
        let unknown = try await failure(fixture.url("chain"), SecurityPolicy())
        #expect(unknown.tlsEvaluation?.problem == .unknownIssuer)
        #expect(unknown.reason == .tlsFailure)
    }

    @Test func selfSignedLeafIsTrustedOnlyThroughAPin() async throws {
        let pinned = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("selfsigned"), try pin("unrelated")], allowInvalidCertificates: true
            ))
        #expect(try await perform(fixture.url("selfSigned"), pinned).statusCode == 200)
        let byCertificate = try SecurityPolicy(
            SecuritySettings(
                pinning: .certificate, certificates: [fixture.file("selfsigned.pem")]))
        #expect(try await perform(fixture.url("selfSigned"), byCertificate).statusCode == 200)
        #expect(throws: SecurityPolicyError.self) {
            _ = try SecurityPolicy(SecuritySettings(allowInvalidCertificates: true, validatesDomainName: true))
        }
        // Allowing invalid certificates never disables a pin.
        let wrongPin = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("unrelated")], allowInvalidCertificates: true))
        #expect(try await failure(fixture.url("selfSigned"), wrongPin).reason == .pinMismatch)
    }

    @Test func certificateModeTrustsOnlyThePinnedCertificates() async throws {
        // caFile would trust the chain, but in certificate mode the pinned certificates are the only anchors.
        let unrelated = try SecurityPolicy(
            SecuritySettings(
                pinning: .certificate, certificates: [fixture.file("unrelated.pem")],
                caFile: fixture.file("root.pem")))
        let error = try await failure(fixture.url("chain"), unrelated)
        #expect(error.tlsEvaluation?.verdict == .certificateInvalid)
        #expect(error.tlsEvaluation?.problem == .unknownIssuer)
        // An expired pinned leaf is still expired: allowInvalidCertificates does not relax certificate mode.
        let expired = try SecurityPolicy(
            SecuritySettings(
                pinning: .certificate, certificates: [fixture.file("expired.pem")], allowInvalidCertificates: true))
        #expect(try await failure(fixture.url("expired"), expired).tlsEvaluation?.problem == .expired)
    }

    @Test func secondKeyWithTheSameSubjectDoesNotMatchTheLeafPin() async throws {
        let leafPin = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [try pin("leaf")], caFile: fixture.file("root.pem")))
        let error = try await failure(fixture.url("secondKey"), leafPin)
        #expect(error.reason == .pinMismatch)
        #expect(error.message.contains(fixture.pins["leaf2"] ?? "-"))
        #expect(error.message.contains("configured pins: \(fixture.pins["leaf"] ?? "-")"))
        let interPin = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("inter")], caFile: fixture.file("root.pem")))
        #expect(try await perform(fixture.url("secondKey"), interPin).tlsEvaluation?.matchedDepth == 1)
        let leafCertificate = try SecurityPolicy(
            SecuritySettings(pinning: .certificate, certificates: [fixture.file("leaf.pem")]))
        #expect(try await failure(fixture.url("secondKey"), leafCertificate).reason == .tlsFailure)
    }

    @Test func nothingIsSentToAServerThatFailsThePin() async throws {
        let recorder = try TLSRecorderServer(chain: fixture.file("chain.pem"), key: fixture.file("leaf.key"))
        defer { recorder.stop() }
        let url = "https://localhost:\(recorder.port)/secret?token=abc"
        let wrong = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("unrelated")], caFile: fixture.file("root.pem")))
        let error = try await failure(url, wrong)
        #expect(error.reason == .pinMismatch)
        // The control: the same server with the right pin receives the request.
        let right = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [try pin("inter")], caFile: fixture.file("root.pem")))
        #expect(try await perform(url, right).statusCode == 200)
        // The server logs each connection from its own thread when it ends: the refused one may end (and be
        // logged) after the control's, so the lines are awaited and not read in order.
        var log = recorder.log
        for _ in 0..<50 where log.count < 2 {
            try await Task.sleep(for: .milliseconds(100))
            log = recorder.log
        }
        #expect(log.count == 2)
        let refused = log.filter { $0.hasPrefix("handshake-failed") }
        #expect(refused.count == 1)
        #expect(refused.allSatisfy { !$0.contains("GET") && !$0.contains("token") })
        #expect(log.filter { $0.contains("GET /secret?token=abc") }.count == 1)
    }

    @Test func aRedirectToAnotherHostDoesNotInheritThePins() async throws {
        // localhost is pinned to its leaf; the redirect lands on 127.0.0.1, whose leaf has another key.
        let pinned = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [try pin("leaf")], caFile: fixture.file("root.pem")))
        let response = try await perform(fixture.url("redirect"), pinned)
        #expect(response.statusCode == 200)
        #expect(response.effectiveURL.hasPrefix("https://127.0.0.1:"))
        #expect(response.tlsEvaluation?.policyApplied == false)
        #expect(response.peerCertificates.first?.publicKeyPin == fixture.pins["ip"])
        // Nor the relaxed trust: the landing host gets full verification (its root is unknown without caFile).
        let relaxed = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("leaf")], allowInvalidCertificates: true))
        let error = try await failure(fixture.url("redirect"), relaxed)
        #expect(error.tlsEvaluation?.problem == .unknownIssuer)
        #expect(error.tlsEvaluation?.policyApplied == false)
    }

    @Test func pinsApplyToTheHostsTheyAreDeclaredFor() async throws {
        var policy = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("unrelated"), try pin("selfsigned")],
                caFile: fixture.file("root.pem"), hosts: ["api.example.com"]))
        let elsewhere = try await perform(fixture.url("chain"), policy)
        #expect(elsewhere.statusCode == 200)
        #expect(elsewhere.tlsEvaluation?.policyApplied == false)
        policy.settings.hosts = ["LOCALHOST"]
        #expect(try await failure(fixture.url("chain"), policy).reason == .pinMismatch)
    }

    @Test func aConnectionCheckedUnderAnotherPolicyIsNotReused() async throws {
        let plain = try SecurityPolicy(SecuritySettings(caFile: fixture.file("root.pem")))
        #expect(try await perform(fixture.url("chain"), plain).statusCode == 200)
        let wrong = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("unrelated")], caFile: fixture.file("root.pem")))
        #expect(try await failure(fixture.url("chain"), wrong).reason == .pinMismatch)
        #expect(try await perform(fixture.url("chain"), plain).statusCode == 200)
        // Requests pinning nothing do not ride on pinned connections either way.
        var request = try HTTPRequest(url: fixture.url("chain")).trusting(caFile: fixture.file("root.pem"))
        #expect(try await session.perform(request).statusCode == 200)
        request.security = wrong
        await #expect(throws: HTTPError.self) { try await self.session.perform(request) }
    }

    @Test func mutualTLSPresentsTheClientCertificate() async throws {
        var policy = try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try pin("inter"), try pin("unrelated")], caFile: fixture.file("root.pem")))
        let without = try await perform(fixture.url("mutual"), policy)
        #expect(without.statusCode == 400)
        policy.settings.clientCertificate = fixture.file("client.pem")
        policy.settings.clientKey = fixture.file("client.key")
        let with = try await perform(fixture.url("mutual"), policy)
        #expect(with.statusCode == 200)
        #expect(String(decoding: with.body, as: UTF8.self) == "CN=apitest client")
    }

    @Test func certificateFactsOnEveryResponseOfAReusedConnection() async throws {
        let request = try HTTPRequest(url: fixture.url("chain")).trusting(caFile: fixture.file("root.pem"))
        let first = try await session.perform(request)
        let second = try await session.perform(request)
        // The second request rode on the first one's connection: no new TCP connect, no new handshake.
        #expect(second.timings.connect == .zero)
        #expect(second.timings.tlsHandshake == .zero)
        for response in [first, second] {
            let leaf = try #require(response.peerCertificates.first)
            #expect(leaf.subject == "CN=localhost")
            #expect(leaf.issuer == "CN=apitest pin intermediate")
            #expect(leaf.subjectAlternativeNames == ["DNS:localhost"])
            #expect(leaf.publicKeyPin == fixture.pins["leaf"])
            #expect(leaf.sha256Fingerprint.count == 95)
            #expect(leaf.notAfter > Date())
            #expect(response.peerCertificates.count == 2)
        }
        // Plain HTTP has none.
        let plain = try await session.perform(HTTPRequest(url: "http://127.0.0.1:\(fixture.ports["plain"] ?? 0)/"))
        #expect(String(decoding: plain.body, as: UTF8.self) == "plain")
        #expect(plain.peerCertificates.isEmpty)
        #expect(plain.tlsEvaluation == nil)
    }
}
