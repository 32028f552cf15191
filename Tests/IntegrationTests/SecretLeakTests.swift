import Foundation
import Testing

/// A secret from the environment never shows in the console, `--verbose`, any of the four reports or the `--curl`
/// file (nor in the reproduce commands of failures, which name its variable instead), in whatever
/// form a server echoes it (`Fixtures/echo_encodings.py` writes it as real servers do) or a filter turns it into:
/// every encoding × every output.
@Suite struct SecretLeakTests {
    /// The secret: a space, quotes, a slash, a plus and non-ASCII, so that every encoding changes it.
    static let secret = #"Zq9 "vä lue"/Kx+7Wm"#
    /// A second secret, a password in a URL's user information.
    static let urlSecret = "Url9Pass-Wq4"

    static let forms = [
        "raw", "python-json", "php-json", "mixed", "percent", "form", "xml", "base64", "json-in-json", "auth-echo",
    ]

    /// Every form the secrets must not take in any output: distinctive pieces (which every textual encoding keeps,
    /// in either case) and the base64 spellings of the secret and of the credentials made from it.
    static var leaks: [String] {
        var leaks = ["Zq9", "zq9", "ZQ9", "7Wm", "7wm", "Url9Pass", "url9pass"]
        func cores(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            return (0..<3).map { skip in
                let groups = (bytes.count - skip) / 3
                return Data(bytes[skip..<(skip + groups * 3)]).base64EncodedString()
            }
        }
        leaks += cores(secret) + cores("alice:" + secret) + cores("alice:" + urlSecret)
        leaks.append(Data(("alice:" + secret).utf8).base64EncodedString())
        return leaks
    }

    @Test func noOutputShowsTheSecretInAnyEncoding() async throws {
        let server = try FaultServer(script: "echo_encodings.py")
        defer { server.stop() }
        var tests = ""
        for form in Self.forms {
            tests += """
                  - name: \(form)
                    request:
                      url: /\(form)
                      headers: {X-Secret: "{{ secret }}"}
                      basicAuth: {username: alice, password: "{{ secret }}"}
                    expect:
                      body: {equals: "not the body"}
                      headers: {X-Echo: "not the header"}

                """
        }
        let suite = try writeTemporarySuite(
            """
            name: leaks
            baseURL: \(server.baseURL)
            variables:
              secret: "{{ env.APITEST_LEAK_SECRET }}"
              urlSecret: "{{ env.APITEST_LEAK_URL_SECRET }}"
            tests:
            \(tests)
              - name: filters of a secret
                request:
                  url: /python-json
                  headers: {X-Secret: "{{ secret }}"}
                expect:
                  json:
                    $.t: {filters: [lowercase], equals: "not it"}
                    $['t']: {filters: [base64Encode], equals: "not it either"}
                    $["t"]: {filters: [uppercase], startsWith: "NOT"}
              - name: captures of a secret
                steps:
                  - request:
                      url: /python-json
                      headers: {X-Secret: "{{ secret }}"}
                    capture:
                      lower: {jsonpath: $.t, filters: [lowercase]}
                  - request:
                      url: /raw
                      headers: {X-Secret: "{{ lower }}"}
                    expect:
                      body: {equals: "not the body"}
              - name: credentials in the URL
                request:
                  url: "http://alice:{{ urlSecret }}@127.0.0.1:\(server.port)/auth-echo"
                expect:
                  body: {equals: "not the body"}
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
            environment: ["APITEST_LEAK_SECRET": Self.secret, "APITEST_LEAK_URL_SECRET": Self.urlSecret])
        #expect(result.exitCode == 1, "\(result.stderr)")

        var outputs = ["console (stdout, with --verbose)": result.stdout, "console (stderr)": result.stderr]
        for report in reports { outputs[report.lastPathComponent] = try String(contentsOf: report, encoding: .utf8) }
        for (output, text) in outputs {
            for leak in Self.leaks {
                #expect(!text.contains(leak), "\(output) shows '\(leak)'")
            }
        }
        // The runs did fail where expected, with the masked values in their place.
        for form in Self.forms { #expect(result.stdout.contains("leaks › \(form)"), "\(form)") }
        #expect(result.stdout.contains("•••••"))
        #expect(result.stdout.contains("captures of a secret"))
        // Every failure's reproduce command, and every request of the --curl file, names the variables instead.
        #expect(result.stdout.contains(#"reproduce: curl"#))
        #expect(result.stdout.contains(#"-u alice:"${APITEST_LEAK_SECRET}""#), "\(result.stdout)")
        #expect(outputs["requests.sh"]?.contains(#"'X-Secret: '"${APITEST_LEAK_SECRET}""#) == true)
        #expect(outputs["requests.sh"]?.contains(#"http://alice:"${APITEST_LEAK_URL_SECRET}""#) == true)
        for report in ["junit.xml", "report.json", "report.html"] {
            #expect(outputs[report]?.contains("APITEST_LEAK_SECRET") == true, "\(report) has no reproduce command")
        }
    }

    /// Credentials written in the suite that libcurl uses without a header the request holds (digest, NTLM, AWS's
    /// secret key and session token, a netrc file's password, a proxy's password): a server echoing what it was sent
    /// and the reproduce commands show none of them. The fault server acts as the proxy and echoes every header it
    /// gets, `Authorization` and `Proxy-Authorization` included.
    @Test func credentialsLibcurlSendsItselfAreMaskedToo() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let secrets = [
            "DigestPw41xx", "NtlmPw52xx", "AwsSecret62yy", "AwsSession83zz", "NetrcPw94zz", "ProxyPw55xx",
        ]
        let suite = try writeTemporarySuite(
            """
            name: libcurl credentials
            tests:
              - name: netrc
                request: {url: "http://api.example.test/netrc", auth: {netrc: creds.netrc}}
                expect: {body: {equals: "not the body"}}
              - name: digest
                request: {url: "http://api.example.test/digest", auth: {digest: {user: alice, password: DigestPw41xx}}}
                expect: {body: {equals: "not the body"}}
              - name: ntlm
                request: {url: "http://api.example.test/ntlm", auth: {ntlm: {user: alice, password: NtlmPw52xx}}}
                expect: {body: {equals: "not the body"}}
              - name: aws
                request:
                  url: "http://api.example.test/aws"
                  auth:
                    awsSigV4:
                      accessKey: AKIDEXAMPLE
                      secretKey: AwsSecret62yy
                      sessionToken: AwsSession83zz
                      region: us-east-1
                      service: execute-api
                expect: {body: {equals: "not the body"}}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "machine api.example.test login nina password NetrcPw94zz\n".write(
            to: folder.appendingPathComponent("creds.netrc"), atomically: true, encoding: .utf8)
        let reports = ["junit.xml", "tap.txt", "report.json", "report.html", "requests.sh"].map {
            folder.appendingPathComponent($0)
        }
        let result = try await runAPITest([
            "run", suite.path, "--verbose", "--proxy", "http://pu:ProxyPw55xx@127.0.0.1:\(server.port)",
            "--report-junit", reports[0].path, "--report-tap", reports[1].path, "--report-json", reports[2].path,
            "--report-html", reports[3].path, "--curl", reports[4].path,
        ])
        #expect(result.exitCode == 1, "\(result.stderr)")
        // The requests went through the proxy with their credentials (it echoes them, masked here).
        #expect(result.stdout.contains("4 tests: 0 passed, 4 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("proxied"), "\(result.stdout)")
        var outputs = ["console (stdout, with --verbose)": result.stdout, "console (stderr)": result.stderr]
        for report in reports { outputs[report.lastPathComponent] = try String(contentsOf: report, encoding: .utf8) }
        var leaks = secrets
        for pair in ["nina:NetrcPw94zz", "pu:ProxyPw55xx"] {
            leaks.append(String(Data(pair.utf8).base64EncodedString().dropLast(2)))
        }
        for (output, text) in outputs {
            for leak in leaks { #expect(!text.contains(leak), "\(output) shows '\(leak)'") }
        }
        #expect(result.stdout.contains("•••••"))
    }
    /// A proxy libcurl takes from the environment (`http_proxy`) with a password: its `Proxy-Authorization`, echoed
    /// by the proxy, is masked too.
    @Test func aProxyPasswordFromTheEnvironmentIsMasked() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let suite = try writeTemporarySuite(
            """
            name: environment proxy
            tests:
              - name: through the proxy
                request: {url: "http://api.example.test/env-proxy"}
                expect: {body: {equals: "not the body"}}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--verbose"],
            environment: ["http_proxy": "http://pu:EnvProxyPw66@127.0.0.1:\(server.port)"])
        #expect(result.exitCode == 1, "\(result.stderr)")
        // The proxy answered (its echo of the request line is in the failure).
        #expect(result.stdout.contains(#""proxied""#), "\(result.stdout)")
        let basic = String(Data("pu:EnvProxyPw66".utf8).base64EncodedString().dropLast(2))
        for leak in ["EnvProxyPw66", basic] {
            #expect(!result.stdout.contains(leak) && !result.stderr.contains(leak), "shows '\(leak)'")
        }
    }
}
