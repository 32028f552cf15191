import Foundation
import Testing

/// `--report-ctrf` masks secrets as every report does: an environment secret sent in a header and in the query,
/// echoed back by the demo API and shown by a failing check's message, is in the CTRF file in no form (as sent,
/// percent-encoded, base64), where the failure's message and trace still are.
@Suite struct CTRFSecretTests {
    @Test func aSecretInAHeaderAndAFailingChecksMessageIsMaskedInCTRF() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ctrf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let suite = scratch.appendingPathComponent("echo.yaml").path
        try """
        name: Echo
        baseURL: \(demo.baseURL)
        tests:
          - name: echoes the token
            request:
              url: "/echo?token={{ env.CTRF_TOKEN }}"
              headers: {X-Token: "{{ env.CTRF_TOKEN }}"}
            expect:
              json: {$.query: "token=nothing"}
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        let secret = "ctrf s3cret/t0ken+42"
        let report = scratch.appendingPathComponent("ctrf.json").path
        let result = try await runAPITest(
            ["run", suite, "--report-ctrf", report], environment: ["CTRF_TOKEN": secret])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        // The failure is there, its actual value masked.
        #expect(text.contains("$.query: expected"), "\(text)")
        #expect(text.contains("•••••"), "\(text)")
        let forms = [
            secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
            "ctrf%20s3cret", "ctrf+s3cret", "s3cret/t0ken", "s3cret\\/t0ken", Data(secret.utf8).base64EncodedString(),
        ]
        for form in forms {
            #expect(!text.contains(form), "\(form) in \(text)")
        }
    }
}
