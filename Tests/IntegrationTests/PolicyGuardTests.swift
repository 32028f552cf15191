import APITestSecurity
import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// The last guard on its own (`prereq_callback` in `CTLSShim.c`): a pinned request that libcurl hands a connection
/// opened without pins is not sent on it; it gets a connection of its own, whose handshake its pins check. The
/// first guard (a cipher-list rule naming the policy, which keeps libcurl from matching such connections at all) is
/// turned off for these requests, so only the last one stands between the request and the unchecked connection.
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

    func request(_ pins: [String]) throws -> HTTPRequest {
        var request = HTTPRequest(url: fixture.url("chain"))
        request.security = try SecurityPolicy(
            SecuritySettings(
                pinning: pins.isEmpty ? .none : .publicKey,
                pins: try pins.map { try PublicKeyPin(try #require(fixture.pins[$0])) },
                caFile: fixture.file("root.pem")))
        request.keepsPolicyConnectionsApart = false
        return request
    }

    @Test func aPinnedRequestNeverRidesOnAConnectionOpenedWithoutPins() async throws {
        let unpinned = try request([])
        let opened = try await session.perform(unpinned)
        #expect(opened.statusCode == 200)
        #expect(opened.tlsEvaluation != nil)
        // The control: with the first guard off, libcurl does hand the open connection to the next request.
        let reused = try await session.perform(unpinned)
        #expect(reused.statusCode == 200)
        #expect(reused.tlsEvaluation == nil, "the connection was not reused: the guard below is not exercised")

        // Wrong pins: the request does its own handshake, which fails the pin; sent on the open connection, it
        // would have passed.
        do {
            let response = try await session.perform(try request(["unrelated"]))
            Issue.record("a wrongly pinned request passed (HTTP \(response.statusCode)) on an unchecked connection")
        } catch let error as HTTPError {
            #expect(error.reason == .pinMismatch, "\(error.message)")
            #expect(error.tlsEvaluation?.policyApplied == true)
        }
        // The right pins pass, over a connection checked for them.
        let pinned = try await session.perform(try request(["inter"]))
        #expect(pinned.statusCode == 200)
        #expect(pinned.tlsEvaluation?.policyApplied == true)
        #expect(pinned.tlsEvaluation?.matchedDepth == 1)
    }
}
