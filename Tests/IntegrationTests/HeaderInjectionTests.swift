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
        let result = try await runAPITest(["run", file.path, "--jobs", "1"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("! suite › smuggle"))
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
        let result = try await runAPITest(["run", file.path, "--var", "tag=a\nX-Evil: 1"])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the value of header 'X-Tag' contains a line feed (LF)"), "\(result.stdout)")
        #expect(server.receivedRequestLines.isEmpty)
    }
}
