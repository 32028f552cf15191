import Foundation
import Testing

/// Issue 12 item 5: a value captured from a hostile server that holds CR/LF never reaches the wire inside a header.
@Suite struct HeaderInjectionTests {
    /// The fault server answers `/crlf-token` with a token holding CRLF and a whole `DELETE /admin/users` request.
    /// Captured and sent in a header of the next step, it would plant a header and smuggle the DELETE (carrying
    /// the tester's `Authorization`); the step errors naming the header, and the server never sees the request.
    @Test func aCapturedLineBreakErrorsTheStepAndNothingIsSent() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(server.baseURL)
            tests:
              - name: smuggle
                steps:
                  - request: {url: /crlf-token}
                    capture: {token: {jsonpath: $.token}}
                  - request:
                      url: /second-step
                      headers: {Authorization: Bearer tester-credentials, X-Token: "{{ token }}"}
                  - request: {url: /third-step}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let curlFile = file.deletingLastPathComponent().appendingPathComponent("requests.sh")
        let report = file.deletingLastPathComponent().appendingPathComponent("report.json")
        let result = try await runAPITest([
            "run", file.path, "--jobs", "1", "--curl", curlFile.path, "--report-json", report.path,
        ])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("! suite › smuggle"))
        // No command sends the refused request either: running it would do the smuggling. The --curl file holds
        // the requests sent (the first step's), and no reproduce line or report carries the planted header.
        let commands = try String(contentsOf: curlFile, encoding: .utf8)
        #expect(commands.contains("/crlf-token"), "\(commands)")
        #expect(!commands.contains("X-Injected") && !commands.contains("second-step"), "\(commands)")
        #expect(!result.stdout.contains("reproduce:"), "\(result.stdout)")
        let json = try String(contentsOf: report, encoding: .utf8)
        #expect(!json.contains(#""command""#), "the report has a command for the refused request: \(json)")
        #expect(
            result.stdout.contains(
                "the request was not sent: the value of header 'X-Token' contains a carriage return (CR)"),
            "\(result.stdout)")
        let lines = server.receivedRequestLines
        #expect(lines == ["GET /crlf-token HTTP/1.1"], "the server received \(lines)")
        #expect(!lines.contains { $0.contains("DELETE") || $0.contains("second-step") || $0.contains("third-step") })
    }

    /// The same through a variable from the command line: every source is checked where the request is sent.
    @Test func aLineBreakFromTheCommandLineIsRefusedToo() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let file = try writeTemporarySuite(
            """
            baseURL: \(server.baseURL)
            variables: {tag: plain}
            tests:
              - name: from a variable
                request:
                  url: /tagged
                  headers: {X-Tag: "{{ tag }}"}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", file.path, "--var", "tag=a\nX-Evil: 1"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the value of header 'X-Tag' contains a line feed (LF)"), "\(result.stdout)")
        #expect(server.receivedRequestLines.isEmpty)
    }
}
