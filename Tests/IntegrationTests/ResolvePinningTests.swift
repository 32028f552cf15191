import Foundation
import Testing

/// `resolve` and `connectTo` compose with `security:`: the connection goes to 127.0.0.1 while the certificate's host
/// name, SNI and the pins are those of the host the suite names (nginx serving a chain for `other.example`, made by
/// openssl at test time).
@Suite(.serialized) struct ResolvePinningTests {
    static func run(
        _ fixture: PinningFixture, pin: String, transport: String, url: String
    ) async throws -> ProcessResult {
        let suite = try writeTemporarySuite(
            """
            name: pinned and resolved
            security:
              pinning: publicKey
              pins: ["\(pin)"]
              caFile: \(fixture.file("root.pem"))
            tests:
              - name: health
                request:
                  url: "\(url)"
                  \(transport)
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        return try await runAPITest(["run", suite.path, "--curl", "/dev/stdout"])
    }

    @Test func pinsApplyToTheSuitesHostWhileTheConnectionGoesToLoopback() async throws {
        let fixture = try await PinningFixture.start()
        defer { fixture.stop() }
        let port = try #require(fixture.ports["otherHost"])
        let leafPin = try #require(fixture.pins["other"])
        let url = "https://other.example:\(port)/"

        // resolve: the name does not exist in DNS; the certificate for it is checked and its key pinned.
        let resolved = try await Self.run(
            fixture, pin: leafPin, transport: "resolve: [\"other.example:\(port):127.0.0.1\"]", url: url)
        #expect(resolved.exitCode == 0, "\(resolved.stdout)")
        #expect(resolved.stdout.contains("--resolve other.example:\(port):127.0.0.1"), "\(resolved.stdout)")

        // connectTo from another name and port to the server's address.
        let connected = try await Self.run(
            fixture, pin: leafPin, transport: "connectTo: [\"other.example:443:127.0.0.1:\(port)\"]",
            url: "https://other.example/")
        #expect(connected.exitCode == 0, "\(connected.stdout)")

        // The same with a pin the chain does not hold: refused in the handshake, nothing sent.
        let wrongPin = try #require(fixture.pins["unrelated"])
        let refused = try await Self.run(
            fixture, pin: wrongPin, transport: "resolve: [\"other.example:\(port):127.0.0.1\"]", url: url)
        #expect(refused.exitCode == 1)
        #expect(
            refused.stdout.contains("certificate pinning failed: no certificate of the chain matches a pin"),
            "\(refused.stdout)")

        // The host name is the suite's: a certificate for other.example does not pass for a name resolved to
        // the same address.
        let otherName = try await Self.run(
            fixture, pin: leafPin, transport: "resolve: [\"api.example.test:\(port):127.0.0.1\"]",
            url: "https://api.example.test:\(port)/")
        #expect(otherName.exitCode == 1)
        #expect(!otherName.stdout.contains("1 passed"), "\(otherName.stdout)")
        #expect(otherName.stdout.contains("certificate hostname mismatch at depth 0 (CN=other.example)"))
    }
}
