import APITestHTTP
import APITestResults
import APITestSecrets
import APITestSuite
import APITestTestSupport
import Foundation
import Synchronization
import Testing

@testable import APITestRunner

/// The curl command each failed step carries (`StepResult.reproduce`), on a scripted transport: secrets as
/// `"${NAME}"`, never their values in any encoding; derived secrets and credentials written in the suite as the
/// placeholder with a note; values from a server quoted so that the shell runs nothing of them.
@Suite struct ReproduceCommandTests {
    /// Keeps every finished test result.
    final class Results: Reporter {
        private let results = Mutex<[TestResult]>([])
        func handle(_ event: RunEvent) {
            if case .testFinished(let result) = event { results.withLock { $0.append(result) } }
        }
        var all: [TestResult] { results.withLock { $0 } }
        func named(_ name: String) -> TestResult? { all.first { $0.name == name } }
    }

    static let secret = #"Zq9 "vä lue"/Kx+7Wm"#

    private func run(
        _ yaml: String, environment: [String: String] = [:], recordsEveryRequest: Bool = false,
        transport: ScriptedTransport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
    ) async throws -> Results {
        let suite = try SuiteLoader(environment: environment).load(source: yaml, file: "suite.yaml")
        let results = Results()
        var options = RunOptions(jobs: 1)
        options.recordsRequestCommands = recordsEveryRequest
        _ = await Runner(transport: transport, options: options).run([suite], reporter: results)
        return results
    }

    /// The arguments `bash` hands curl for `command`, with `environment` set.
    private func arguments(
        of command: ReproduceCommand, shell: String = "/bin/bash", environment: [String: String] = [:],
        in folder: URL? = nil
    ) throws -> [String] {
        try arguments(
            ofScript: "printf '%s\\0' " + command.words.dropFirst().joined(separator: " "), shell: shell,
            environment: environment, in: folder)
    }

    /// The arguments `shell` hands the last command of `script` (a `printf '%s\0'` in place of curl).
    private func arguments(
        ofScript script: String, shell: String, environment: [String: String] = [:], in folder: URL? = nil
    ) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", script]
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { first, _ in first }
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The forms of `secret` that must not appear: the text itself, a distinctive piece, base64 of its middle.
    private func leaks(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        var leaks = [secret, String(secret.prefix(4)), String(secret.suffix(4))]
        for skip in 0..<3 {
            let groups = (bytes.count - skip) / 3
            leaks.append(Data(bytes[skip..<(skip + groups * 3)]).base64EncodedString())
        }
        return leaks
    }

    @Test func secretsBecomeEnvironmentReferencesInEveryField() async throws {
        let results = try await run(
            """
            variables:
              password: "{{ env.API_PASSWORD }}"
            tests:
              - name: everywhere
                request:
                  method: POST
                  url: "http://api.test/users/{{ env.API_PASSWORD }}"
                  query: {key: "{{ env.API_PASSWORD }}"}
                  headers: {X-Token: "Bearer {{ env.API_TOKEN }}", X-Pass: "{{ password }}"}
                  basicAuth: {username: alice, password: "{{ password }}"}
                  json: {password: "{{ password }}", n: 1}
                expect: {status: 201}
            """, environment: ["API_PASSWORD": Self.secret, "API_TOKEN": "tok-Qw8-Lp3"])
        let command = try #require(results.named("everywhere")?.steps.first?.reproduce)
        for leak in leaks(of: Self.secret) + ["tok-Qw8-Lp3"] {
            #expect(!command.line.contains(leak), "\(command.line) holds \(leak)")
            #expect(!command.notes.joined().contains(leak))
        }
        #expect(command.line.contains(#"'X-Token: Bearer '"${API_TOKEN}""#), "\(command.line)")
        #expect(command.line.contains(#"-u alice:"${API_PASSWORD}""#), "\(command.line)")
        #expect(!command.line.contains("Authorization"), "curl makes the Basic header of -u")
        #expect(command.line.contains(#"--data-binary '{"password":"'"${API_PASSWORD}"'","n":1}'"#), "\(command.line)")
        // The secret needed JSON and percent-encoding: the command says that it passes it as it is.
        #expect(command.notes.contains { $0.contains("{{ env.API_PASSWORD }} encoded") }, "\(command.notes)")

        let environment = ["API_PASSWORD": Self.secret, "API_TOKEN": "tok-Qw8-Lp3"]
        let arguments = try arguments(of: command, environment: environment)
        #expect(arguments.contains("X-Token: Bearer tok-Qw8-Lp3"))
        #expect(arguments.contains("X-Pass: \(Self.secret)"))
        #expect(arguments.contains("alice:\(Self.secret)"))
        #expect(arguments.first == "http://api.test/users/\(Self.secret)?key=\(Self.secret)")
    }

    /// curl 7.88 sends custom headers to every host a redirect names; apitest leaves a secret header out on a redirect
    /// to another origin, so the command it prints does not follow redirects when it carries one.
    @Test func aCommandWithASecretHeaderDoesNotFollowRedirects() async throws {
        let results = try await run(
            """
            tests:
              - name: secret header
                request: {url: "http://api.test/a", headers: {X-Api-Key: "{{ env.API_KEY }}"}}
                expect: {status: 201}
              - name: plain header
                request: {url: "http://api.test/b", headers: {X-Trace: "t1"}}
                expect: {status: 201}
              - name: secret authorization
                request: {url: "http://api.test/c", headers: {Authorization: "Bearer {{ env.API_KEY }}"}}
                expect: {status: 201}
            """, environment: ["API_KEY": "key-Rt7-Vb2"])
        let secret = try #require(results.named("secret header")?.steps.first?.reproduce)
        #expect(!secret.words.contains("-L"), "\(secret.line)")
        #expect(!secret.words.contains("--max-redirs"), "\(secret.line)")
        #expect(
            secret.notes.contains { $0.contains("no -L") && $0.lowercased().contains("x-api-key") }, "\(secret.notes)")
        let plain = try #require(results.named("plain header")?.steps.first?.reproduce)
        #expect(plain.words.contains("-L"), "\(plain.line)")
        #expect(!plain.notes.contains { $0.contains("no -L") })
        // curl itself leaves Authorization and Cookie out on a redirect to another host.
        let authorization = try #require(results.named("secret authorization")?.steps.first?.reproduce)
        #expect(authorization.words.contains("-L"), "\(authorization.line)")
    }

    @Test func transportSettingsFromTheEnvironmentBecomeReferencesToo() async throws {
        let results = try await run(
            """
            defaults:
              proxy: "{{ env.PROXY_URL }}"
              noProxy: "{{ env.NO_PROXY_HOSTS }}"
              connectTo: ["api.test:80:{{ env.BACKEND }}:8080"]
            tests:
              - name: proxied
                request: {url: "http://api.test/x"}
                expect: {status: 201}
            """,
            environment: [
                "PROXY_URL": "http://pu:Prx-Pw-77@proxy.test:3128", "NO_PROXY_HOSTS": "internal.test",
                "BACKEND": "10.1.2.3",
            ])
        let command = try #require(results.named("proxied")?.steps.first?.reproduce)
        #expect(command.line.contains(#"--proxy "${PROXY_URL}""#), "\(command.line)")
        #expect(command.line.contains(#"--noproxy "${NO_PROXY_HOSTS}""#), "\(command.line)")
        #expect(command.line.contains(#"--connect-to api.test:80:"${BACKEND}":8080"#), "\(command.line)")
        #expect(!command.line.contains("APITEST"), "a stand-in leaked into the command: \(command.line)")
        let arguments = try arguments(
            of: command,
            environment: [
                "PROXY_URL": "http://pu:Prx-Pw-77@proxy.test:3128", "NO_PROXY_HOSTS": "internal.test",
                "BACKEND": "10.1.2.3",
            ])
        #expect(arguments.contains("internal.test"), "\(arguments)")
        #expect(arguments.contains("api.test:80:10.1.2.3:8080"), "\(arguments)")
    }

    @Test func aSecretNoVariableHoldsIsANamedVariableWithANote() async throws {
        let transport = ScriptedTransport { request, _ in
            ScriptedTransport.response(to: request, body: #"{"t":"\#(request.headers["X-Secret"] ?? "")"}"#)
        }
        let results = try await run(
            """
            tests:
              - name: derived
                steps:
                  - request: {url: "http://api.test/a", headers: {X-Secret: "{{ env.LEAK_ME }}"}}
                    capture: {lower: {jsonpath: $.t, filters: [lowercase]}}
                  - request: {url: "http://api.test/b", headers: {X-Derived: "Bearer {{ lower }}"}}
                    expect: {status: 500}
            """, environment: ["LEAK_ME": "Secret-Value-42"], transport: transport)
        let command = try #require(results.named("derived")?.steps.last?.reproduce)
        #expect(!command.line.lowercased().contains("secret-value-42"))
        // Runnable once the variable is set, and marked: a note names the variable and what to put in it.
        #expect(command.line.contains(#"'X-Derived: Bearer '"${APITEST_LOWER}""#), "\(command.line)")
        #expect(!command.line.contains("•"), "\(command.line)")
        #expect(
            command.notes.contains {
                $0.contains("${APITEST_LOWER} stands for {{ lower }}") && $0.contains("captured from a response")
                    && $0.contains("set APITEST_LOWER")
            },
            "\(command.notes)")
        for shell in ["/bin/dash", "/bin/bash"] {
            let arguments = try arguments(of: command, shell: shell, environment: ["APITEST_LOWER": "v a'l"])
            #expect(arguments.contains("X-Derived: Bearer v a'l"), "\(arguments)")
        }
    }

    @Test func aSecretAFilterChangedIsANamedVariableWithANote() async throws {
        let results = try await run(
            """
            tests:
              - name: encoded
                request: {url: "http://api.test/a", headers: {X-Sig: "sig {{ base64Encode(env.LEAK_ME) }}"}}
                expect: {status: 500}
            """, environment: ["LEAK_ME": "Secret-Value-42"])
        let command = try #require(results.named("encoded")?.steps.first?.reproduce)
        #expect(!command.line.contains(Data("Secret-Value-42".utf8).base64EncodedString()))
        // The part of the value a filter made of the secret is a variable of its own, named in a note.
        #expect(command.line.contains(#"'X-Sig: sig '"${APITEST_HEADER_X_SIG}""#), "\(command.line)")
        #expect(!command.line.contains("•"), "\(command.line)")
        #expect(command.notes.contains { $0.hasPrefix("${APITEST_HEADER_X_SIG} stands for") }, "\(command.notes)")

        // The export the same, where nothing was sent: not the base64 of a stand-in ("APITEST..."), unmarked.
        let suite = try SuiteLoader(environment: ["LEAK_ME": "Secret-Value-42"]).load(
            source: """
                tests:
                  - name: encoded
                    request: {url: "http://api.test/a", headers: {X-Sig: "sig {{ base64Encode(env.LEAK_ME) }}"}}
                """, file: "suite.yaml")
        let exported = try #require(CurlExport.entries(of: [suite], options: RunOptions(jobs: 1)).first?.command)
        #expect(!exported.line.contains(Data("APITEST".utf8).base64EncodedString().prefix(8)), "\(exported.line)")
        #expect(exported.line.contains(#"'X-Sig: sig '"${APITEST_HEADER_X_SIG}""#), "\(exported.line)")
    }

    @Test func aGeneratedValueBesideASecretStaysTheValueSent() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let results = try await run(
            """
            tests:
              - name: generated
                request:
                  url: "http://api.test/a"
                  headers: {X-Id: "{{ uuid() }}", X-Token: "{{ env.LEAK_ME }}"}
                expect: {status: 500}
            """, environment: ["LEAK_ME": "Secret-Value-42"], transport: transport)
        let command = try #require(results.named("generated")?.steps.first?.reproduce)
        let sentID = try #require(transport.requests.first?.headers["X-Id"])
        #expect(command.line.contains("'X-Id: \(sentID)'"), "\(command.line)")
        #expect(command.line.contains(#"'X-Token: '"${LEAK_ME}""#), "\(command.line)")
    }

    @Test func aSecretSuiteVariableIsAReferenceToItsEnvironmentVariableOrItsOwn() async throws {
        var loader = SuiteLoader(environment: ["TOK": "tok-Zx81-secret"], overrides: ["apiToken": "vf-Secret-77"])
        loader.secretOverrides = ["apiToken"]
        let suite = try loader.load(
            source: """
                variables:
                  token: "Bearer {{ env.TOK }}"
                  apiToken: placeholder
                tests:
                  - name: secrets
                    request:
                      url: "http://api.test/a"
                      headers: {Authorization: "{{ token }}", X-Api-Key: "{{ apiToken }}"}
                    expect: {status: 500}
                """, file: "suite.yaml")
        let results = Results()
        _ = await Runner(
            transport: ScriptedTransport { request, _ in ScriptedTransport.response(to: request) },
            options: RunOptions(jobs: 1)
        ).run([suite], reporter: results)
        let command = try #require(results.named("secrets")?.steps.first?.reproduce)
        #expect(!command.line.contains("tok-Zx81-secret") && !command.line.contains("vf-Secret-77"))
        #expect(command.line.contains(#"'Authorization: Bearer '"${TOK}""#), "\(command.line)")
        #expect(command.line.contains(#"'X-Api-Key: '"${APITEST_APITOKEN}""#), "\(command.line)")
        #expect(!command.line.contains("•"), "\(command.line)")
        #expect(
            command.notes.contains {
                $0.contains("${APITEST_APITOKEN} stands for {{ apiToken }}, a secret --var or variables-file value")
            }, "\(command.notes)")
        let arguments = try arguments(
            of: command, shell: "/bin/dash", environment: ["TOK": "t1", "APITEST_APITOKEN": "k2"])
        #expect(arguments.contains("Authorization: Bearer t1"), "\(arguments)")
        #expect(arguments.contains("X-Api-Key: k2"), "\(arguments)")
    }

    @Test func credentialsWrittenInTheSuiteAreMasked() async throws {
        let results = try await run(
            """
            tests:
              - name: literal
                request:
                  url: "http://api.test/a"
                  headers: {Authorization: "Bearer literal-token-123", Cookie: "sid=abc123; theme=dark"}
                expect: {status: 500}
              - name: basic
                request:
                  url: "http://api.test/a"
                  basicAuth: {username: bob, password: hunter22}
                expect: {status: 500}
            """)
        // Each credential is a variable of its own, named in a note: the command runs once they are set.
        let literal = try #require(results.named("literal")?.steps.first?.reproduce)
        #expect(!literal.line.contains("literal-token-123"))
        #expect(!literal.line.contains("abc123"))
        #expect(!literal.line.contains("•"), "\(literal.line)")
        #expect(literal.line.contains(#"'Authorization: Bearer '"${APITEST_AUTHORIZATION}""#), "\(literal.line)")
        #expect(
            literal.line.contains(#"'Cookie: sid='"${APITEST_COOKIE_SID}"'; theme='"${APITEST_COOKIE_THEME}""#),
            "\(literal.line)")
        for variable in ["APITEST_AUTHORIZATION", "APITEST_COOKIE_SID", "APITEST_COOKIE_THEME"] {
            #expect(literal.notes.contains { $0.hasPrefix("${\(variable)} stands for") }, "\(literal.notes)")
        }
        let arguments = try arguments(
            of: literal, shell: "/bin/dash",
            environment: ["APITEST_AUTHORIZATION": "t", "APITEST_COOKIE_SID": "s", "APITEST_COOKIE_THEME": "d"])
        #expect(arguments.contains("Authorization: Bearer t"), "\(arguments)")
        #expect(arguments.contains("Cookie: sid=s; theme=d"), "\(arguments)")
        let basic = try #require(results.named("basic")?.steps.first?.reproduce)
        #expect(basic.line.contains(#"-u bob:"${APITEST_SECRET}""#), "\(basic.line)")
        #expect(basic.notes.contains { $0.hasPrefix("${APITEST_SECRET} stands for") }, "\(basic.notes)")
    }

    @Test func hostileCapturesCannotBreakTheQuoting() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-quote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Every way out of the quoting would run a `touch` of MARKER, in this test's own folder.
        let hostile = "x'\t$(touch MARKER) `touch MARKER` \"q\" \\ ;\ntouch MARKER #\u{202E}\n"
        // A header cannot hold the line break (no command is written for a request the wire check refuses).
        let hostileLine = "x'\t$(touch MARKER) `touch MARKER` \"q\" \\ ; touch MARKER #"
        let transport = ScriptedTransport { request, _ in
            let body = String(decoding: JSONWriterShim.string(["v": hostile, "h": hostileLine]), as: UTF8.self)
            return ScriptedTransport.response(to: request, body: body)
        }
        let results = try await run(
            """
            tests:
              - name: hostile
                steps:
                  - request: {url: "http://api.test/a"}
                    capture: {v: {jsonpath: $.v}, h: {jsonpath: $.h}}
                  - request:
                      method: POST
                      url: "http://api.test/b"
                      headers: {X-V: "{{ h }}"}
                      body: "{{ v }}"
                    expect: {status: 500}
            """, transport: transport)
        let command = try #require(results.named("hostile")?.steps.last?.reproduce)
        #expect(!command.line.contains("$'"), "bash's quoting, which dash does not read: \(command.line)")
        #expect(!command.line.contains("\n"), "the line is one line: \(command.line)")
        #expect(!command.line.unicodeScalars.contains("\u{202E}"), "\(command.line)")
        // The one-line form, as printed after `reproduce:`, with curl replaced by printf.
        let line = command.line.replacingOccurrences(of: "; curl ", with: "; printf '%s\\0' ")
        for shell in ["/bin/dash", "/bin/bash"] {
            for arguments in [
                try arguments(of: command, shell: shell, in: folder),
                try arguments(ofScript: line, shell: shell, in: folder),
            ] {
                #expect(arguments.contains("X-V: \(hostileLine)"), "\(shell): \(arguments)")
                #expect(arguments.contains(hostile), "\(shell): \(arguments)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("MARKER").path))
    }

    @Test func theMethodIsWrittenOnlyWhereCurlWouldPickAnother() async throws {
        let results = try await run(
            """
            tests:
              - {name: head, request: {method: HEAD, url: "http://api.test/a"}, expect: {status: 500}}
              - {name: delete, request: {method: DELETE, url: "http://api.test/a"}, expect: {status: 500}}
              - {name: post empty, request: {method: POST, url: "http://api.test/a"}, expect: {status: 500}}
              - {name: put json, request: {method: PUT, url: "http://api.test/a", json: {a: 1}}, expect: {status: 500}}
              - {name: post json, request: {method: POST, url: "http://api.test/a", json: {a: 1}}, expect: {status: 500}}
            """)
        func words(_ name: String) -> [String] { results.named(name)?.steps.first?.reproduce?.words ?? [] }
        #expect(words("head").contains("--head"))
        #expect(words("delete").joined(separator: " ").contains("-X DELETE"))
        #expect(words("post empty").joined(separator: " ").contains("-X POST"))
        #expect(words("put json").joined(separator: " ").contains("-X PUT"))
        #expect(!words("post json").contains("-X"))
        #expect(words("post json").joined(separator: " ").contains("-H Content-Type:") == false)
        #expect(words("post empty").joined(separator: " ").contains("-H Expect:") == false)
        #expect(words("post json").joined(separator: " ").contains("-H Expect:"))
    }

    @Test func aBodyWithNULBytesIsPipedByPrintf() async throws {
        let transport = ScriptedTransport { request, _ in ScriptedTransport.response(to: request) }
        let results = try await run(
            """
            tests:
              - name: binary
                request: {method: POST, url: "http://api.test/a", plist: {theme: dark, volume: 7}, plistFormat: binary}
                expect: {status: 500}
            """, transport: transport)
        let command = try #require(results.named("binary")?.steps.first?.reproduce)
        let input = try #require(command.input)
        #expect(command.words.joined(separator: " ").contains("--data-binary @-"))
        guard case .data(let sent) = transport.requests.first?.body else {
            Issue.record("no body sent")
            return
        }
        #expect(sent.contains(0), "a binary plist holds NUL bytes")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", input]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let written = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(written == sent)
    }

    @Test func theSuitesTLSSettingsBecomeCurlOptionsWithNotes() async throws {
        let results = try await run(
            """
            security:
              pinning: publicKey
              pins: ["sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "sha256//AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="]
              allowInvalidCertificates: true
            tests:
              - {name: tls, request: {url: "https://api.test/a"}, expect: {status: 500}}
            """)
        let command = try #require(results.named("tls")?.steps.first?.reproduce)
        #expect(command.words.contains("--insecure"))
        #expect(
            command.line.contains(
                "--pinnedpubkey 'sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;"
                    + "sha256//AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE='"), "\(command.line)")
        #expect(command.notes.contains { $0.contains("--insecure also skips the host-name check") })
        #expect(command.notes.contains { $0.contains("server's own certificate only") })
    }

    @Test func passingStepsCarryNoCommandUnlessEveryRequestIsRecorded() async throws {
        let yaml = """
            tests:
              - name: two
                steps:
                  - request: {url: "http://api.test/a"}
                  - request: {url: "http://api.test/b"}
            """
        let plain = try await run(yaml)
        #expect(plain.named("two")?.steps.allSatisfy { $0.reproduce == nil } == true)
        let recorded = try await run(yaml, recordsEveryRequest: true)
        let sequences = recorded.named("two")?.steps.compactMap { $0.reproduce?.sequence }
        #expect(sequences == [1, 2])
    }

    @Test func everyAttemptOfARetriedStepIsRecorded() async throws {
        let results = try await run(
            """
            tests:
              - name: poll
                request: {url: "http://api.test/job"}
                retry: {attempts: 3, interval: 1ms}
                expect: {status: 500}
            """, recordsEveryRequest: true)
        let step = try #require(results.named("poll")?.steps.first)
        #expect(step.earlierAttempts.compactMap(\.sequence) == [1, 2])
        #expect(step.reproduce?.sequence == 3)
    }
}

/// JSON text of a string map, for scripted bodies.
private enum JSONWriterShim {
    static func string(_ object: [String: String]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }
}
