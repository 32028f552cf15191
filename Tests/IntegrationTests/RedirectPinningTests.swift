import APITestSecurity
import Foundation
import Testing

@testable import APITestHTTP

/// Redirects that apitest follows itself, hop by hop (a request with fields bound to its origin), keep what
/// libcurl's following guarantees for pins: they apply to the first request's host, never to a host redirected to,
/// which gets full default verification; and the bound field does not reach that host.
@Suite(.serialized) final class RedirectPinningTests {
    let fixture: PinningFixture
    let session = SessionManager()

    init() async throws {
        fixture = try await PinningFixture.start()
    }

    deinit {
        session.shutdown()
        fixture.stop()
    }

    func request(_ policy: SecurityPolicy) -> HTTPRequest {
        var request = HTTPRequest(url: fixture.url("redirect"), headers: ["X-Api-Key": "k-123"])
        request.originBoundHeaders = OriginBoundHeaders(["X-Api-Key"])
        request.security = policy
        return request
    }

    @Test func aRedirectFollowedHopByHopDoesNotCarryThePinsElsewhere() async throws {
        // localhost is pinned to its leaf; the redirect lands on 127.0.0.1, whose leaf has another key.
        let leafPin = try PublicKeyPin(try #require(fixture.pins["leaf"]))
        let pinned = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [leafPin], caFile: fixture.file("root.pem")))
        let response = try await session.perform(request(pinned))
        #expect(response.statusCode == 200)
        #expect(response.redirectCount == 1)
        #expect(response.effectiveURL.hasPrefix("https://127.0.0.1:"))
        #expect(response.tlsEvaluation?.policyApplied == false)
        #expect(response.peerCertificates.first?.publicKeyPin == fixture.pins["ip"])
        // Nor the relaxed trust: the landing host gets full verification (its root is unknown without caFile).
        let relaxed = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [leafPin], allowInvalidCertificates: true))
        do {
            let response = try await session.perform(request(relaxed))
            Issue.record("expected a failure, got HTTP \(response.statusCode)")
        } catch let error as HTTPError {
            #expect(error.tlsEvaluation?.problem == .unknownIssuer, "\(error.message)")
            #expect(error.tlsEvaluation?.policyApplied == false)
        }
        // The first hop itself is pinned: a wrong pin stops it there.
        let unrelated = try PublicKeyPin(try #require(fixture.pins["unrelated"]))
        let wrong = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [unrelated], caFile: fixture.file("root.pem")))
        await #expect(throws: HTTPError.self) { try await self.session.perform(self.request(wrong)) }
    }

    @Test func aRequestWithBoundFieldsSharesTheConnectionsOfItsPolicy() async throws {
        let leafPin = try PublicKeyPin(try #require(fixture.pins["leaf"]))
        let policy = try SecurityPolicy(
            SecuritySettings(pinning: .publicKey, pins: [leafPin], caFile: fixture.file("root.pem")))
        var plain = HTTPRequest(url: fixture.url("chain"))
        plain.security = policy
        let opened = try await session.perform(plain)
        #expect(opened.tlsEvaluation?.policyApplied == true)
        // Followed hop by hop, its first transfer is the policy's as it stands: the open connection carries it.
        var bound = plain
        bound.headers.add(name: "X-Api-Key", value: "k-123")
        bound.originBoundHeaders = OriginBoundHeaders(["X-Api-Key"])
        let reused = try await session.perform(bound)
        #expect(reused.statusCode == 200)
        #expect(reused.tlsEvaluation == nil, "a new connection was opened")
    }
}
