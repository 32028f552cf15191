import APITestSupport
import Testing

@testable import APITestSuite

/// `websocket:` steps: what a well-formed one loads to, and a located error for every bad key or value, with a
/// did-you-mean as everywhere else.
@Suite struct WebSocketParserTests {
    /// A suite whose one test has the step `step` (indented as a step's keys).
    private static func suite(_ step: String) -> String {
        "tests:\n  - name: t\n    steps:\n      - "
            + step.split(separator: "\n", omittingEmptySubsequences: false)
            .joined(separator: "\n        ") + "\n"
    }

    @Test func aConversationLoadsWithItsActionsInOrder() throws {
        let loaded = try loadSuite(
            Self.suite(
                """
                name: chat
                websocket:
                  url: ws://127.0.0.1:9/chat
                  headers: {X-Room: one}
                  subprotocols: [chat, superchat]
                  subprotocol: chat
                  maxMessageSize: 64KiB
                  timeout: 2s
                  actions:
                    - send: hello {{ name }}
                    - send: {json: {type: join}}
                    - expect: {json: {$.type: {equals: welcome}}}
                      capture: {id: {jsonpath: $.id}}
                    - match: {body: {contains: done}}
                      timeout: 5s
                    - ping: hi
                    - close: {code: 1001, reason: bye, expect: {code: 1001}}
                """))
        let step = try #require(loaded.tests.first?.steps.first)
        let spec = try #require(step.websocket)
        #expect(step.request.url.source == "ws://127.0.0.1:9/chat")
        #expect(step.request.headers.map(\.name) == ["X-Room"])
        #expect(step.name == "chat")
        #expect(spec.subprotocols == ["chat", "superchat"])
        #expect(spec.expectedSubprotocol == "chat")
        #expect(spec.maxMessageSize == 64 * 1024)
        #expect(spec.timeout == .seconds(2))
        #expect(spec.actions.map(\.name) == ["send", "send", "expect", "match", "ping", "close"])
        #expect(spec.actions[3].timeout == .seconds(5))
        #expect(step.captures.map(\.name) == ["id"], "later steps see the actions' captures")
        guard case .close(let close) = spec.actions[5].kind else {
            Issue.record("not a close")
            return
        }
        #expect(close.code == 1001)
        #expect(close.expectedCode == 1001)
        #expect(close.reason?.source == "bye")
        #expect(close.initiates)
    }

    @Test func aCloseWithOnlyExpectWaitsForTheServer() throws {
        let loaded = try loadSuite(
            Self.suite("websocket:\n  url: ws://h/\n  actions:\n    - close: {expect: {code: 4001}}\n    - close: null")
        )
        let actions = try #require(loaded.tests.first?.steps.first?.websocket?.actions)
        guard case .close(let waits) = actions[0].kind, case .close(let sends) = actions[1].kind else {
            Issue.record("not two closes")
            return
        }
        #expect(!waits.initiates)
        #expect(waits.expectedCode == 4001)
        #expect(sends.initiates)
        #expect(sends.code == 1000)
    }

    @Test func aMisspelledKeyGetsADidYouMean() {
        let found = errors(Self.suite("websocket:\n  url: ws://h/\n  actoins: [{ping: null}]"))
        #expect(
            found.contains { $0.contains("unknown key 'actoins' in websocket") && $0.contains("'actions'") }, "\(found)"
        )
        let action = errors(Self.suite("websocket:\n  url: ws://h/\n  actions: [{sned: hi}]"))
        #expect(
            action.contains { $0.contains("unknown key 'sned' in a WebSocket action") && $0.contains("'send'") },
            "\(action)")
        let step = errors(Self.suite("websocket: {url: ws://h/, actions: [{ping: null}]}\nexpect: {status: 200}"))
        #expect(step.contains { $0.contains("'expect' does not go with 'websocket'") }, "\(step)")
    }

    @Test func eachBadValueIsALocatedError() {
        let cases: [(String, String)] = [
            ("websocket: {url: ftp://h/, actions: [{ping: null}]}", "unsupported URL scheme 'ftp'"),
            ("websocket: {url: http://h/, actions: [{ping: null}]}", "unsupported URL scheme 'http'"),
            ("websocket: {url: 'HTTPS://h/{{ p }}', actions: [{ping: null}]}", "unsupported URL scheme 'https'"),
            ("websocket: {url: ws://h/}", "'websocket' needs 'actions'"),
            ("websocket: {actions: [{ping: null}]}", "'websocket' needs a 'url'"),
            ("websocket: {url: ws://h/, actions: [{send: hi, ping: null}]}", "a WebSocket action does one thing"),
            ("websocket: {url: ws://h/, actions: [{timeout: 1s}]}", "a WebSocket action needs one of"),
            (
                "websocket: {url: ws://h/, actions: [{expect: {status: 200}}]}",
                "'status' does not apply to a WebSocket message"
            ),
            ("websocket: {url: ws://h/, actions: [{close: {code: 1005}}]}", "1005 is not a close code"),
            ("websocket: {url: ws://h/, actions: [{send: {file: missing.bin}}]}", "missing.bin"),
            ("websocket: {url: ws://h/, actions: [{send: {yaml: x}}]}", "unknown key 'yaml' in send"),
            (
                "websocket: {url: ws://h/, actions: [{ping: null, capture: {a: {body: .}}}]}",
                "'capture' takes values from a message"
            ),
            ("websocket: {url: ws://h/, subprotocols: ['a b'], actions: [{ping: null}]}", "not a subprotocol name"),
            ("websocket: {url: ws://h/, actions: []}", "'actions' is empty"),
        ]
        for (step, message) in cases {
            let found = errors(Self.suite(step))
            #expect(found.contains { $0.contains(message) && $0.hasPrefix("suites/test.yaml:") }, "\(step): \(found)")
        }
    }

    @Test func theEditorSchemaKnowsTheStep() {
        let schema = SuiteSchema.definitions.jsonText
        #expect(schema.contains("\"websocket\""))
        #expect(schema.contains("subprotocols"))
    }
}
