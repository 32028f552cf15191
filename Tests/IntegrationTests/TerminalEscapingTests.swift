import Foundation
import Testing

/// Issue 12 item 9: text from the network never reaches the terminal raw (no window title, no cleared screen, no
/// line overwritten by a fake "all passed"), and `--verbose` shows the request headers that went on the wire.
@Suite struct TerminalEscapingTests {
    /// The fault server's `/hostile` sends ESC ] 0 ; title BEL, ESC [ 2 J and a CR before a fake result line, in
    /// a header and in the body.
    @Test func verboseOutputAndFailuresShowControlCharactersEscaped() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: hostile
                request: {url: /hostile}
                expect:
                  headers: {X-Hostile: harmless}
                  body: {equals: harmless}
            """)
        let result = try await runAPITest(["run", file.path, "--verbose"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        let raw = Array(result.stdout.utf8)
        #expect(!raw.contains(0x1B), "ESC reached the terminal")
        #expect(!raw.contains(0x07), "BEL reached the terminal")
        #expect(!raw.contains(0x0D), "CR reached the terminal")
        let escaped = #"\u{1B}]0;pwned\u{7}\u{1B}[2J\rALL 12 TESTS PASSED"#
        #expect(result.stdout.contains("< X-Hostile: \(escaped)"), "\(result.stdout)")
        #expect(result.stdout.contains(#"< {"note": ""# + escaped), "the body, escaped")
        // The failure messages quote the same values; escaped there too.
        #expect(!result.stdout.contains("\nALL 12 TESTS PASSED"))
    }

    @Test func verboseShowsTheHeadersLibcurlAdds() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let file = try writeTemporarySuite(
            """
            tests:
              - name: post
                request: {method: POST, url: "\(demo.baseURL)/echo", json: {a: 1}, headers: {X-Mine: "1"}}
            """)
        let result = try await runAPITest(["run", file.path, "--verbose"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        for line in [
            "> POST \(demo.baseURL)/echo", "> Host: 127.0.0.1:\(demo.port)", "> Accept: */*", "> Accept-Encoding: ",
            "> Content-Length: 7", "> Content-Type: application/json", "> X-Mine: 1", "> User-Agent: apitest/",
        ] {
            #expect(result.stdout.contains("    " + line), "no '\(line)' in \(result.stdout)")
        }
        // Without --verbose nothing is recorded or shown.
        let quiet = try await runAPITest(["run", file.path])
        #expect(!quiet.stdout.contains("Host:"))
    }
}
