import Foundation
import Testing

/// `auth: none` drops an `Authorization` header that comes from `defaults.headers` (docs/auth.md: it "sends no
/// Authorization header", and a suite has no other way to drop a default header); one the request sets itself is
/// sent, and so is a default `Proxy-Authorization`. The old code sent the default's `Bearer fromdefaults`.
@Suite struct AuthNoneDefaultHeaderTests {
    @Test func noneDropsTheDefaultAuthorizationHeader() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: auth none default header
            baseURL: \(demo.baseURL)
            defaults:
              headers: {Authorization: "Bearer fromdefaults", Proxy-Authorization: "Basic cHJveHk=", X-Kept: kept}
            tests:
              - name: none drops it
                request: {url: /headers, auth: none}
                expect:
                  json:
                    "$.headers.Authorization": {exists: false}
                    "$.headers.authorization": {exists: false}
                    "$.headers['X-Kept']": kept
                    "$.headers['Proxy-Authorization']": "Basic cHJveHk="
              - name: the request's own header is sent
                request: {url: /headers, auth: none, headers: {Authorization: "Bearer fromrequest"}}
                expect:
                  json: {"$.headers.Authorization": "Bearer fromrequest"}
              - name: without auth none the default is sent
                request: {url: /headers}
                expect:
                  json: {"$.headers.Authorization": "Bearer fromdefaults"}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path, "--jobs", "1"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 passed"), "\(result.stdout)")
    }
}
