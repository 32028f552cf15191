import Foundation
import Testing

/// `apitest pin-check` and `apitest run` with a `security:` block, as a user runs them.
@Suite(.serialized) final class PinCheckCLITests {
    let fixture: PinningFixture

    init() async throws {
        fixture = try await PinningFixture.start()
    }

    deinit { fixture.stop() }

    func apitest(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(try TestBinaries.url("apitest"), arguments, environment: ["NO_COLOR": "1"])
    }

    func pin(_ name: String) -> String { fixture.pins[name] ?? "missing" }

    @Test func exitCodesNameEachOutcome() async throws {
        let root = fixture.file("root.pem")
        let matched = try await apitest([
            "pin-check", fixture.url("chain"), "--ca-file", root, "--pin", pin("unrelated"), "--pin", pin("inter"),
        ])
        #expect(matched.exitCode == 0, "\(matched.stdout)\(matched.stderr)\n\(fixture.serverLog())")
        #expect(matched.stdout.contains("OK: pin matched at depth 1 (CN=apitest pin intermediate): \(pin("inter"))"))
        let mismatch = try await apitest([
            "pin-check", fixture.url("chain"), "--ca-file", root, "--pin", pin("unrelated"),
        ])
        #expect(mismatch.exitCode == 4, "\(mismatch.stdout)\n\(fixture.serverLog())")
        #expect(mismatch.stdout.contains("FAIL: pin mismatch"))
        #expect(mismatch.stdout.contains("configured pins:  \(pin("unrelated"))"))
        let expired = try await apitest(["pin-check", fixture.url("expired"), "--ca-file", root])
        #expect(expired.exitCode == 5, "\(expired.stdout)\n\(fixture.serverLog())")
        #expect(expired.stdout.contains("FAIL: certificate expired at depth 0 (CN=localhost)"))
        let future = try await apitest(["pin-check", fixture.url("notYetValid"), "--ca-file", root])
        #expect(future.exitCode == 5, "\(future.stdout)\n\(fixture.serverLog())")
        #expect(future.stdout.contains("FAIL: certificate not yet valid at depth 0 (CN=localhost)"))
        let hostname = try await apitest(["pin-check", fixture.url("otherHost"), "--ca-file", root])
        #expect(hostname.exitCode == 5, "\(hostname.stdout)\n\(fixture.serverLog())")
        #expect(hostname.stdout.contains("hostname mismatch"))
        let unknown = try await apitest(["pin-check", fixture.url("chain")])
        #expect(unknown.exitCode == 5, "\(unknown.stdout)\n\(fixture.serverLog())")
        #expect(unknown.stdout.contains("unknown issuer"))
        let selfSigned = try await apitest(["pin-check", fixture.url("selfSigned"), "--ca-file", root])
        #expect(selfSigned.stdout.contains("certificate self-signed"))
        let expiring = try await apitest(["pin-check", fixture.url("chain"), "--ca-file", root, "--min-days", "60"])
        #expect(expiring.exitCode == 6, "\(expiring.stdout)\n\(fixture.serverLog())")
        #expect(expiring.stdout.contains("expiring: depth 0 (CN=localhost)"))
        let refused = try await apitest(["pin-check", "https://localhost:\(try closedPort())/"])
        #expect(refused.exitCode == 7)
        let usage = try await apitest(["pin-check", fixture.url("chain"), "--pin", "sha256//short"])
        #expect(usage.exitCode == 2)
        let afnRule = try await apitest(["pin-check", fixture.url("chain"), "--allow-invalid-certificates"])
        #expect(afnRule.exitCode == 2)
        #expect(afnRule.stderr.contains("you must pin it"))
    }

    @Test func printedPinsEqualTheOpenSSLPipeline() async throws {
        let result = try await apitest([
            "pin-check", fixture.url("chain"), "--ca-file", fixture.file("root.pem"), "--print", "--format", "json",
        ])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["pins"] as? [String] == [pin("leaf"), pin("inter"), pin("root")])
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["publicKeyPin"] as? String } == [pin("leaf"), pin("inter"), pin("root")])
        #expect(chain.first?["subject"] as? String == "CN=localhost")
        #expect((chain.first?["daysLeft"] as? Int).map { (28...30).contains($0) } == true)

        let text = try await apitest([
            "pin-check", fixture.url("chain"), "--ca-file", fixture.file("root.pem"), "--print",
        ])
        #expect(text.stdout.contains("    - \"\(pin("inter"))\"  # depth 1: CN=apitest pin intermediate"))
        #expect(text.stdout.contains("curl --pinnedpubkey '\(pin("leaf"))'"))
    }

    @Test func certificateModeAndConnectTo() async throws {
        // `--connect-to` reaches the server through a name that does not resolve.
        let port = fixture.ports["chain"] ?? 0
        let result = try await apitest([
            "pin-check", "https://localhost:\(port)/", "--certificate", fixture.file("inter.pem"),
        ])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("mode: certificate"))
        // The mode flag keeps pin-check's spelling, --mode, beside run's, --pinning: one flag of the TLS group.
        for spelling in ["--mode", "--pinning"] {
            let explicit = try await apitest([
                "pin-check", "https://localhost:\(port)/", spelling, "certificate", "--certificate",
                fixture.file("inter.pem"),
            ])
            #expect(explicit.exitCode == 0, "\(spelling): \(explicit.stdout)\(explicit.stderr)")
            #expect(explicit.stdout.contains("mode: certificate"), "\(spelling)")
        }
        let byAddress = try await apitest([
            "pin-check", "https://staging.invalid:\(port)/", "--connect-to", "staging.invalid:127.0.0.1",
            "--ca-file", fixture.file("root.pem"), "--no-validate-domain",
        ])
        #expect(byAddress.exitCode == 0, "\(byAddress.stdout)")
    }

    @Test func runEnforcesASuiteSecurityBlock() async throws {
        let directory = fixture.directory
        let suite = directory.appendingPathComponent("pinned.yaml")
        try """
        name: pinned
        baseURL: \(fixture.url("chain"))
        security:
          pinning: publicKey
          pins: ["\(pin("unrelated"))", "\(pin("inter"))"]
          caFile: root.pem
        tests:
          - name: health
            request: {url: /}
            expect: {status: 200}
        """.write(to: suite, atomically: true, encoding: .utf8)
        let passed = try await apitest(["run", suite.path])
        #expect(passed.exitCode == 0, "\(passed.stdout)\(passed.stderr)")
        // The run flag replaces the suite's pins: now nothing matches, and the test fails with the chain's pins.
        let failed = try await apitest(["run", suite.path, "--pin", pin("unrelated"), "--pin", pin("root") + "x"])
        #expect(failed.exitCode == 2)
        let mismatch = try await apitest(["run", suite.path, "--pin", pin("unrelated")])
        #expect(mismatch.exitCode == 1)
        #expect(mismatch.stdout.contains("certificate pinning failed"))
        #expect(mismatch.stdout.contains(pin("leaf")))
        #expect(mismatch.stderr.contains("warning: --pin: only one pin"))

        // A file that holds no certificate is found before anything runs, by run and by validate.
        let bad = directory.appendingPathComponent("bad.yaml")
        try """
        name: bad
        security:
          pinning: certificate
          certificates: leaf.key
        tests:
          - name: a
            request: {url: "\(fixture.url("chain"))"}
        """.write(to: bad, atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let result = try await apitest([command, bad.path])
            #expect(result.exitCode == 2)
            #expect(result.stderr.contains("bad.yaml:2:1: security: cannot read certificates from"))
        }
    }
}
