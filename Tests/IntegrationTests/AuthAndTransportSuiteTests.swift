import Foundation
import Testing

/// `auth:` and the transport keys end to end: suites run by the built `apitest` against httpbin (Digest, basic,
/// bearer: a server nobody here wrote) and nginx (connect-to, a unix socket, HTTP versions, a proxy).
@Suite(.serialized) final class AuthAndTransportSuiteTests {
    let httpbin: HTTPBinServer
    let nginx: TransportServer

    init() throws {
        httpbin = try HTTPBinServer()
        nginx = try TransportServer()
    }

    deinit {
        httpbin.stop()
        nginx.stop()
    }

    @Test func digestBasicAndBearerAuthenticateAgainstHTTPBin() async throws {
        let suite = try writeTemporarySuite(
            """
            name: auth
            baseURL: \(httpbin.baseURL)/
            defaults:
              auth: {basic: {user: alice, password: "{{ env.BASIC_PASSWORD }}"}}
            tests:
              - name: digest
                request:
                  url: digest-auth/auth/bob/digest-secret-1
                  auth: {digest: {user: bob, password: "{{ env.DIGEST_PASSWORD }}"}}
                expect: {status: 200, json: {$.authenticated: true, $.user: bob}}
              - name: basic from defaults
                request: {url: basic-auth/alice/basic-secret-2}
                expect: {status: 200, json: {$.user: alice}}
              - name: bearer
                request: {url: bearer, auth: {bearer: "{{ env.TOKEN }}"}}
                expect: {status: 200, json: {$.token: bearer-secret-3}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--verbose"],
            environment: [
                "DIGEST_PASSWORD": "digest-secret-1", "BASIC_PASSWORD": "basic-secret-2", "TOKEN": "bearer-secret-3",
            ])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 passed"), "\(result.stdout)")
        // The bearer token is secret (from the environment): --verbose shows the header masked.
        #expect(!result.stdout.contains("bearer-secret-3") || result.stdout.contains("•••••"))
    }

    @Test func aWrongDigestPasswordFailsTheTest() async throws {
        let suite = try writeTemporarySuite(
            """
            name: digest
            tests:
              - name: digest
                request:
                  url: \(httpbin.baseURL)/digest-auth/auth/bob/right
                  auth: {digest: {user: bob, password: wrong}}
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("401"), "\(result.stdout)")
    }

    @Test func transportKeysReachNginxAsTheSuiteSays() async throws {
        let suite = try writeTemporarySuite(
            """
            name: transport
            defaults:
              connectTo: ["api.example.test:80:127.0.0.1:\(nginx.port)"]
            tests:
              - name: connect-to from defaults
                request: {url: "http://api.example.test/a"}
                expect: {body: {equals: "HTTP/1.1|api.example.test|GET /a HTTP/1.1"}}
              - name: unix socket
                request: {url: "http://socket.example.test/b", unixSocket: "\(nginx.socketPath)"}
                expect: {body: {equals: "HTTP/1.1|socket.example.test|GET /b HTTP/1.1"}}
              - name: h2c with prior knowledge, resolved
                request:
                  url: "http://h2.example.test:\(nginx.h2cPort)/c"
                  resolve: "h2.example.test:\(nginx.h2cPort):127.0.0.1"
                  httpVersion: 2-prior-knowledge
                expect: {body: {startsWith: "HTTP/2.0|h2.example.test|"}}
              - name: through a proxy
                request: {url: "http://proxied.example.test/d", proxy: "http://127.0.0.1:\(nginx.port)"}
                expect: {body: {equals: "HTTP/1.1|proxied.example.test|GET http://proxied.example.test/d HTTP/1.1"}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 passed"), "\(result.stdout)")
    }

    /// libcurl 7.88 fails a second prior-knowledge request on a reused h2c connection ("Error in the HTTP2
    /// framing layer", curl issue 10634): every request of a suite asking for it must still be answered over HTTP/2,
    /// one after another and several at once.
    @Test(arguments: [1, 4])
    func manyPriorKnowledgeRequestsToOneOriginAreEachAnsweredOverHTTP2(jobs: Int) async throws {
        let tests = (1...12).map { index in
            """
              - name: h2c \(index)
                request:
                  url: "http://h2.example.test:\(nginx.h2cPort)/n\(index)"
                  resolve: "h2.example.test:\(nginx.h2cPort):127.0.0.1"
                  httpVersion: 2-prior-knowledge
                expect: {body: {startsWith: "HTTP/2.0|h2.example.test|"}}
            """
        }
        let suite = try writeTemporarySuite("name: h2c\ntests:\n" + tests.joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path, "--jobs", "\(jobs)"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("12 passed"), "\(result.stdout)")
        #expect(!result.stdout.contains("framing layer"), "\(result.stdout)")
    }

    @Test func aTemplatedEntryThatRendersWrongErrorsTheStep() async throws {
        let suite = try writeTemporarySuite(
            """
            name: transport
            variables: {port: "not-a-port"}
            tests:
              - name: bad resolve
                request: {url: "http://api.example.test/", resolve: "api.example.test:{{ port }}:127.0.0.1"}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path])
        #expect(result.exitCode == 1)
        #expect(
            result.stdout.contains(
                "invalid 'resolve' entry 'api.example.test:not-a-port:127.0.0.1': the port 'not-a-port' is not a number"
            ),
            "\(result.stdout)")
    }

    @Test func runFlagsReplaceTheSuitesTransportSettings() async throws {
        // The suite's own connect-to points at a port nothing listens on: only the flag's entry can pass.
        let suite = try writeTemporarySuite(
            """
            name: flags
            defaults:
              connectTo: "api.example.test:80:127.0.0.1:9"
            tests:
              - name: via the flag
                request: {url: "http://api.example.test/flag"}
                expect: {body: {equals: "HTTP/1.1|api.example.test|GET /flag HTTP/1.1"}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let replaced = try await runAPITest(
            ["run", suite.path, "--connect-to", "api.example.test:80:127.0.0.1:\(nginx.port)"])
        #expect(replaced.exitCode == 0, "\(replaced.stdout)\(replaced.stderr)")
        let socket = try await runAPITest([
            "run", suite.path, "--unix-socket", nginx.socketPath, "--http-version", "1.1",
        ])
        #expect(socket.exitCode == 0, "\(socket.stdout)\(socket.stderr)")
        let http3 = try await runAPITest(["run", suite.path, "--http-version", "3"])
        #expect(http3.exitCode == 2)
        #expect(http3.stderr.contains("HTTP/3 is not available"), "\(http3.stderr)")
        let badEntry = try await runAPITest(["run", suite.path, "--resolve", "api.example.test:80"])
        #expect(badEntry.exitCode == 2)
        #expect(
            badEntry.stderr.contains("--resolve 'api.example.test:80': expected host:port:address"),
            "\(badEntry.stderr)")
    }

    @Test func theCurlFileReplaysDigestAndTransportSettingsWithoutTheSecret() async throws {
        let suite = try writeTemporarySuite(
            """
            name: replay
            tests:
              - name: digest
                request:
                  url: "\(httpbin.baseURL)/digest-auth/auth/bob/{{ env.DIGEST_PASSWORD }}"
                  auth: {digest: {user: bob, password: "{{ env.DIGEST_PASSWORD }}"}}
                  httpVersion: "1.1"
                expect: {status: 200}
              - name: connect-to
                request: {url: "http://api.example.test/replayed", connectTo: "api.example.test:80:127.0.0.1:\(nginx.port)"}
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let directory = suite.deletingLastPathComponent()
        let commands = directory.appendingPathComponent("requests.sh")
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "1", "--curl", commands.path],
            environment: ["DIGEST_PASSWORD": "replay-secret-4"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let script = try String(contentsOf: commands, encoding: .utf8)
        #expect(!script.contains("replay-secret-4"))
        #expect(script.contains("--digest"), "\(script)")
        #expect(script.contains("${DIGEST_PASSWORD}"), "\(script)")
        #expect(script.contains("--http1.1"), "\(script)")
        #expect(script.contains("--connect-to"), "\(script)")
        // Replayed by bash and curl with the variable set: both requests get what apitest got.
        let replay = try await runProcess(
            URL(fileURLWithPath: "/bin/bash"), [commands.path], environment: ["DIGEST_PASSWORD": "replay-secret-4"])
        #expect(replay.stdout.contains("\"authenticated\": true"), "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("HTTP/1.1|api.example.test|GET /replayed HTTP/1.1"), "\(replay.stdout)")
    }
}
