import Testing

@testable import APITestHTTP

/// The opening handshake of RFC 6455 section 4 with section 1.3's example key, and each check of the server's answer.
@Suite struct WebSocketHandshakeTests {
    private let handshake = WebSocketHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==", subprotocols: ["chat", "superchat"])

    private func answer(
        status: String = "HTTP/1.1 101 Switching Protocols", _ fields: [(String, String)]? = nil
    ) -> WebSocketHandshake.Response {
        let lines =
            fields ?? [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
                ("Sec-WebSocket-Protocol", "chat"),
            ]
        let text = ([status] + lines.map { "\($0.0): \($0.1)" }).joined(separator: "\r\n") + "\r\n\r\n"
        guard let (response, used) = try? WebSocketHandshake.parseResponse(Array(text.utf8)) else {
            Issue.record("the answer did not parse")
            return WebSocketHandshake.Response(status: 0, reason: "", headers: [:])
        }
        #expect(used == text.utf8.count)
        return response
    }

    private func failure(_ response: WebSocketHandshake.Response) -> WebSocketError.Kind? {
        do throws(WebSocketError) {
            _ = try handshake.validate(response)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func theAcceptOfSection1_3() {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func theRequestOfSection1_3() {
        let bytes = handshake.requestBytes(
            target: "/chat", host: "server.example.com",
            headers: ["Origin": "http://example.com", "Upgrade": "h2c", "Authorization": "Bearer t"])
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: chat, superchat\r\nOrigin: http://example.com\r\nAuthorization: Bearer t\r\n\r\n"
        )
    }

    @Test func freshKeysAreSixteenRandomBytes() {
        let key = WebSocketHandshake.randomKey()
        #expect(key.count == 24)
        #expect(key != WebSocketHandshake.randomKey())
    }

    @Test func theAnswerOfSection1_3PassesAndNamesTheSubprotocol() throws {
        #expect(try handshake.validate(answer()) == "chat")
        // Header names and the Upgrade value are case-insensitive; Connection may list other tokens.
        let relaxed = answer([
            ("upgrade", "WebSocket"), ("connection", "keep-alive, upgrade"),
            ("sec-websocket-accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
        ])
        #expect(try handshake.validate(relaxed) == nil)
    }

    @Test func eachCheckOfTheAnswer() {
        #expect(failure(answer(status: "HTTP/1.1 403 Forbidden", [])) == .notUpgraded(status: 403, reason: "Forbidden"))
        let accept = ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(failure(answer([("Connection", "Upgrade"), accept])) == .missingUpgrade(found: nil))
        #expect(
            failure(answer([("Upgrade", "h2c"), ("Connection", "Upgrade"), accept])) == .missingUpgrade(found: "h2c"))
        #expect(failure(answer([("Upgrade", "websocket"), accept])) == .missingConnectionUpgrade(found: nil))
        #expect(
            failure(answer([("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", "x")]))
                == .badAccept(expected: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", found: "x"))
        #expect(
            failure(
                answer([
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"), accept, ("Sec-WebSocket-Protocol", "mqtt"),
                ]))
                == .unofferedSubprotocol("mqtt"))
        #expect(
            failure(
                answer([
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"), accept,
                    ("Sec-WebSocket-Extensions", "permessage-deflate"),
                ])) == .unrequestedExtension("permessage-deflate"))
    }

    @Test func anAnswerIsReadWhenItsBlankLineArrivesAndTheRestIsFrames() throws {
        let text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
        let bytes = Array(text.utf8) + [0x81, 0x00]
        #expect(try WebSocketHandshake.parseResponse(Array(bytes.prefix(20))) == nil)
        let parsed = try WebSocketHandshake.parseResponse(bytes)
        #expect(parsed?.1 == text.utf8.count)
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponse(Array("SSH-2.0\r\n\r\n".utf8)) }
    }

    @Test func aSchemeLibcurlRunsCannotOpenAWebSocket() async {
        var request = HTTPRequest(url: "ws://127.0.0.1:1/")
        request.authentication = .digest(username: "u", password: "p")
        await #expect(throws: WebSocketError(.unsupportedAuthentication("digest"))) {
            _ = try await WebSocketConnection.connect(request)
        }
    }

    @Test func wsURLsBecomeHTTPURLsForLibcurl() throws {
        let plain = try WebSocketConnection.endpoint(of: "ws://127.0.0.1:8080/chat?room=1#x")
        #expect(plain.curlURL == "http://127.0.0.1:8080/chat?room=1")
        #expect(plain.target == "/chat?room=1")
        #expect(plain.host == "127.0.0.1:8080")
        let secure = try WebSocketConnection.endpoint(of: "wss://example.com")
        #expect(secure.curlURL == "https://example.com")
        #expect(secure.target == "/")
        #expect(secure.host == "example.com")
        #expect(throws: WebSocketError(.invalidURL("ftp://example.com/"))) {
            try WebSocketConnection.endpoint(of: "ftp://example.com/")
        }
    }
}
