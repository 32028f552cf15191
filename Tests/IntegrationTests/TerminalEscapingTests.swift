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
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
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

    /// The fault server's `/forge` answers a JSON member whose name holds line breaks, a fake pass line and a fake
    /// summary, and a list whose first item holds a line break and a fake TAP line. Paths and step names built from
    /// them are shown on one line in the console, JUnit and HTML: no server text starts a line of its own.
    @Test func namesFromTheServerCannotForgeLines() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            name: forge
            baseURL: \(server.baseURL)
            tests:
              - name: schema
                request: {url: /forge}
                expect: {schema: {type: object, properties: {items: {type: array}}, additionalProperties: false}}
              - name: equals
                request: {url: /forge}
                expect: {json: {$: {equals: {items: []}}}}
              - name: items
                steps:
                  - request: {url: /forge}
                    capture: {items: {jsonpath: $.items}}
                  - forEach: {items: "{{ items }}", as: item}
                    request: {url: /forge}
                    expect: {status: 201}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let folder = file.deletingLastPathComponent()
        let junit = folder.appendingPathComponent("junit.xml")
        let html = folder.appendingPathComponent("report.html")
        let result = try await runAPITest([
            "run", file.path, "--no-color", "--report-junit", junit.path, "--report-html", html.path,
        ])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 tests: 0 passed, 3 failed"), "\(result.stdout)")
        let junitText = try String(contentsOf: junit, encoding: .utf8)
        let htmlText = try String(contentsOf: html, encoding: .utf8)
        for (output, text) in ["console": result.stdout, "junit.xml": junitText, "report.html": htmlText] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            for forged in ["✔ forge › all good (1 ms)", "1 test: 1 passed (2 ms)", "ok 5 - forged", "Bail out! x"] {
                #expect(!lines.contains { $0.hasPrefix(forged) }, "\(output) has the line '\(forged)': \(text)")
            }
        }
        // The paths still name the member, escaped.
        #expect(result.stdout.contains(#"x\n✔ forge › all good"#), "\(result.stdout)")
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
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
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
