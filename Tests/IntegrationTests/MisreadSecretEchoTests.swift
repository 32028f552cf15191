import Foundation
import Testing

/// A server that reads a header's UTF-8 bytes as Latin-1 and echoes them JSON-escaped (as httpbin's `/headers`
/// does; secret_echo_server.py reads requests the same way) shows none of a non-ASCII secret in any output.
@Suite struct MisreadSecretEchoTests {
    static let secret = "horsebattery-é-staple42"

    @Test func aSecretHeaderEchoedAsLatin1IsMaskedInTheConsoleAndReports() async throws {
        let server = try FaultServer(script: "secret_echo_server.py")
        defer { server.stop() }
        let suite = try writeTemporarySuite(
            """
            name: latin-1 echo
            baseURL: \(server.baseURL)/
            tests:
              - name: echo
                request:
                  url: headers
                  headers: {X-K: "{{ env.TOK }}"}
                expect:
                  status: 200
                  json: {$.nothing: {exists: true}}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await runAPITest(
            ["run", suite.path, "--verbose", "--report-json", report.path], environment: ["TOK": Self.secret])
        #expect(result.exitCode == 1, "\(result.stdout)")
        let json = try String(contentsOf: report, encoding: .utf8)
        // The echo reached the outputs (its other headers show), with the secret masked in every spelling.
        #expect(result.stdout.contains("x-k"), "\(result.stdout)")
        #expect(json.contains("x-k"))
        let leaks = [Self.secret, "horsebattery", "staple42", #"\u00c3\u00a9"#, "Ã©"]
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr), ("report.json", json)] {
            for leak in leaks { #expect(!text.contains(leak), "\(name) shows '\(leak)'") }
        }
    }
}
