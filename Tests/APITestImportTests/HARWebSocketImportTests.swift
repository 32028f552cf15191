import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `apitest import har` of WebSocket entries: a recording of headless Chromium (`Fixtures/har/chromium-websocket.har`,
/// made by `record-chromium-websocket.py` against the `websockets` echo server) and hand-made entries become
/// `websocket:` steps that the suite loader reads back as the same conversation, recorded text staying data.
struct HARWebSocketImportTests {
    /// The recording's archive.
    static func archive() throws -> HARArchive {
        try HARArchive.decode(PostmanFixtures.bytes("har/chromium-websocket.har"), file: "chromium-websocket.har")
    }

    /// The text Chromium sent (and the echo server returned) that YAML, templates and terminals would misread.
    static let hostile = "key: value\n- item {{ env.HOME }} \"quoted\" \u{7} # not a comment"

    /// `suite` written to a fresh folder with its files, loaded with `environment`; the folder is removed after.
    static func load(
        _ suite: SuiteDocument, environment: [String: String] = ["COOKIE_SESSION": "s"]
    ) throws -> (text: String, suite: Suite) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harws-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in suite.files {
            let path = folder + "/" + file.path
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        }
        let text = SuiteDocumentRenderer(suite: suite).render()
        try text.write(toFile: folder + "/suite.yaml", atomically: true, encoding: .utf8)
        do {
            return (text, try SuiteLoader(environment: environment).load(path: folder + "/suite.yaml"))
        } catch {
            Issue.record("the rendered suite does not load: \(error.render(colored: false))\n\(text)")
            throw error
        }
    }

    /// An entry of type `websocket` to `url` with `frames`.
    static func entry(
        _ frames: [HARWebSocketMessage], url: String = "wss://chat.example.com/socket", status: Int = 101,
        type: String? = "websocket", headers: [(name: String, value: String)] = []
    ) -> HAREntry {
        var entry = HAREntry(
            index: 0, resourceType: type, method: "GET", url: url, headers: headers, cookies: [], postData: nil,
            status: status, responseMimeType: nil)
        entry.webSocketMessages = frames
        return entry
    }

    // MARK: - The Chromium recording

    @Test func theChromiumRecordingBecomesAWebSocketStep() throws {
        var importer = HARImporter(archive: try Self.archive(), file: "chromium-websocket.har")
        importer.bodyFolder = "chromium-websocket.bodies"
        let suite = importer.suite()
        // The page (the echo server's 426) and the conversation; the favicon (type other) is left out.
        #expect(suite.tests.map(\.name) == ["GET /", "websocket /greet"])
        #expect(suite.baseURL == "{{ origin }}")
        let test = suite.tests[1]
        let websocket = try #require(test.websocket)
        #expect(websocket.url == "/greet")
        #expect(websocket.subprotocols == ["superchat", "chat"])
        #expect(websocket.subprotocol == "superchat")
        // The handshake's own fields are not sent as headers; the cookie is read from the environment.
        #expect(
            websocket.headers.map(\.name) == [
                "Origin", "Cache-Control", "Accept-Language", "Pragma", "Cookie", "User-Agent",
            ])
        #expect(websocket.headers.contains(SuiteDocument.Header("Cookie", "session={{ env.COOKIE_SESSION }}")))
        #expect(
            suite.files == [
                SuiteDocument.File(path: "chromium-websocket.bodies/entry-3-frame-6.bin", bytes: [0, 1, 2, 255, 128])
            ])

        let (text, loaded) = try Self.load(suite)
        #expect(!text.contains("f00dcafe"), "the cookie's value is written into the suite")
        #expect(
            text.contains(
                """
                  - name: websocket /greet
                    steps:
                      - websocket:
                          url: /greet
                """), "\(text)")
        #expect(
            text.contains(
                """
                          subprotocols:
                            - superchat
                            - chat
                          subprotocol: superchat
                          actions:
                            - expect:
                                json:
                                  $.type:
                                    equals: welcome
                                  $.id:
                                    type: integer
                            - send: hello
                            - expect:
                                body:
                                  equals: hello
                            - send:
                                json:
                                  op: add
                                  values:
                                    - 1
                                    - 2
                                  sentAt: "2026-11-29T20:48:14.183Z"
                            - expect:
                                json:
                                  $.op:
                                    equals: add
                                  $.values:
                                    equals:
                                      - 1
                                      - 2
                                  $.sentAt:
                                    type: string
                            - send:
                                file: chromium-websocket.bodies/entry-3-frame-6.bin
                            - expect:
                                bodySize:
                                  equals: 5
                                sha256:
                                  equals: e3a900fde4e52eea4ebedc82e7790ccf830552111fca7172c30561558d86d827
                """), "\(text)")
        #expect(
            suite.allNotes.map(\.rendered).contains(
                "entry 3: received values that look volatile (ids, times, tokens: $.id, $.sentAt) are checked by type "
                    + "only; the others as recorded: edit the checks to what the server guarantees"))

        let steps = try #require(loaded.tests.first { $0.name == "websocket /greet" }).steps
        let spec = try #require(steps.first?.websocket)
        #expect(spec.subprotocols == ["superchat", "chat"])
        #expect(spec.expectedSubprotocol == "superchat")
        #expect(
            spec.actions.map(\.name) == [
                "expect", "send", "expect", "send", "expect", "send", "expect", "send", "expect",
            ])
        // The hostile text is sent, and expected, as recorded: no placeholder, no YAML structure.
        let context = try loaded.makeContext()
        guard case .sendText(let sent) = spec.actions[7].kind else {
            Issue.record("the eighth action is not a text message: \(spec.actions[7].kind)")
            return
        }
        #expect(try sent.render(context) == Self.hostile)
        guard case .expect(let checks) = spec.actions[8].kind else {
            Issue.record("the ninth action is not an expect")
            return
        }
        #expect(checks.assertions.count == 1)
    }

    @Test func onlyTheNamedTypesAreImported() throws {
        let suite = HARImporter(archive: try Self.archive(), includeTypes: ["document"], file: "c.har").suite()
        #expect(suite.tests.map(\.name) == ["GET /"])
        #expect(
            suite.allNotes.map(\.rendered).contains(
                "c.har: 2 entries were left out by --include-types (other 1, websocket 1)"))
        #expect(HARImporter.defaultTypes.contains("websocket"))
    }

    // MARK: - Entries made by hand

    @Test func aFirefoxEntryWithoutTypeIsGuessedFromItsFrames() throws {
        let entry = Self.entry(
            [HARWebSocketMessage(sent: true, opcode: 1, data: "{\"subscribe\": \"prices\"}")], url: "wss://h.test/live",
            type: nil)
        #expect(HARImporter.resourceType(of: entry) == ("websocket", true))
        let suite = HARImporter(archive: HARArchive(entries: [entry]), file: "f.har").suite()
        let websocket = try #require(suite.tests.first?.websocket)
        #expect(websocket.url == "/live")
        #expect(suite.variables.first?.value == .string("https://h.test"))
        let (text, _) = try Self.load(suite)
        #expect(text.contains("- send:\n                json:\n                  subscribe: prices"), "\(text)")
    }

    @Test func anHTTPURLOfAnotherOriginIsWrittenAsAWebSocketURL() throws {
        // A recorder that wrote the upgrade's http(s) URL; the other entry's origin differs, so URLs stay absolute.
        var page = Self.entry([], url: "https://www.test/", type: "document", headers: [])
        page.status = 200
        let socket = Self.entry(
            [HARWebSocketMessage(sent: true, opcode: 1, data: "x")], url: "https://live.test/feed?v=2", type: nil,
            headers: [(name: "Upgrade", value: "websocket")])
        var archive = HARArchive(entries: [page, socket])
        archive.entries[1].index = 1
        let suite = HARImporter(archive: archive, file: "u.har").suite()
        #expect(suite.baseURL == nil)
        #expect(suite.tests.map(\.name) == ["GET /", "websocket /feed"])
        #expect(suite.tests[1].websocket?.url == "wss://live.test/feed?v=2")
        _ = try Self.load(suite)
    }

    @Test func anUpgradeRecordedAsFetchWithIts101IsAWebSocket() {
        // As `apitest run --report-har` records a websocket: step's upgrade.
        #expect(HARImporter.isWebSocket(Self.entry([], url: "ws://h.test/echo", type: "fetch")))
        #expect(
            HARImporter.isWebSocket(
                Self.entry([], url: "http://h.test/echo", type: "xhr", headers: [(name: "Upgrade", value: "websocket")])
            ))
        // An HTTP exchange of another type stays one, even answered 101 (an h2c upgrade) or failed.
        #expect(!HARImporter.isWebSocket(Self.entry([], url: "http://h.test/", type: "fetch")))
        #expect(
            !HARImporter.isWebSocket(
                Self.entry([], url: "http://h.test/", type: "fetch", headers: [(name: "Upgrade", value: "h2c")])))
        #expect(!HARImporter.isWebSocket(Self.entry([], url: "ws://h.test/echo", status: 400, type: "fetch")))
    }

    @Test func anUpgradeThatWasRefusedIsLeftOutWithANote() throws {
        let suite = HARImporter(
            archive: HARArchive(entries: [Self.entry([], status: 403)]), file: "r.har"
        ).suite()
        #expect(suite.tests.isEmpty)
        #expect(
            suite.allNotes.map(\.rendered) == [
                "entry 1: the WebSocket upgrade to wss://chat.example.com/socket was answered 403, not 101 (no "
                    + "conversation to replay): left out"
            ])
    }

    @Test func aConversationWithoutFramesOpensAndCloses() throws {
        let suite = HARImporter(archive: HARArchive(entries: [Self.entry([])]), file: "e.har").suite()
        let (text, loaded) = try Self.load(suite)
        #expect(text.contains("actions:\n            - close: null"), "\(text)")
        #expect(loaded.tests[0].steps[0].websocket?.actions.map(\.name) == ["close"])
    }

    @Test func closeFramesBecomeTheCloseAction() throws {
        // The client closed with 4000 "bye" (payload in base64) and the server echoed 4000.
        let clientFirst = Self.entry([
            HARWebSocketMessage(sent: true, opcode: 1, data: "hi"),
            HARWebSocketMessage(
                sent: true, opcode: 8, data: Data([0x0F, 0xA0] + Array("bye".utf8)).base64EncodedString()),
            HARWebSocketMessage(sent: false, opcode: 8, data: "4000 bye"),
        ])
        let suite = HARImporter(archive: HARArchive(entries: [clientFirst]), file: "c.har").suite()
        let (text, loaded) = try Self.load(suite)
        #expect(
            text.contains(
                "- close:\n                code: 4000\n                reason: bye\n                expect:\n"
                    + "                  code: 4000\n                  reason: bye"), "\(text)")
        guard case .close(let close) = loaded.tests[0].steps[0].websocket?.actions.last?.kind else {
            Issue.record("no close action")
            return
        }
        #expect(close.code == 4000 && close.expectedCode == 4000 && close.initiates)

        // The server closed first (no code): the step waits for its close frame.
        let serverFirst = Self.entry([HARWebSocketMessage(sent: false, opcode: 8, data: "")])
        let waiting = HARImporter(archive: HARArchive(entries: [serverFirst]), file: "s.har").suite()
        let (_, waited) = try Self.load(waiting)
        guard case .close(let awaited) = waited.tests[0].steps[0].websocket?.actions.last?.kind else {
            Issue.record("no close action")
            return
        }
        #expect(!awaited.initiates && awaited.expectedCode == 1005)
    }

    @Test func hostileFramesStayData() throws {
        let texts = [
            "{{ env.SECRET }}", "a{{b", "}}{{", "- [x]: {y}", "\u{0}\u{1B}[2J\r\n\t", "\u{202E}evil", "null", "true",
            "'single' \"double\" \\", "#", "",
        ]
        var frames: [HARWebSocketMessage] = []
        for text in texts {
            frames.append(HARWebSocketMessage(sent: true, opcode: 1, data: text))
            frames.append(HARWebSocketMessage(sent: false, opcode: 1, data: text))
        }
        // JSON whose strings and keys hold the same.
        frames.append(
            HARWebSocketMessage(sent: true, opcode: 1, data: #"{"a{{b": "{{ env.SECRET }}", "k'\\": ["}}"]}"#))
        // A received one too: its member names are JSONPath segments, its strings expected values.
        frames.append(
            HARWebSocketMessage(sent: false, opcode: 1, data: #"{"a{{b": "{{ env.SECRET }}", "k'\\": {"]": "}}"}}"#))
        let suite = HARImporter(archive: HARArchive(entries: [Self.entry(frames)]), file: "h.har").suite()
        guard case .expect(let received) = suite.tests[0].websocket?.actions.last?.kind else {
            Issue.record("the received JSON message is not expected")
            return
        }
        #expect(received.json.map(\.path) == [#"$['a{{b']"#, #"$['k\'\\'][']']"#])
        let (_, loaded) = try Self.load(suite, environment: ["SECRET": "leaked"])
        let actions = try #require(loaded.tests[0].steps[0].websocket?.actions)
        let context = try loaded.makeContext()
        var sent: [String] = []
        for action in actions {
            if case .sendText(let template) = action.kind { sent.append(try template.render(context)) }
        }
        #expect(sent == texts)
        guard case .sendJSON(let value) = actions.dropLast().last?.kind else {
            Issue.record("the JSON message is not sent as JSON")
            return
        }
        #expect(try value.render(context) == (try JSONParser.parse(#"{"a{{b": "{{ env.SECRET }}", "k'\\": ["}}"]}"#)))
        #expect(loaded.tests[0].steps[0].templates.allSatisfy { (try? $0.render(context))?.contains("leaked") != true })
    }

    @Test func aBinaryMessageWithoutAFolderIsLeftOutWithANote() throws {
        let entry = Self.entry([
            HARWebSocketMessage(sent: true, opcode: 2, data: "AAEC"),
            HARWebSocketMessage(sent: true, opcode: 1, data: "x"),
            HARWebSocketMessage(sent: false, opcode: 2, data: "not base64!"),
        ])
        let suite = HARImporter(archive: HARArchive(entries: [entry]), file: "b.har").suite()
        #expect(suite.files.isEmpty)
        #expect(
            suite.allNotes.map(\.rendered) == [
                "entry 1, frame 1: the binary message sent (3 bytes), which a suite sends only from a file, is left out "
                    + "(import with -o to have it written beside the suite)",
                "entry 1, frame 3: the binary message received is not base64: left out",
            ])
        let (_, loaded) = try Self.load(suite)
        #expect(loaded.tests[0].steps[0].websocket?.actions.map(\.name) == ["send"])
    }

    @Test(arguments: [
        (#"{"type": "sent", "opcode": 1, "data": "x"}"#, "a WebSocket message whose 'type' is not 'send' or 'receive'"),
        (#"{"type": "send", "data": "x"}"#, "a WebSocket message without an 'opcode' (1 text, 2 binary)"),
        (#"{"type": "send", "opcode": 99, "data": "x"}"#, "a WebSocket message without an 'opcode' (1 text, 2 binary)"),
        (#"{"type": "send", "opcode": 1, "data": {"x": 1}}"#, "expected a string, found an object"),
    ])
    func aMalformedFrameIsALocatedError(frame: String, message: String) throws {
        let har =
            #"{"log": {"entries": [{"_resourceType": "websocket", "request": {"method": "GET", "url": "ws://h/"}, "#
            + #""response": {"status": 101}, "_webSocketMessages": [{"type": "receive", "opcode": 1, "data": "a"}, "#
            + frame + "]}]}}"
        #expect(throws: JSONSourceError.self) { try HARArchive.decode(Array(har.utf8), file: "m.har") }
        do {
            _ = try HARArchive.decode(Array(har.utf8), file: "m.har")
        } catch {
            #expect(error.location.hasPrefix("log.entries[0]._webSocketMessages[1]"), "\(error.location)")
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    // MARK: - The checks of a received message

    @Test func volatileValuesAreCheckedByType() throws {
        let value = try JSONParser.parse(
            #"{"type": "tick", "n": 3, "price": 9.5, "ok": true, "none": null, "userId": 7, "created_at": "x","#
                + #" "when": "2024-05-01T10:00:00Z", "ref": "6f1c2a9e-0b7d-4c8e-9f3a-1d2e3f4a5b6c","#
                + #" "stamp": 1717171717, "nested": {"deep": {"deeper": {"deepest": 1}}, "label": "a b"},"#
                + #" "list": [{"a": 1}], "tags": ["x", "y"], "odd key": 1}"#)
        let checks = HARMessageChecks(json: value)
        let rendered = checks.json.map { "\($0.path) \(JSONWriter.string($0.check))" }
        #expect(
            rendered == [
                #"$.type {"equals":"tick"}"#, #"$.n {"equals":3}"#, #"$.price {"equals":9.5}"#,
                #"$.ok {"equals":true}"#,
                #"$.none {"equals":null}"#, #"$.userId {"type":"integer"}"#, #"$.created_at {"type":"string"}"#,
                #"$.when {"type":"string"}"#, #"$.ref {"type":"string"}"#, #"$.stamp {"type":"integer"}"#,
                #"$.nested.deep.deeper {"type":"object"}"#, #"$.nested.label {"equals":"a b"}"#,
                #"$.list {"type":"array"}"#, #"$.tags {"equals":["x","y"]}"#, #"$['odd key'] {"equals":1}"#,
            ])
        #expect(checks.volatilePaths == ["$.userId", "$.created_at", "$.when", "$.ref", "$.stamp"])
        #expect(HARMessageChecks.segment("it's\n") == #"['it\'s\n']"#)
    }

    @Test func aLongMessageIsCheckedUpToTheLimit() {
        let members = (0..<40).map { "\"m\($0)\": \($0)" }.joined(separator: ", ")
        let checks = HARMessageChecks(json: try! JSONParser.parse("{\(members)}"))
        #expect(checks.json.count == HARMessageChecks.limit)
        #expect(checks.unchecked == 40 - HARMessageChecks.limit)
    }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256Digest.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
