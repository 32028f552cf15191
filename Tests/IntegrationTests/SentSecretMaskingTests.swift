import Foundation
import Testing

/// Secrets are masked as they were sent: an OAuth2 token endpoint that echoes the request it got (form-encoded
/// client secret, the `Basic` token of the form-encoded pair, the body in base64) has none of it shown in any output.
@Suite struct SentSecretMaskingTests {
    /// A client secret with every character RFC 6749 §2.3.1's form-encoding changes (`@ + / & = é "`).
    static let secret = "s3cr@t+pa/ss&w=é\"rd"
    static let clientID = "my client@home"

    /// `text` form-encoded as the token request sends it (RFC 3986 unreserved characters kept).
    static func formEncoded(_ text: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// A suite of one test whose token comes from `tokenURL` on `server` (client credentials, the secret from
    /// `OAUTH_CLIENT_SECRET`).
    static func tokenSuite(
        _ server: FaultServer, tokenURL: String, clientID: String = clientID, clientAuth: String = "body"
    ) throws -> URL {
        try writeTemporarySuite(
            """
            name: token endpoint
            baseURL: \(server.baseURL)/
            defaults:
              auth:
                oauth2:
                  flow: clientCredentials
                  tokenURL: \(tokenURL)
                  clientId: "\(clientID)"
                  clientSecret: "{{ env.OAUTH_CLIENT_SECRET }}"
                  clientAuth: \(clientAuth)
            tests:
              - name: needs a token
                request: {url: anything}
                expect: {status: 200}
            """)
    }

    @Test(arguments: ["basic", "body"])
    func anEchoingTokenEndpointShowsNoSpellingOfTheClientSecretInAnyOutput(clientAuth: String) async throws {
        let server = try FaultServer(script: "secret_echo_server.py")
        defer { server.stop() }
        let suite = try Self.tokenSuite(server, tokenURL: "token-echo", clientAuth: clientAuth)
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
            environment: ["OAUTH_CLIENT_SECRET": Self.secret])
        #expect(result.exitCode == 1, "\(result.stdout)")
        // The endpoint was asked, and its echo reached the message (masked).
        #expect(result.stdout.contains("invalid_client"), "\(result.stdout)")
        #expect(result.stdout.contains("auth="), "\(result.stdout)")
        let encodedSecret = Self.formEncoded(Self.secret)
        let pair = Self.formEncoded(Self.clientID) + ":" + encodedSecret
        let basicToken = Data(pair.utf8).base64EncodedString()
        let body =
            clientAuth == "basic"
            ? "grant_type=client_credentials"
            : "grant_type=client_credentials&client_id=\(Self.formEncoded(Self.clientID))&client_secret=\(encodedSecret)"
        var leaks = [Self.secret, encodedSecret, basicToken, String(basicToken.prefix(24))]
        if clientAuth == "body" {
            let base64Body = Data(body.utf8).base64EncodedString()
            // The part of the body's base64 that encodes the secret field (past the public part).
            leaks.append(String(base64Body.suffix(40)))
        }
        var outputs = ["stdout": result.stdout, "stderr": result.stderr]
        for report in reports {
            outputs[report.lastPathComponent] = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        }
        #expect(outputs["report.json"]?.isEmpty == false)
        for (name, text) in outputs {
            for leak in leaks { #expect(!text.contains(leak), "\(name) shows '\(leak)'") }
        }
    }

    /// The endpoint's `error_description` is quoted whole and cut only where the step is sealed, after masking: a
    /// client secret the echo places across the 300th character (a long client id pushes it there) is masked
    /// whole, not cut first and shown in part.
    @Test func aSecretAcrossTheDescriptionsCutIsNotShownInPart() async throws {
        let server = try FaultServer(script: "secret_echo_server.py")
        defer { server.stop() }
        // The echo is `auth= body=grant_type=client_credentials&client_id=ID&client_secret=SECRET b64body=...`:
        // the secret starts at character 66 + the id's length; an id of 224 characters puts it at 290.
        let clientID = String(repeating: "c", count: 224)
        let suite = try Self.tokenSuite(server, tokenURL: "token-echo", clientID: clientID)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await runAPITest(
            ["run", suite.path, "--report-json", report.path], environment: ["OAUTH_CLIENT_SECRET": Self.secret])
        #expect(result.exitCode == 1, "\(result.stdout)")
        let encodedSecret = Self.formEncoded(Self.secret)
        // The message shows the description up to the cut: the id is there, the secret's mask is where it starts.
        #expect(result.stdout.contains("client_secret=•••••"), "\(result.stdout)")
        let json = try String(contentsOf: report, encoding: .utf8)
        for (name, text) in ["stdout": result.stdout, "report.json": json] {
            #expect(!text.contains(String(encodedSecret.prefix(8))), "\(name) shows the secret's start")
        }
    }

    /// A function's error quotes its argument whole until the step is sealed: a secret longer than the 80
    /// characters a message shows of a value is masked whole, not cut first and shown in part.
    @Test func aLongSecretInAFunctionsErrorIsNotShownInPart() async throws {
        let token = "tok_" + String(repeating: "Zq7", count: 40)
        let suite = try writeTemporarySuite(
            """
            name: long secret in an expression
            baseURL: http://127.0.0.1:9/
            tests:
              - name: converts a token
                request: {url: "items/{{ toInt(env.LONG_TOKEN) }}"}
                expect: {status: 200}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await runAPITest(
            ["run", suite.path, "--report-json", report.path], environment: ["LONG_TOKEN": token])
        #expect(result.exitCode != 0, "\(result.stdout)")
        #expect(result.stdout.contains("toInt: "), "the function's error is shown: \(result.stdout)")
        let json = try String(contentsOf: report, encoding: .utf8)
        for (name, text) in ["stdout": result.stdout, "stderr": result.stderr, "report.json": json] {
            #expect(!text.contains("tok_Zq7Zq7"), "\(name) shows part of the secret")
        }
    }

    /// `--verbose` shows a token endpoint's answer; the credentials it holds are masked whatever its shape: an
    /// `id_token` beside the access token, and a form-encoded answer that gave no usable token.
    @Test(arguments: [("token-form", "form-tok-5f3a9c1e77"), ("token-id", "id-tok-3c7f1a9e52")])
    func verboseMasksTheCredentialsOfATokenEndpointsAnswer(path: String, credential: String) async throws {
        let server = try FaultServer(script: "secret_echo_server.py")
        defer { server.stop() }
        let suite = try Self.tokenSuite(server, tokenURL: path)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--verbose"], environment: ["OAUTH_CLIENT_SECRET": "app-secret-77"])
        #expect(result.stdout.contains("(OAuth2 token request)"), "\(result.stdout)")
        #expect(result.stdout.contains("token_type"), "the answer is shown: \(result.stdout)")
        #expect(!result.stdout.contains(credential), "\(result.stdout)")
        #expect(!result.stdout.contains("app-secret-77"))
    }

    /// A secret written into a request's URL reaches the server as one value: the demo's echo of the query
    /// arguments shows it whole (masked) and none of its pieces; raw, `ab&cd+ef gh=ij` was split by the server into
    /// the arguments `ab` and `cd ef gh`, which `--verbose` and the JSON report showed.
    @Test func aSecretInTheURLIsOneValueThatTheServerEchoesMasked() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = try writeTemporarySuite(
            """
            name: secret in the url
            baseURL: \(demo.baseURL)
            tests:
              - name: raw in the query
                request: {url: "/echo?raw={{ env.URL_TOKEN }}&page=2"}
                capture: {raw: {jsonpath: "$.args.raw[0]"}, names: {jsonpath: "$.args"}}
                expect: {status: 200, json: {$.args.page: ["2"]}}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let token = "Ab7&Cd9+Ef3 Gh5=Ij1"
        let result = try await runAPITest(
            ["run", suite.path, "--verbose", "--report-json", report.path], environment: ["URL_TOKEN": token])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let json = try String(contentsOf: report, encoding: .utf8)
        // The server's echo names two arguments only: `raw` (the whole token, masked) and `page`.
        #expect(result.stdout.contains(#""args":{"raw":["•••••"],"page":["2"]}"#), "\(result.stdout)")
        for (name, text) in ["stdout": result.stdout, "stderr": result.stderr, "report.json": json] {
            for piece in ["Ab7", "Cd9", "Ef3", "Gh5", "Ij1"] {
                #expect(!text.contains(piece), "\(name) shows a piece of the secret (\(piece))")
            }
        }
    }
}
