import Foundation
import Testing

/// Issue 40: a WebSocket upgrade sends the cookies of the test's jar that an earlier HTTP step stored (by domain,
/// path and `Secure`), and the cookies its 101 answer sets are stored for the steps after it; against a Starlette
/// app on uvicorn (from PyPI).
@Suite(.serialized) struct WebSocketCookieTests {
    @Test func theUpgradeSendsAndStoresTheJarsCookies() async throws {
        let starlette = try WebSocketServer(mode: "starlette")
        defer { starlette.stop() }
        let http = starlette.baseURL.replacingOccurrences(of: "ws://", with: "http://")
        let file = try writeTemporarySuite(
            """
            baseURL: \(http)
            tests:
              - name: cookies both ways
                steps:
                  - request: {url: /login}
                  - websocket:
                      url: \(starlette.baseURL)/cookies
                      actions:
                        - expect:
                            json:
                              $.cookie: {matches: "^session=abc123$"}
                        - close: {expect: {code: 1000}}
                  - request: {url: /whoami}
                    expect:
                      json:
                        $.cookie: {contains: "ws_seen=yes"}
              - name: a test of its own starts without them
                steps:
                  - websocket:
                      url: \(starlette.baseURL)/cookies
                      headers: {Cookie: "own=1"}
                      actions:
                        - expect: {json: {$.cookie: own=1}}
            """)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", file.path, "--jobs", "1", "--verbose"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed"), "\(result.stdout)")
    }
}
