import Foundation
import Testing

/// A redirect to another origin (another port on 127.0.0.1 here) leaves out every header whose value derives from a
/// secret, the AWS session token, `Authorization` and `Cookie`, as curl leaves out `Authorization`; a redirect within
/// the origin keeps them. Two `secret_echo_server.py`s log what each was sent.
@Suite struct CrossOriginRedirectTests {
    /// What a server was sent: one entry a request.
    struct Received: Decodable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
    }

    static func received(_ server: FaultServer) throws -> [Received] {
        let text = (try? String(contentsOf: server.logFile, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    static let environment = [
        "TOK": "tok-3f9a1c77", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret-key-9d2e",
        "AWS_SESSION_TOKEN": "session-token-51b0",
    ]

    @Test func aRedirectToAnotherOriginLeavesOutEverySecretHeader() async throws {
        let first = try FaultServer(script: "secret_echo_server.py")
        defer { first.stop() }
        let second = try FaultServer(script: "secret_echo_server.py")
        defer { second.stop() }
        let elsewhere = "\(second.baseURL)/landing"
        let suite = try writeTemporarySuite(
            """
            name: redirects
            baseURL: \(first.baseURL)/
            defaults:
              headers:
                X-Default-Key: "k-{{ env.TOK }}"
            tests:
              - name: custom secret headers, 302 elsewhere
                request:
                  url: "redirect?code=302&to=\(elsewhere)?step=custom"
                  headers:
                    X-Api-Key: "{{ env.TOK }}"
                    X-Plain: visible
                    Cookie: "session={{ env.TOK }}"
                expect: {status: 200}
              - name: a bearer token, 307 elsewhere keeps the method and body
                request:
                  method: POST
                  url: "redirect?code=307&to=\(elsewhere)?step=bearer"
                  auth: {bearer: "{{ env.TOK }}"}
                  json: {a: 1}
                expect: {status: 200}
              - name: an AWS session token, 303 elsewhere
                request:
                  method: POST
                  url: "redirect?code=303&to=\(elsewhere)?step=aws"
                  body: "x=1"
                  contentType: text/plain
                  auth:
                    awsSigV4:
                      accessKey: "{{ env.AWS_ACCESS_KEY_ID }}"
                      secretKey: "{{ env.AWS_SECRET_ACCESS_KEY }}"
                      sessionToken: "{{ env.AWS_SESSION_TOKEN }}"
                      region: us-east-1
                      service: execute-api
                expect: {status: 200}
              - name: same origin keeps them
                request:
                  url: "redirect?code=301&to=/landing?step=same"
                  headers:
                    X-Api-Key: "{{ env.TOK }}"
                expect: {status: 200}
              - name: same origin keeps the session token
                request:
                  url: "redirect?code=308&to=/landing?step=same-aws"
                  auth:
                    awsSigV4:
                      accessKey: "{{ env.AWS_ACCESS_KEY_ID }}"
                      secretKey: "{{ env.AWS_SECRET_ACCESS_KEY }}"
                      sessionToken: "{{ env.AWS_SESSION_TOKEN }}"
                      region: us-east-1
                      service: execute-api
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path, "--jobs", "1"], environment: Self.environment)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")

        let landed = try Self.received(second)
        #expect(landed.count == 3, "\(landed.map(\.path))")
        for request in landed {
            for (name, value) in request.headers {
                for secret in Self.environment.values where secret != "AKIDEXAMPLE" {
                    #expect(!value.contains(secret), "\(request.path): \(name) carries a secret")
                }
            }
            for name in ["x-api-key", "x-default-key", "authorization", "cookie", "x-amz-security-token"] {
                #expect(request.headers[name] == nil, "\(request.path) got \(name)")
            }
        }
        let custom = try #require(landed.first { $0.path.hasSuffix("step=custom") })
        #expect(custom.headers["x-plain"] == "visible")
        let bearer = try #require(landed.first { $0.path.hasSuffix("step=bearer") })
        #expect(bearer.method == "POST")
        #expect(bearer.body == #"{"a":1}"#)
        let aws = try #require(landed.first { $0.path.hasSuffix("step=aws") })
        #expect(aws.method == "GET")
        #expect(aws.body.isEmpty)

        // Within the origin everything is sent again, the session token with a fresh signature.
        let own = try Self.received(first)
        let same = try #require(own.first { $0.path.hasSuffix("step=same") })
        #expect(same.headers["x-api-key"] == "tok-3f9a1c77")
        #expect(same.headers["x-default-key"] == "k-tok-3f9a1c77")
        let sameAWS = try #require(own.first { $0.path.hasSuffix("step=same-aws") })
        #expect(sameAWS.headers["x-amz-security-token"] == "session-token-51b0")
        #expect(sameAWS.headers["authorization"]?.hasPrefix("AWS4-HMAC-SHA256") == true)
    }

    @Test func theRedirectLimitHoldsWhenRedirectsAreFollowedHopByHop() async throws {
        let server = try FaultServer(script: "secret_echo_server.py")
        defer { server.stop() }
        let suite = try writeTemporarySuite(
            """
            name: loop
            baseURL: \(server.baseURL)/
            tests:
              - name: a loop
                request:
                  url: "redirect?code=302&to=/redirect?code=302&to=/landing"
                  maxRedirects: 1
                  headers: {X-Api-Key: "{{ env.TOK }}"}
                expect: {status: 200}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(["run", suite.path], environment: Self.environment)
        #expect(result.exitCode == 1)
        #expect(
            result.stdout.contains("too many redirects") || result.stdout.contains("redirects followed"),
            "\(result.stdout)")
        #expect(try Self.received(server).count == 2)
    }
}
