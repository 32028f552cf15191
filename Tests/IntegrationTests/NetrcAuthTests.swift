import Foundation
import Testing

/// `auth: {netrc: ...}` end to end against httpbin (a server nobody here wrote): libcurl reads the credentials for
/// the URL's host from the file the suite names, or from `~/.netrc`, and they never show in the output.
@Suite(.serialized) final class NetrcAuthTests {
    let httpbin: HTTPBinServer

    init() throws {
        httpbin = try HTTPBinServer()
    }

    deinit { httpbin.stop() }

    @Test func theNamedFileAndHomesNetrcSupplyTheCredentials() async throws {
        let suite = try writeTemporarySuite(
            """
            name: netrc
            baseURL: \(httpbin.baseURL)/
            tests:
              - name: from the suite's file
                request: {url: basic-auth/alice/netrc-secret-9, auth: {netrc: creds/api.netrc}}
                expect: {status: 200, json: {$.authenticated: true, $.user: alice}}
              - name: from ~/.netrc
                request: {url: basic-auth/bob/home-secret-7, auth: {netrc: true}}
                expect: {status: 200, json: {$.user: bob}}
              - name: a host the file does not list sends nothing
                request: {url: "http://localhost:\(httpbin.port)/basic-auth/alice/netrc-secret-9", auth: {netrc: creds/api.netrc}}
                expect: {status: 200}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("creds"), withIntermediateDirectories: true)
        try "machine 127.0.0.1 login alice password netrc-secret-9\n".write(
            to: folder.appendingPathComponent("creds/api.netrc"), atomically: true, encoding: .utf8)
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try "machine 127.0.0.1\n  login bob\n  password home-secret-7\n".write(
            to: home.appendingPathComponent(".netrc"), atomically: true, encoding: .utf8)
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "1", "--verbose"], environment: ["HOME": home.path])
        #expect(result.exitCode == 1, "\(result.stdout)")
        #expect(result.stdout.contains("3 tests: 2 passed, 1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("expected status 200, got 401"), "\(result.stdout)")
        for secret in ["netrc-secret-9", "home-secret-7"] {
            let sent = Data("alice:\(secret)".utf8).base64EncodedString()
            #expect(!result.stdout.contains(sent) && !result.stderr.contains(sent))
        }
    }
}
