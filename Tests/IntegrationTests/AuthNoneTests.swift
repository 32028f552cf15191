import Foundation
import Testing

/// Issue 37: `auth: none` (or `auth: false`) on a request switches `defaults.auth` off for it: against the demo API
/// (which echoes the headers it got and counts the OAuth2 tokens it issued), no `Authorization` header is sent, no
/// token is fetched for it, and neither `--verbose` nor the `--curl` file shows the default's credentials. The old
/// code refused `auth: none` when the suite loaded (`expected a map for 'auth'`).
@Suite struct AuthNoneTests {
    @Test func noneSendsNoAuthorizationAndFetchesNoToken() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: auth none
            baseURL: \(demo.baseURL)
            defaults:
              auth:
                oauth2:
                  flow: clientCredentials
                  tokenURL: /oauth/token
                  clientId: demo-client
                  clientSecret: "{{ env.DEMO_SECRET }}"
            tests:
              - name: none
                request: {url: /headers, auth: none}
                expect:
                  json: {"$.headers.Authorization": {exists: false}, "$.headers.authorization": {exists: false}}
              - name: "false"
                request: {url: /bearer, auth: false}
                expect: {status: 401}
              - name: no token was issued
                request: {url: /oauth/stats, auth: none}
                expect: {json: {"$.issued": 0}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "1"], environment: ["DEMO_SECRET": "demo-secret"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 passed"), "\(result.stdout)")

        // The same suite's default does authenticate, and fetches its token, once it is not switched off.
        let withDefault = try writeTemporarySuite(
            """
            name: auth default
            baseURL: \(demo.baseURL)
            defaults:
              auth: {oauth2: {flow: clientCredentials, tokenURL: /oauth/token, clientId: demo-client, clientSecret: demo-secret}}
            tests:
              - {name: default, request: {url: /oauth/me}, expect: {status: 200}}
              - {name: issued, request: {url: /oauth/stats, auth: none}, expect: {json: {"$.issued": 1}}}
            """)
        defer { try? FileManager.default.removeItem(at: withDefault.deletingLastPathComponent()) }
        let control = try await runAPITest(["run", withDefault.path, "--jobs", "1"])
        #expect(control.exitCode == 0, "\(control.stdout)\(control.stderr)")
    }

    /// The editor schema takes `auth: none` and `auth: false` (and refuses `auth: no`, `cases/schema-invalid`).
    @Test func theEditorSchemaTakesNoneAndFalse() async throws {
        let suite = try writeTemporarySuite(
            """
            name: auth none schema
            baseURL: http://127.0.0.1:8080/
            defaults:
              auth: {bearer: token}
            tests:
              - {name: none, request: {url: x, auth: none}}
              - {name: "false", request: {url: x, auth: false}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let (verdicts, output) = try await SuiteSchemaTests.schemaVerdicts([suite])
        #expect(verdicts[suite.path] == "valid", "\(output.stdout)\(output.stderr)")
    }

    /// `--verbose` and the `--curl` file of a request with `auth: none` carry none of the default's credentials.
    @Test func verboseAndTheCurlFileShowNoDefaultCredentials() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: auth none verbose
            baseURL: \(demo.baseURL)
            defaults:
              auth: {basic: {user: default-user-x1, password: default-password-x1}}
            tests:
              - name: none
                request: {url: /headers, auth: none}
                expect:
                  json: {"$.headers.Authorization": {exists: false}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let curl = suite.deletingLastPathComponent().appendingPathComponent("requests.sh")
        let result = try await runAPITest(["run", suite.path, "--verbose", "--curl", curl.path])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let commands = try String(contentsOf: curl, encoding: .utf8)
        for output in [result.stdout, result.stderr, commands] {
            #expect(!output.contains("default-user-x1"), "\(output)")
            #expect(!output.lowercased().contains("authorization:"), "\(output)")
            #expect(!output.contains(" -u ") && !output.contains("--user"), "\(output)")
        }
        #expect(commands.contains("/headers"), "\(commands)")
    }
}
