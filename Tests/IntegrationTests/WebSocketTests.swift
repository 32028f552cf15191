import Foundation
import Testing

/// `websocket:` steps end to end: apitest against servers nobody here wrote (the `websockets` library and a
/// Starlette app on uvicorn, from PyPI), over TLS with the suite's pins, and against a hostile server whose
/// malformed frames each end their step with a clear error (and the close code RFC 6455 asks the client to send).
@Suite(.serialized) final class WebSocketTests {
    let echo: WebSocketServer
    let folder: URL

    init() throws {
        echo = try WebSocketServer(mode: "echo")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-ws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        echo.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The JSON report the last `run` wrote.
    private var report: String {
        (try? String(contentsOf: folder.appendingPathComponent("report.json"), encoding: .utf8)) ?? ""
    }

    /// Writes `yaml` as a suite in the test's folder and runs it with `arguments` (and a JSON report, `report`).
    private func run(
        _ yaml: String, _ arguments: [String] = ["--verbose"], environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        let suite = folder.appendingPathComponent("suite-\(UUID().uuidString).yaml")
        try yaml.write(to: suite, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.json").path
        return try await runAPITest(
            ["run", suite.path, "--report-json", report] + arguments, environment: environment)
    }

    // MARK: - The websockets library

    @Test func aConversationWithTheEchoServer() async throws {
        let binary = folder.appendingPathComponent("blob.bin")
        try Data([0, 1, 2, 0xFF, 0x80]).write(to: binary)
        let result = try await run(
            """
            name: echo
            tests:
              - name: conversation
                steps:
                  - websocket:
                      url: \(echo.baseURL)/greet
                      subprotocols: [superchat, chat]
                      subprotocol: superchat
                      actions:
                        - expect: {json: {$.type: {equals: welcome}}}
                          capture: {id: {jsonpath: $.id}}
                        - send: "id {{ id }}"
                        - expect: {body: {equals: "id 42"}}
                        - send: {json: {op: add, values: [1, 2]}}
                        - expect: {json: {$.op: {equals: add}, "$.values[1]": {equals: 2}}}
                        - send: {file: blob.bin}
                        - expect: {bodySize: {equals: 5}, md5: {equals: 4bfbb4a69ed32c25d72e63c3801b385c}}
                        - ping: are you there
                        - close: {code: 1000, reason: done, expect: {code: 1000}}
                  - request: {url: "http://127.0.0.1:1/{{ id }}", timeout: 1s}
                    expect: {status: 200}
            """, ["--verbose"])
        // The second step (a refused connection) proves the capture reached a later step's URL.
        #expect(result.stdout.contains("http://127.0.0.1:1/42"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("> text \"id 42\""), "\(result.stdout)")
        #expect(result.stdout.contains("< text \"id 42\""), "\(result.stdout)")
        #expect(result.stdout.contains("> ping \"are you there\""), "\(result.stdout)")
        #expect(result.stdout.contains("< pong \"are you there\""), "\(result.stdout)")
        #expect(result.stdout.contains("> binary 5 bytes: 000102ff80"), "\(result.stdout)")
        #expect(result.stdout.contains("< close 1000"), "\(result.stdout)")
        #expect(result.stdout.contains("101"), "\(result.stdout)")
    }

    @Test func fragmentsWithPingsBetweenThemMakeOneMessage() async throws {
        let result = try await run(
            """
            name: fragments
            tests:
              - name: fragments
                steps:
                  - websocket:
                      url: \(echo.baseURL)/fragments
                      actions:
                        - expect: {body: {equals: "Hello, fragments"}}
                        - expect: {json: {$.after: {equals: fragments}}}
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("< text \"Hel\" (more fragments follow)"), "\(result.stdout)")
        #expect(result.stdout.contains("< continuation \"lo, \" (more fragments follow)"), "\(result.stdout)")
        #expect(result.stdout.contains("< ping \"between-1\""), "\(result.stdout)")
        #expect(result.stdout.contains("> pong \"between-1\""), "\(result.stdout)")
    }

    @Test func matchSkipsMessagesUntilOnePasses() async throws {
        let passing = try await run(
            """
            name: ticks
            tests:
              - name: ticks
                steps:
                  - websocket:
                      url: \(echo.baseURL)/ticks
                      actions:
                        - match: {json: {$.n: {equals: 4}}}
                          timeout: 3s
                        - expect: {json: {$.n: {equals: 5}}}
                        - expect: {body: {equals: done}}
            """)
        #expect(passing.exitCode == 0, "\(passing.stdout)\(passing.stderr)")
        let failing = try await run(
            """
            name: ticks
            tests:
              - name: never
                steps:
                  - websocket:
                      url: \(echo.baseURL)/ticks
                      actions:
                        - match: {json: {$.n: {equals: 9}}}
                          timeout: 500ms
            """, [])
        #expect(failing.exitCode == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("no message matched within 500 ms (6 messages did not)"), "\(failing.stdout)")
    }

    @Test func aFailingExpectationFailsTheStepAtItsCheck() async throws {
        let result = try await run(
            """
            name: wrong
            tests:
              - name: wrong
                steps:
                  - websocket:
                      url: \(echo.baseURL)/echo
                      actions:
                        - send: {json: {a: 1}}
                        - expect: {json: {$.a: {equals: 2}}}
            """, [])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("$.a"), "\(result.stdout)")
        #expect(result.stdout.contains(".yaml:9:"), "the failure is located at the check: \(result.stdout)")
    }

    @Test func theServersCloseCodeAndReasonAreChecked() async throws {
        let result = try await run(
            """
            name: close
            tests:
              - name: asked
                steps:
                  - websocket:
                      url: \(echo.baseURL)/echo
                      actions:
                        - send: close-me
                        - close: {expect: {code: 4001, reason: asked}}
              - name: wrong code
                steps:
                  - websocket:
                      url: \(echo.baseURL)/echo
                      actions:
                        - send: close-me
                        - close: {expect: {code: 1000}}
            """, [])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed"), "\(result.stdout)")
        #expect(result.stdout.contains("expected the server to close with 1000, got 4001"), "\(result.stdout)")
    }

    @Test func headersAndABearerTokenGoOnTheUpgradeAndTheTokenIsMasked() async throws {
        let result = try await run(
            """
            name: auth
            tests:
              - name: token
                steps:
                  - websocket:
                      url: \(echo.baseURL)/auth
                      auth: {bearer: "{{ env.WS_TOKEN }}"}
                      actions:
                        - send: "token {{ env.WS_TOKEN }}"
                        - expect: {body: {equals: "token {{ env.WS_TOKEN }}"}}
              - name: headers
                steps:
                  - websocket:
                      url: \(echo.baseURL)/headers?x=1
                      headers: {X-Trace: abc}
                      actions:
                        - expect: {json: {"$['x-trace']": {equals: abc}, "$['sec-websocket-version']": {equals: "13"}}}
              - name: no token
                steps:
                  - websocket:
                      url: \(echo.baseURL)/auth
                      actions: [{ping: null}]
            """, ["--verbose"], environment: ["WS_TOKEN": "s3cret"])
        #expect(result.exitCode != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed"), "\(result.stdout)")
        #expect(result.stdout.contains("the server did not switch to WebSocket: it answered 401"), "\(result.stdout)")
        #expect(report.contains("webSocketHandshake"), "\(report)")
        // The token is masked in the upgrade's headers and in the frames that carried it both ways.
        #expect(!result.stdout.contains("s3cret"), "the token is masked: \(result.stdout)")
        #expect(result.stdout.contains("> text \"token •••••\""), "\(result.stdout)")
        #expect(!report.contains("s3cret"), "\(report)")
    }

    // MARK: - Starlette on uvicorn

    @Test func aStarletteEndpointOnUvicorn() async throws {
        let starlette = try WebSocketServer(mode: "starlette")
        defer { starlette.stop() }
        let result = try await run(
            """
            name: starlette
            tests:
              - name: chat
                steps:
                  - websocket:
                      url: \(starlette.baseURL)/ws
                      actions:
                        - expect: {json: {$.hello: {equals: starlette}}}
                        - send: ping me
                        - expect: {json: {$.echo: {equals: ping me}}}
                        - send: bye
                        - close: {expect: {code: 1000, reason: bye}}
            """)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    // MARK: - wss with pins

    @Test func wssHonoursTheSuitesPins() async throws {
        let fixture = try await PinningFixture.start()
        defer { fixture.stop() }
        let secure = try WebSocketServer(
            mode: "echo", certificate: fixture.file("chain.pem"), key: fixture.file("leaf.key"))
        defer { secure.stop() }
        func suite(pin: String, backup: String) -> String {
            """
            name: wss
            security: {caFile: \(fixture.file("root.pem")), pinning: publicKey, pins: ["\(pin)", "\(backup)"]}
            tests:
              - name: pinned
                steps:
                  - websocket:
                      url: \(secure.baseURL)/echo
                      actions:
                        - send: over tls
                        - expect: {body: {equals: over tls}}
            """
        }
        let pinned = try await run(suite(pin: fixture.pins["leaf"] ?? "", backup: fixture.pins["root"] ?? ""), [])
        #expect(pinned.exitCode == 0, "\(pinned.stdout)\(pinned.stderr)")
        let wrong = try await run(suite(pin: fixture.pins["unrelated"] ?? "", backup: fixture.pins["other"] ?? ""), [])
        #expect(wrong.exitCode != 0, "\(wrong.stdout)\(wrong.stderr)")
        #expect(report.contains("pinMismatch"), "\(wrong.stdout)\(report)")
    }

    // MARK: - A hostile server

    @Test func eachMalformedFrameIsAClearErrorOfItsStep() async throws {
        let hostile = try WebSocketServer(mode: "hostile")
        defer { hostile.stop() }
        let cases: [(path: String, message: String, kind: String)] = [
            ("/masked", "the server sent a masked frame", "webSocketProtocol"),
            ("/badutf8", "text message that is not valid UTF-8", "webSocketProtocol"),
            ("/bigcontrol", "a control frame carries 126 bytes", "webSocketProtocol"),
            ("/rsv", "set reserved bits", "webSocketProtocol"),
            ("/opcode", "reserved opcode 0x3", "webSocketProtocol"),
            ("/toolarge", "larger than the limit of 1048576 bytes", "webSocketProtocol"),
            ("/fragmentedping", "a ping frame is fragmented", "webSocketProtocol"),
            ("/abrupt", "closed the connection without a WebSocket close frame", "webSocketProtocol"),
            ("/badaccept", "Sec-WebSocket-Accept is", "webSocketHandshake"),
            ("/noupgrade", "it answered 200 OK instead of 101", "webSocketHandshake"),
            ("/silent", "no message within 300 ms", "timedOut"),
        ]
        var tests = "name: hostile\ntests:\n"
        for (path, _, _) in cases {
            tests += """
                  - name: \(path)
                    steps:
                      - websocket:
                          url: ws://127.0.0.1:\(hostile.port)\(path)
                          maxMessageSize: 1MiB
                          actions:
                            - expect: {body: {exists: true}}
                              timeout: 300ms

                """
        }
        let result = try await run(tests, ["--jobs", "4"])
        #expect(result.exitCode != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("11 tests: 0 passed, 11 errored"), "\(result.stdout)")
        for (path, message, kind) in cases {
            #expect(result.stdout.contains(message), "\(path): \(result.stdout)")
            #expect(report.contains(kind), "\(path): \(report)")
        }
        // The close code section 7.4.1 asks for went back to the server.
        let lines = hostile.logLines
        #expect(lines.contains("close /masked 1002"), "\(lines)")
        #expect(lines.contains("close /badutf8 1007"), "\(lines)")
        #expect(lines.contains("close /toolarge 1009"), "\(lines)")
    }
}
