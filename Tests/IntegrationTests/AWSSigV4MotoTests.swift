import Foundation
import Testing

/// AWS Signature Version 4 against moto in server mode with IAM authentication on: S3 recomputes every signature
/// (with botocore's signer), so a request libcurl signs wrongly is refused with `SignatureDoesNotMatch`. Buckets and
/// objects with and without a body, a wrong secret refused, and the `--curl` commands replayed by real curl.
@Suite(.serialized) struct AWSSigV4MotoTests {
    @Test func s3AcceptsWhatLibcurlSignsAndRefusesAWrongSecret() async throws {
        let moto = try await MotoServer()
        defer { moto.stop() }
        let suite = try writeTemporarySuite(
            """
            name: s3
            baseURL: \(moto.baseURL)/
            defaults:
              auth:
                awsSigV4:
                  accessKey: "{{ env.AWS_ACCESS_KEY_ID }}"
                  secretKey: "{{ env.AWS_SECRET_ACCESS_KEY }}"
                  region: us-east-1
                  service: s3
            tests:
              - name: a bucket and an object
                steps:
                  - request: {method: PUT, url: apitest-reports}
                    expect: {status: 200}
                  - request: {method: PUT, url: apitest-reports/2026/report.json, json: {ok: true, n: 3}}
                    expect: {status: 200}
                  - request: {method: PUT, url: apitest-reports/notes.txt, body: "plain text, with a comma"}
                    expect: {status: 200}
                  - request: {url: apitest-reports/2026/report.json}
                    expect: {status: 200, json: {$.ok: true, $.n: 3}}
                  - request: {url: "apitest-reports?list-type=2"}
                    expect: {status: 200, xml: {"count(//*[local-name()='Key'])": 2}}
              - name: a wrong secret key
                request:
                  url: apitest-reports/2026/report.json
                  auth: {awsSigV4: {accessKey: "{{ env.AWS_ACCESS_KEY_ID }}", secretKey: not-the-secret, region: us-east-1, service: s3}}
                expect: {status: 403, body: {contains: SignatureDoesNotMatch}}
            """)
        let folder = suite.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let commands = folder.appendingPathComponent("requests.sh")
        let environment = ["AWS_ACCESS_KEY_ID": moto.accessKey, "AWS_SECRET_ACCESS_KEY": moto.secretKey]
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "1", "--curl", commands.path], environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("2 tests: 2 passed"), "\(result.stdout)")
        #expect(!result.stdout.contains(moto.secretKey))

        // The commands of the run, replayed by curl itself, are accepted too (the GET of the object among them).
        let script = try String(contentsOf: commands, encoding: .utf8)
        #expect(!script.contains(moto.secretKey))
        #expect(script.contains("x-amz-content-sha256: "))
        #expect(!script.contains("Expect:"))
        // A `curl` first on PATH that runs the real one printing only the status of each command.
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let wrapper = bin.appendingPathComponent("curl")
        try "#!/bin/sh\nexec /usr/bin/curl -s -o /dev/null -w '%{http_code}\\n' \"$@\"\n".write(
            to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        var replay = ProcessInfo.processInfo.environment
        for (key, value) in environment { replay[key] = value }
        replay["PATH"] = bin.path + ":" + (replay["PATH"] ?? "/usr/bin:/bin")
        let replayed = try await runProcess(URL(fileURLWithPath: "/bin/sh"), [commands.path], environment: replay)
        let codes = replayed.stdout.split(separator: "\n").map(String.init)
        #expect(codes.count == 6, "\(replayed.stdout)\(replayed.stderr)")
        #expect(codes.prefix(5).allSatisfy { $0 == "200" }, "\(replayed.stdout)")
        #expect(codes.last == "403")
    }

    @Test func temporaryCredentialsPassWithTheirSessionTokenOnly() async throws {
        let moto = try await MotoServer()
        defer { moto.stop() }
        let suite = try writeTemporarySuite(
            """
            name: s3 with a role
            baseURL: \(moto.baseURL)/
            tests:
              - name: with the session token
                steps:
                  - request:
                      method: PUT
                      url: apitest-role
                      auth: &role
                        awsSigV4:
                          accessKey: "{{ env.ROLE_KEY }}"
                          secretKey: "{{ env.ROLE_SECRET }}"
                          sessionToken: "{{ env.ROLE_TOKEN }}"
                          region: us-east-1
                          service: s3
                    expect: {status: 200}
                  - request: {method: PUT, url: apitest-role/a.txt, body: "from a role", contentType: text/plain, auth: *role}
                    expect: {status: 200}
                  - request: {url: apitest-role/a.txt, auth: *role}
                    expect: {status: 200, body: {equals: "from a role"}}
              - name: without it
                request:
                  url: apitest-role/a.txt
                  auth: {awsSigV4: {accessKey: "{{ env.ROLE_KEY }}", secretKey: "{{ env.ROLE_SECRET }}", region: us-east-1, service: s3}}
                expect: {status: 403}
            """)
        defer { try? FileManager.default.removeItem(at: suite.deletingLastPathComponent()) }
        let result = try await runAPITest(
            ["run", suite.path, "--jobs", "1"],
            environment: [
                "ROLE_KEY": moto.roleAccessKey, "ROLE_SECRET": moto.roleSecretKey, "ROLE_TOKEN": moto.sessionToken,
            ])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("2 tests: 2 passed"), "\(result.stdout)")
        #expect(!result.stdout.contains(moto.sessionToken) && !result.stdout.contains(moto.roleSecretKey))
    }
}
