import APITestSecurity
import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// The last guard (`prereq_callback` in `CTLSShim.c`), reached as a run reaches it: a policy without `hosts` pins
/// the host of each request's URL, so a redirect under it lands on another host with plain verification, over a
/// connection the policy never checked. libcurl keeps that connection for the policy (the cipher-list rule names
/// the policy, not the host), and a later request of the same policy straight to that host is offered it: the
/// guard must refuse it, and the request is sent again on a connection of its own, whose handshake its pins check.
@Suite(.serialized) final class PolicyGuardTests {
    let fixture: PinningFixture
    let session = SessionManager()

    init() async throws {
        fixture = try await PinningFixture.start()
    }

    deinit {
        session.shutdown()
        fixture.stop()
    }

    func policy(pinning pin: String) throws -> SecurityPolicy {
        try SecurityPolicy(
            SecuritySettings(
                pinning: .publicKey, pins: [try PublicKeyPin(try #require(fixture.pins[pin]))],
                caFile: fixture.file("root.pem")))
    }

    func perform(_ url: String, _ policy: SecurityPolicy) async throws -> HTTPResponse {
        var request = HTTPRequest(url: url)
        request.security = policy
        return try await session.perform(request)
    }

    /// Opens a connection to the landing host (127.0.0.1, the `ipLeaf` server) under `policy` without checking its
    /// pins there: the redirect from localhost, where they apply.
    func openUncheckedConnection(_ policy: SecurityPolicy) async throws {
        let redirected = try await perform(fixture.url("redirect"), policy)
        #expect(redirected.statusCode == 200)
        #expect(redirected.effectiveURL.hasPrefix("https://127.0.0.1:"))
        #expect(redirected.tlsEvaluation?.policyApplied == false)
    }

    @Test func aPinnedRequestIsNotSentOnAConnectionItsPinsNeverChecked() async throws {
        // localhost is pinned to its leaf; 127.0.0.1's leaf has another key.
        let pinned = try policy(pinning: "leaf")
        try await openUncheckedConnection(pinned)
        // Sent over the redirect's connection, this request would pass; its own handshake fails the pin.
        do {
            let response = try await perform(fixture.url("ipLeaf", host: "127.0.0.1"), pinned)
            Issue.record("a wrongly pinned request passed (HTTP \(response.statusCode)) on an unchecked connection")
        } catch let error as HTTPError {
            #expect(error.reason == .pinMismatch, "\(error.message)")
            #expect(error.tlsEvaluation?.policyApplied == true)
            #expect(error.tlsEvaluation?.chain.first?.publicKeyPin == fixture.pins["ip"])
        }
    }

    @Test func aRightlyPinnedRequestGetsAConnectionItsPinsChecked() async throws {
        // The intermediate signs both leaves: the pins hold on either host.
        let pinned = try policy(pinning: "inter")
        try await openUncheckedConnection(pinned)
        let checked = try await perform(fixture.url("ipLeaf", host: "127.0.0.1"), pinned)
        #expect(checked.statusCode == 200)
        // A handshake of its own, which the pins checked (over the redirect's connection, the response would carry
        // no evaluation: no handshake was done for it).
        #expect(checked.tlsEvaluation?.policyApplied == true)
        #expect(checked.tlsEvaluation?.matchedDepth == 1)
        #expect(checked.timings.tlsHandshake > .zero)
    }
}
