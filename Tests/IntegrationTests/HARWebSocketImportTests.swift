import Foundation
import Testing

/// `apitest import har` of a WebSocket conversation end to end: headless Chromium's recording of a conversation with
/// the `websockets` echo server (PyPI; `APITestImportTests/Fixtures/har/chromium-websocket.har`) imported with the
/// CLI, validated, and run against a fresh echo server: green as recorded, red when the recording says the server
/// answered something else.
@Suite struct HARWebSocketImportTests {
    /// A folder holding the fixture (its port replaced by the live server's), and the CLI.
    struct Workspace {
        let folder: URL
        let apitest: URL

        init(fixture edit: (String) -> String = { $0 }) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-harws-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("APITestImportTests/Fixtures/har/chromium-websocket.har")
            let text = try String(contentsOf: fixture, encoding: .utf8)
            try edit(text).write(to: folder.appendingPathComponent("ws.har"), atomically: true, encoding: .utf8)
            apitest = try TestBinaries.url("apitest")
        }

        func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
            var environment = environment
            environment["NO_COLOR"] = "1"
            return try await runProcess(apitest, arguments, environment: environment, currentDirectory: folder)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func theImportedConversationReplaysAgainstTheEchoServer() async throws {
        let echo = try WebSocketServer(mode: "echo")
        defer { echo.stop() }
        let workspace = try Workspace()
        defer { workspace.remove() }
        let imported = try await workspace.run(["import", "har", "ws.har", "-o", "ws.yaml"])
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("wrote ws.yaml: 2 tests"), "\(imported.stderr)")
        let suite = try String(contentsOf: workspace.folder.appendingPathComponent("ws.yaml"), encoding: .utf8)
        #expect(!suite.contains("f00dcafe"), "the recorded cookie is written into the suite")
        #expect(
            FileManager.default.contents(
                atPath: workspace.folder.appendingPathComponent("ws.bodies/entry-3-frame-6.bin").path)
                == Data([0, 1, 2, 255, 128]))

        let environment = ["COOKIE_SESSION": "f00dcafe"]
        let valid = try await workspace.run(["validate", "ws.yaml"], environment: environment)
        #expect(valid.exitCode == 0, "\(valid.stdout)\(valid.stderr)\n\(suite)")

        let origin = "origin=http://127.0.0.1:\(echo.port)"
        let run = try await workspace.run(
            ["run", "ws.yaml", "--jobs", "1", "--var", origin, "--verbose"], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)\n\(suite)")
        #expect(run.stdout.contains("2 passed"), "\(run.stdout)")
        // The conversation as recorded: the welcome, the JSON echoed, the binary message, the hostile text as data.
        #expect(run.stdout.contains("> binary 5 bytes: 000102ff80"), "\(run.stdout)")
        #expect(run.stdout.contains(#"> text "{\"op\":\"add\",\"values\":[1,2],\"sentAt\":"#), "\(run.stdout)")
        #expect(run.stdout.contains(#"< text "key: value\n- item {{ env.HOME }} \"quoted\" "#), "\(run.stdout)")
    }

    @Test func aRunsHARReportOfAWebSocketStepImportsAsAWebSocketStep() async throws {
        // --report-har records a websocket: step's upgrade (as fetch, with its 101, the headers the step was given and
        // the transcript as content; no frames, no Sec-WebSocket-Protocol): the import opens the same connection with
        // the same headers, and closes it.
        let echo = try WebSocketServer(mode: "echo")
        defer { echo.stop() }
        let workspace = try Workspace()
        defer { workspace.remove() }
        try """
        name: live
        tests:
          - name: chat
            steps:
              - websocket:
                  url: \(echo.baseURL)/echo
                  headers: {X-Room: lobby}
                  actions:
                    - send: hi
                    - expect: {body: {equals: hi}}
        """.write(to: workspace.folder.appendingPathComponent("live.yaml"), atomically: true, encoding: .utf8)
        let run = try await workspace.run(["run", "live.yaml", "--report-har", "run.har"])
        try #require(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let imported = try await workspace.run(["import", "har", "run.har", "-o", "again.yaml"])
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        let suite = try String(contentsOf: workspace.folder.appendingPathComponent("again.yaml"), encoding: .utf8)
        #expect(suite.contains("- websocket:\n          url: /echo"), "\(suite)")
        #expect(suite.contains("X-Room: lobby"), "\(suite)")
        #expect(!suite.contains("Sec-WebSocket-Key"), "\(suite)")
        let replay = try await workspace.run(
            ["run", "again.yaml", "--var", "origin=http://127.0.0.1:\(echo.port)", "--verbose"])
        #expect(replay.exitCode == 0, "\(replay.stdout)\(replay.stderr)\n\(suite)")
        #expect(replay.stdout.contains("< close 1000"), "\(replay.stdout)")
    }

    @Test func aServerThatAnswersDifferentlyFailsTheReplay() async throws {
        let echo = try WebSocketServer(mode: "echo")
        defer { echo.stop() }
        // The recording says the server's first message was a "hello", where the echo server says "welcome"; and it
        // echoed the text "hello" as "hullo".
        let workspace = try Workspace { text in
            text.replacingOccurrences(of: #"\"type\": \"welcome\""#, with: #"\"type\": \"hello\""#)
        }
        defer { workspace.remove() }
        let imported = try await workspace.run(["import", "har", "ws.har", "-o", "ws.yaml"])
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        let run = try await workspace.run(
            ["run", "ws.yaml", "--jobs", "1", "--var", "origin=http://127.0.0.1:\(echo.port)"],
            environment: ["COOKIE_SESSION": "f00dcafe"])
        #expect(run.exitCode == 1, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("1 failed"), "\(run.stdout)")
        #expect(run.stdout.contains("$.type"), "\(run.stdout)")
        #expect(run.stdout.contains("hello"), "\(run.stdout)")
    }
}
