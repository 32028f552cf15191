import Foundation
import Testing

/// `auth: {oauth2: ...}` end to end: the built `apitest` against the demo's OAuth2 server (short-lived tokens that
/// it counts): one token for many concurrent tests, renewal before expiry, one renewal and retry when a server
/// revokes the token, one request to a failing token endpoint for the whole run, and no token or client secret in
/// any output.
@Suite(.serialized) struct OAuth2Tests {
    /// `GET path` on the demo, as JSON (through curl: a client nobody here wrote).
    static func demoJSON(_ demo: DemoServer, _ path: String) async throws -> [String: Any] {
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", demo.baseURL + path])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "\(result.stdout)")
    }

    static func oauth2(flow: String = "clientCredentials", tokenURL: String = "oauth/token") -> String {
        """
        auth:
            oauth2:
              flow: \(flow)
              tokenURL: \(tokenURL)
              clientId: demo-client
              clientSecret: "{{ env.OAUTH_CLIENT_SECRET }}"
              scope: "read write"
        """
    }

    @Test func twoHundredConcurrentTestsShareTokensThatLiveTwoSeconds() async throws {
        let demo = try await DemoServer.start(extraArguments: ["--token-lifetime", "2"])
        defer { demo.stop() }
        // 200 tests of ~550 ms at 20 at a time: ten waves, about 5.5 s, through three token lifetimes.
        var tests = ""
        for number in 1...200 {
            tests += """
                  - name: call \(number)
                    request: {url: "oauth/me?delay=550"}
                    expect: {status: 200, json: {$.client: demo-client, $.scope: "read write"}}

                """
        }
        let suite = try writeTemporarySuite(
            """
            name: tokens
            baseURL: \(demo.baseURL)/
            defaults:
              \(Self.oauth2())
            tests:
            \(tests)
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let report = suite.deletingLastPathComponent().appendingPathComponent("report.json")
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "20", "--report-json", report.path],
            environment: ["OAUTH_CLIENT_SECRET": "demo-secret"])
        let elapsed = clock.now - start
        #expect(result.exitCode == 0, "\(result.stdout.suffix(3000))")
        #expect(result.stdout.contains("200 tests: 200 passed"), "\(result.stdout.suffix(500))")
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(seconds > 4.5, "the run must span more than two token lifetimes")
        let stats = try await Self.demoJSON(demo, "/oauth/stats")
        let issued = try #require(stats["issued"] as? Int)
        let bound = Int((seconds / 2).rounded(.up)) + 1
        #expect(issued <= bound, "\(issued) tokens for a run of \(seconds) s (bound \(bound))")
        #expect(issued >= 3, "tokens of 2 s over \(seconds) s must have been renewed")
        // No 401 reached a verdict: every test passed with a 200. (A request delayed past its token's renewal on a
        // loaded machine may meet a 401 and be sent once more with a new token; that is the retry's job.)
        #expect(stats["served"] as? Int == 200)
        let json = try String(contentsOf: report, encoding: .utf8)
        #expect(!json.contains("\"status\":401") && !json.contains("\"status\" : 401"))
    }

    /// `--verbose` shows the token request a step sent for its token, before the step's own request, with the
    /// client secret and the token masked.
    @Test func verboseShowsTheTokenRequestMasked() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: verbose token
            baseURL: \(demo.baseURL)/
            defaults:
              \(Self.oauth2())
            tests:
              - name: who am i
                request: {url: oauth/me}
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--verbose"], environment: ["OAUTH_CLIENT_SECRET": "demo-secret"])
        #expect(result.exitCode == 0, "\(result.stdout)")
        let out = result.stdout
        let tokenLine = try #require(out.range(of: "> POST \(demo.baseURL)/oauth/token"), "\(out)")
        let ownLine = try #require(out.range(of: "> GET \(demo.baseURL)/oauth/me"), "\(out)")
        #expect(tokenLine.lowerBound < ownLine.lowerBound, "the token request comes first")
        #expect(out.contains("(OAuth2 token request)"), "\(out)")
        #expect(out.contains("grant_type=client_credentials"), "\(out)")
        #expect(out.contains("access_token"), "the token response's body is shown: \(out)")
        #expect(!out.contains("demo-secret"), "\(out)")
        // The token the endpoint issued is masked in its body, and both Authorization headers (Basic for the
        // client, Bearer for the step) whole.
        #expect(out.contains(#"{"access_token":"•••••","#), "\(out)")
        let authorization = out.components(separatedBy: "\n").filter { $0.contains("> Authorization:") }
        #expect(authorization.count == 2 && authorization.allSatisfy { $0.hasSuffix(": •••••") }, "\(authorization)")
        #expect(out.components(separatedBy: "> Host: 127.0.0.1").count == 3, "both as sent: \(out)")
    }

    @Test func aFailingTokenEndpointIsAskedOnceAndEveryDependentTestErrors() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        var tests = ""
        for number in 1...30 {
            tests += """
                  - name: needs a token \(number)
                    request: {url: "oauth/me"}
                    expect: {status: 200}

                """
        }
        let suite = try writeTemporarySuite(
            """
            name: broken
            baseURL: \(demo.baseURL)/
            defaults:
              \(Self.oauth2(tokenURL: "oauth/token-broken"))
            tests:
            \(tests)
              - name: needs no token
                request: {url: "health", auth: {bearer: "not-oauth"}}
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let report = suite.deletingLastPathComponent().appendingPathComponent("report.tap")
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "10", "--report-tap", report.path],
            environment: ["OAUTH_CLIENT_SECRET": "demo-secret"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("31 tests: 1 passed, 30 errored"), "\(result.stdout.suffix(800))")
        let message =
            "OAuth2 token request (client_credentials) to \(demo.baseURL)/oauth/token-broken failed with status 500: "
            + "server_error (the token service is down (demo: this endpoint always fails))"
        let errors = result.stdout.components(separatedBy: message).count - 1
        #expect(errors == 30, "\(result.stdout.prefix(2000))")
        let tap = try String(contentsOf: report, encoding: .utf8)
        #expect(tap.components(separatedBy: #"kind: "authentication""#).count - 1 == 30, "\(tap.prefix(1500))")
        let stats = try await Self.demoJSON(demo, "/oauth/stats")
        #expect(stats["brokenAttempts"] as? Int == 1)
        #expect(stats["served"] as? Int == 0)
    }

    @Test func ctrlCWhileEveryTestWaitsForAHangingTokenEndpointStopsTheRunPromptly() async throws {
        // The token endpoint takes 20 s to answer (and then not with a token): the five tests wait for its one request.
        let server = try FaultServer()
        defer { server.stop() }
        var tests = ""
        for number in 1...5 { tests += "  - {name: call \(number), request: {url: /port}}\n" }
        let suite = try writeTemporarySuite(
            """
            name: tokens
            baseURL: \(server.baseURL)
            defaults:
              \(Self.oauth2(tokenURL: "/port?sleep=20"))
            tests:
            \(tests)
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let run = try InterruptibleRun(
            ["run", suite.path, "--jobs", "5", "--timeout", "60s", "--no-color"],
            environment: ["OAUTH_CLIENT_SECRET": "demo-secret"])
        // Interrupt once the token request has reached the endpoint (it logs a request line when it reads one).
        let took = try await run.interrupt(when: {
            server.receivedRequestLines.contains { $0.hasPrefix("POST /port") }
        })
        #expect(took != nil, "the token request never reached the endpoint")
        let status = await run.exitStatus()
        if let took { #expect(took < .seconds(5), "apitest waited for the token endpoint after SIGINT") }
        let text = await run.output()
        #expect(status == 130)
        #expect(text.contains("5 tests: 0 passed, 5 cancelled"), "\(text)")
        #expect(text.contains("⊘ tokens › call 1") && text.contains("- interrupted"), "\(text)")
        // An interruption is not the endpoint's failure, and no test was sent without its token.
        #expect(!text.contains("not asked again"), "\(text)")
        #expect(server.receivedRequestLines.filter { $0.hasPrefix("GET") }.isEmpty)
    }

    @Test func aTeardownAfterCtrlCAsksForItsOwnTokenWhenTheInterruptedRequestNeverAnswered() async throws {
        // The endpoint's first token request hangs for 20 s; later ones are answered at once.
        let server = try FaultServer()
        defer { server.stop() }
        var tests = ""
        for number in 1...3 { tests += "  - {name: call \(number), request: {url: /port}}\n" }
        let suite = try writeTemporarySuite(
            """
            name: tokens
            baseURL: \(server.baseURL)
            defaults:
              \(Self.oauth2(tokenURL: "/token-slow-first"))
            tests:
            \(tests)
            teardown:
              - request: {url: "/port?teardown"}
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let run = try InterruptibleRun(
            ["run", suite.path, "--jobs", "3", "--timeout", "60s", "--no-color"],
            environment: ["OAUTH_CLIENT_SECRET": "demo-secret"])
        let took = try await run.interrupt(when: {
            server.receivedRequestLines.contains { $0.hasPrefix("POST /token-slow-first") }
        })
        #expect(took != nil, "the token request never reached the endpoint")
        if let took { #expect(took < .seconds(5), "apitest waited for the token endpoint after SIGINT") }
        let status = await run.exitStatus()
        let text = await run.output()
        #expect(status == 130)
        #expect(text.contains("3 cancelled"), "\(text)")
        // The teardown, which the interruption does not cancel, sent a token request of its own and its request.
        #expect(text.contains("✔ tokens › teardown"), "\(text)")
        let lines = server.receivedRequestLines
        #expect(lines.filter { $0.hasPrefix("POST /token-slow-first") }.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("GET /port?teardown") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("GET /port ") }, "a test was sent after the interruption: \(lines)")
    }

    @Test func aRevokedTokenIsRenewedOnceAndTheRequestSentAgain() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: revoked
            baseURL: \(demo.baseURL)/
            tests:
              - name: client credentials
                steps:
                  - request:
                      url: oauth/me
                      \(Self.oauth2().replacingOccurrences(of: "\n", with: "\n          "))
                    expect: {status: 200}
                  - request: {method: POST, url: oauth/revoke-all}
                    expect: {status: 200, json: {$.revoked: 1}}
                  - request:
                      url: oauth/me
                      \(Self.oauth2().replacingOccurrences(of: "\n", with: "\n          "))
                    expect: {status: 200, json: {$.client: demo-client}}
              - name: password flow renews with its refresh token
                steps:
                  - request:
                      url: oauth/me
                      auth: &password
                        oauth2: {flow: password, tokenURL: oauth/token, clientId: demo-client,
                          clientSecret: "{{ env.OAUTH_CLIENT_SECRET }}", username: alice,
                          password: "{{ env.OAUTH_PASSWORD }}", clientAuth: body}
                    expect: {status: 200, json: {$.user: alice}}
                  - request: {method: POST, url: oauth/revoke-all}
                  - request: {url: oauth/me, auth: *password}
                    expect: {status: 200, json: {$.user: alice}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "1"],
            environment: ["OAUTH_CLIENT_SECRET": "demo-secret", "OAUTH_PASSWORD": "wonderland"])
        #expect(result.exitCode == 0, "\(result.stdout)")
        let stats = try await Self.demoJSON(demo, "/oauth/stats")
        // Two grants, then one renewal each: a new client credentials grant, and a refresh for the password one.
        #expect(stats["issued"] as? Int == 4)
        #expect(stats["refreshed"] as? Int == 1)
        // Each revoked token was refused once, then the request went again with the new one.
        #expect(stats["rejected"] as? Int == 2)
        #expect(stats["served"] as? Int == 4)
    }

    @Test func aRefusedClientIsReportedWithTheEndpointsError() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: refused
            baseURL: \(demo.baseURL)/
            defaults:
              \(Self.oauth2())
            tests:
              - name: a
                request: {url: oauth/me}
              - name: b
                request: {url: oauth/me}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path], environment: ["OAUTH_CLIENT_SECRET": "wrong-secret-value"])
        #expect(result.exitCode == 1)
        #expect(
            result.stdout.contains("failed with status 401: invalid_client (unknown client or wrong secret)"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("wrong-secret-value"))
        let stats = try await Self.demoJSON(demo, "/oauth/stats")
        #expect(stats["refused"] as? Int == 1)
    }

    @Test func noTokenOrClientSecretInAnyOutput() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: leaks
            baseURL: \(demo.baseURL)/
            defaults:
              auth:
                oauth2:
                  flow: password
                  tokenURL: oauth/token
                  clientId: demo-client
                  clientSecret: "{{ env.OAUTH_CLIENT_SECRET }}"
                  username: alice
                  password: wonderland
            tests:
              - name: the server echoes the token
                request: {method: POST, url: echo, json: {a: 1}}
                expect:
                  status: 200
                  body: {equals: "not the body"}
              - name: a passing call
                request: {url: oauth/me}
                expect: {status: 200}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = ["junit.xml", "tap.txt", "report.json", "report.html", "requests.sh"].map {
            folder.appendingPathComponent($0)
        }
        let result = try await runAPITest(
            [
                "run", suite.path, "--verbose", "--report-junit", reports[0].path, "--report-tap", reports[1].path,
                "--report-json", reports[2].path, "--report-html", reports[3].path, "--curl", reports[4].path,
            ],
            environment: ["OAUTH_CLIENT_SECRET": "demo-secret"])
        #expect(result.exitCode == 1, "\(result.stdout)")
        let issued = try #require(try await Self.demoJSON(demo, "/oauth/issued")["tokens"] as? [String])
        #expect(issued.count == 2) // an access token and a refresh token
        var outputs = ["stdout": result.stdout, "stderr": result.stderr]
        for report in reports { outputs[report.lastPathComponent] = try String(contentsOf: report, encoding: .utf8) }
        let leaks =
            issued + ["demo-secret", "wonderland", Data("demo-client:demo-secret".utf8).base64EncodedString()]
            + issued.map { String($0.prefix(16)) }
        for (name, text) in outputs {
            for leak in leaks { #expect(!text.contains(leak), "\(name) shows '\(leak)'") }
        }
        // The echoed request was recorded (masked), and the commands send the token as a variable.
        #expect(result.stdout.contains("Authorization"))
        #expect(result.stdout.contains("•••••"))
        #expect(outputs["requests.sh"]?.contains(#"'Authorization: Bearer '"${APITEST_OAUTH2_TOKEN}""#) == true)
        #expect(result.stdout.contains("APITEST_OAUTH2_TOKEN"))
    }

    @Test func anExportedCommandSendsTheTokenAsAVariableWithoutFetchingOne() async throws {
        let suite = try writeTemporarySuite(
            """
            name: export
            baseURL: http://127.0.0.1:9/
            defaults:
              \(Self.oauth2())
            tests:
              - name: me
                request: {url: oauth/me}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["export", "curl", suite.path], environment: ["OAUTH_CLIENT_SECRET": "export-secret-value"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"-H 'Authorization: Bearer '"${APITEST_OAUTH2_TOKEN}""#), "\(result.stdout)")
        #expect(result.stdout.contains("# note: ${APITEST_OAUTH2_TOKEN} stands for the OAuth2 access token"))
        #expect(!result.stdout.contains("export-secret-value"))
        #expect(!result.stdout.contains("•••••"))
    }
}
