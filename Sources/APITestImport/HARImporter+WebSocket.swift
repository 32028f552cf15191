import APITestJSON
import APITestSuiteWriting
import APITestSupport
import Foundation

extension HARImporter {
    // MARK: - WebSocket entries

    /// Header fields of the opening handshake that the `websocket:` step writes itself (`Sec-WebSocket-Protocol`
    /// becomes `subprotocols`).
    static let handshakeHeaders: Set<String> = [
        "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-accept",
        "sec-websocket-protocol", "upgrade", "connection",
    ]

    /// Whether an entry is a WebSocket conversation: Chromium's `websocket` type; or signs of one (a `ws://` or
    /// `wss://` URL, recorded frames, an `Upgrade: websocket` request) without a recorded type (Firefox, Safari) or
    /// with another type and a 101 answer (`apitest run --report-har` records a `websocket:` step's upgrade as
    /// `fetch`).
    static func isWebSocket(_ entry: HAREntry) -> Bool {
        let scheme = entry.url.prefix { $0 != ":" }.lowercased()
        let signs =
            scheme == "ws" || scheme == "wss" || !entry.webSocketMessages.isEmpty
            || entry.headers.contains { $0.name.lowercased() == "upgrade" && $0.value.lowercased() == "websocket" }
        guard let type = entry.resourceType, !type.isEmpty else { return signs }
        return type.lowercased() == "websocket" || (signs && entry.status == 101)
    }

    /// `url` with a WebSocket scheme as the HTTP one its origin shares (`wss://h/` → `https://h/`).
    static func httpURL(_ url: String) -> String {
        let lower = url.lowercased()
        if lower.hasPrefix("ws://") { return "http://" + url.dropFirst(5) }
        if lower.hasPrefix("wss://") { return "https://" + url.dropFirst(6) }
        return url
    }

    /// `url` with an HTTP scheme as the WebSocket one (`https://h/` → `wss://h/`).
    static func webSocketURL(_ url: String) -> String {
        let lower = url.lowercased()
        if lower.hasPrefix("http://") { return "ws://" + url.dropFirst(7) }
        if lower.hasPrefix("https://") { return "wss://" + url.dropFirst(8) }
        return url
    }

    /// The test of a WebSocket entry: a `websocket:` step opening the recorded URL with the recorded headers (the
    /// handshake's own left out, the subprotocols offered and chosen as `subprotocols` and `subprotocol`), sending
    /// the recorded messages and expecting the received ones (``HARMessageChecks``), in recording order.
    func webSocketTest(
        _ entry: HAREntry, origin: String?, secrets: inout HARSecrets, files: inout [SuiteDocument.File]
    ) -> SuiteDocument.Test {
        let number = entry.index + 1
        var url = secrets.url(Self.httpURL(entry.url), entry: number)
        if let origin, url.hasPrefix(origin) {
            url = String(url.dropFirst(origin.count))
            if url.isEmpty || url.hasPrefix("?") { url = "/" + url }
        } else {
            url = Self.webSocketURL(url)
        }
        var websocket = SuiteDocument.WebSocket(url: url)
        var notes: [SuiteDocument.Note] = []
        websocket.headers = requestHeaders(entry, skipping: Self.handshakeHeaders, secrets: &secrets)
        for header in entry.headers where header.name.lowercased() == "sec-websocket-protocol" {
            for name in header.value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard Self.isToken(name) else {
                    notes.append(
                        SuiteDocument.Note(
                            location: "entry \(number)",
                            text: "the subprotocol \(name.shownInMessage) is not an HTTP token: not offered"))
                    continue
                }
                if !websocket.subprotocols.contains(name) { websocket.subprotocols.append(name) }
            }
        }
        if let chosen = entry.responseHeaders.first(where: { $0.name.lowercased() == "sec-websocket-protocol" }),
            websocket.subprotocols.contains(chosen.value.trimmingCharacters(in: .whitespaces))
        {
            websocket.subprotocol = chosen.value.trimmingCharacters(in: .whitespaces)
        }
        var conversation = Conversation(number: number)
        for (position, message) in entry.webSocketMessages.enumerated() {
            conversation.add(message, frame: position + 1, bodyFolder: bodyFolder, files: &files)
        }
        conversation.finish()
        websocket.actions = conversation.actions
        if websocket.actions.isEmpty {
            // The suite format wants an action: the handshake alone, closed politely.
            websocket.actions = [SuiteDocument.WebSocketAction(.close(SuiteDocument.WebSocketClose()))]
        }
        if conversation.largest > 16 * 1024 * 1024 { websocket.maxMessageSize = conversation.largest }
        notes += conversation.notes
        var test = SuiteDocument.Test(name: "websocket \(Self.path(of: Self.httpURL(entry.url)))", websocket: websocket)
        test.comments = ["entry \(number) (websocket)"]
        test.notes = notes
        return test
    }

    /// Whether `text` is an HTTP token (RFC 9110: a subprotocol's name).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.value > 0x20 && scalar.value < 0x7F && !"\"(),/:;<=>?@[\\]{}".unicodeScalars.contains(scalar)
            }
    }
}

// MARK: - The conversation

extension HARImporter {
    /// The actions of one entry's frames, built in order.
    struct Conversation {
        /// The entry's number (from 1), for notes and file names.
        var number: Int
        /// The actions so far.
        var actions: [SuiteDocument.WebSocketAction] = []
        /// What was not translated, and what the reader should know.
        var notes: [SuiteDocument.Note] = []
        /// The size of the largest received message, in bytes.
        var largest = 0
        /// The index in ``actions`` of the close action, once there is one.
        private var closeIndex: Int?
        /// The paths checked by type only, over the conversation.
        private var volatilePaths: [String] = []

        /// A conversation of entry `number`.
        init(number: Int) {
            self.number = number
        }

        /// Adds the action of `message`, frame `frame` (from 1).
        mutating func add(
            _ message: HARWebSocketMessage, frame: Int, bodyFolder: String?, files: inout [SuiteDocument.File]
        ) {
            let location = "entry \(number), frame \(frame)"
            if let closeIndex {
                // The server's answer to the close sent: its code and reason are what the close expects.
                if message.opcode == 8, !message.sent, case .close(var close) = actions[closeIndex].kind,
                    close.code != nil, close.expectedCode == nil
                {
                    let (code, reason) = Self.closePayload(message.data)
                    close.expectedCode = code ?? 1005
                    close.expectedReason = reason.map { TemplateLiteral.escaped($0) }
                    actions[closeIndex].kind = .close(close)
                } else if message.opcode != 8 {
                    notes.append(
                        SuiteDocument.Note(
                            location: location, text: "a frame after the close handshake is not translated"))
                }
                return
            }
            switch (message.sent, message.opcode) {
            case (true, 1):
                actions.append(SuiteDocument.WebSocketAction(Self.sendText(message.data)))
            case (true, 2):
                guard let bytes = decoded(message, location: location) else { return }
                guard let bodyFolder else {
                    notes.append(
                        SuiteDocument.Note(
                            location: location,
                            text: "the binary message sent (\(bytes.count) bytes), which a suite sends only from a "
                                + "file, is left out (import with -o to have it written beside the suite)"))
                    return
                }
                let path = (bodyFolder.isEmpty ? "" : bodyFolder + "/") + "entry-\(number)-frame-\(frame).bin"
                files.append(SuiteDocument.File(path: path, bytes: bytes))
                actions.append(SuiteDocument.WebSocketAction(.sendFile(path)))
            case (false, 1):
                largest = max(largest, message.data.utf8.count)
                actions.append(SuiteDocument.WebSocketAction(.expect(textChecks(message.data, location: location))))
            case (false, 2):
                guard let bytes = decoded(message, location: location) else { return }
                largest = max(largest, bytes.count)
                var checks = SuiteDocument.MessageExpectation()
                checks.bodySize = ["equals": .integer(Int64(bytes.count))]
                // Checked by size alone in the unlikely case libcrypto cannot compute the digest.
                if let digest = SHA256Digest.hex(bytes) { checks.sha256 = ["equals": .string(digest)] }
                actions.append(SuiteDocument.WebSocketAction(.expect(checks)))
            case (true, 9):
                actions.append(SuiteDocument.WebSocketAction(.ping(TemplateLiteral.escaped(message.data))))
            case (_, 10), (false, 9):
                break // apitest answers pings and awaits the pongs of its own.
            case (true, 8):
                let (code, reason) = Self.closePayload(message.data)
                let sendable = code.map { (1000...1003).contains($0) || (1007...1014).contains($0) || $0 >= 3000 }
                closeIndex = actions.count
                actions.append(
                    SuiteDocument.WebSocketAction(
                        .close(
                            SuiteDocument.WebSocketClose(
                                code: sendable == true ? code : 1000, reason: reason.map { TemplateLiteral.escaped($0) }
                            ))))
            case (false, 8):
                // The server closed first: the step waits for its close frame, answers it and checks it.
                let (code, reason) = Self.closePayload(message.data)
                closeIndex = actions.count
                actions.append(
                    SuiteDocument.WebSocketAction(
                        .close(
                            SuiteDocument.WebSocketClose(
                                expectedCode: code ?? 1005, expectedReason: reason.map { TemplateLiteral.escaped($0) }))
                    ))
            default:
                notes.append(
                    SuiteDocument.Note(
                        location: location,
                        text: "a frame of opcode \(message.opcode) (\(message.sent ? "sent" : "received")) is not "
                            + "translated: only whole text and binary messages, pings and the close are"))
            }
        }

        /// `send:` of a text message: a JSON object or list as `{json: ...}`, other text as it is.
        static func sendText(_ text: String) -> SuiteDocument.WebSocketAction.Kind {
            if let value = try? JSONParser.parse(text), case .object = value {
                return .sendJSON(TemplateLiteral.escaped(value))
            } else if let value = try? JSONParser.parse(text), case .array = value {
                return .sendJSON(TemplateLiteral.escaped(value))
            }
            return .sendText(TemplateLiteral.escaped(text))
        }

        /// The checks of a received text message: a JSON object or list by its values, other text exactly (a long
        /// one by its size).
        mutating func textChecks(_ text: String, location: String) -> SuiteDocument.MessageExpectation {
            var checks = SuiteDocument.MessageExpectation()
            if let value = try? JSONParser.parse(text), value.isObjectOrArray {
                let json = HARMessageChecks(json: value)
                checks.json = json.json
                if json.unchecked > 0 {
                    notes.append(
                        SuiteDocument.Note(
                            location: location,
                            text: "the message's first \(json.json.count) values are checked; \(json.unchecked) more "
                                + "are not"))
                }
                noteVolatile(json.volatilePaths)
            } else if text.utf8.count > HARMessageChecks.longestText {
                checks.bodySize = ["equals": .integer(Int64(text.utf8.count))]
                notes.append(
                    SuiteDocument.Note(
                        location: location,
                        text: "the message is \(text.utf8.count) bytes of text: checked by its size, not its text"))
            } else {
                checks.body = ["equals": .string(TemplateLiteral.escaped(text))]
            }
            return checks
        }

        /// Keeps the paths checked by type only, said once for the conversation (``finish()``).
        private mutating func noteVolatile(_ paths: [String]) {
            for path in paths where !volatilePaths.contains(path) { volatilePaths.append(path) }
        }

        /// Adds the note on the values checked by type only, once the frames are added.
        mutating func finish() {
            guard !volatilePaths.isEmpty else { return }
            let shown = volatilePaths.prefix(4).joined(separator: ", ") + (volatilePaths.count > 4 ? ", …" : "")
            notes.append(
                SuiteDocument.Note(
                    location: "entry \(number)",
                    text: "received values that look volatile (ids, times, tokens: \(shown)) are checked by type "
                        + "only; the others as recorded: edit the checks to what the server guarantees"))
        }

        /// The bytes of a binary frame (base64), or nil with a note.
        private mutating func decoded(_ message: HARWebSocketMessage, location: String) -> [UInt8]? {
            guard let data = Data(base64Encoded: message.data.filter { !$0.isWhitespace }) else {
                notes.append(
                    SuiteDocument.Note(
                        location: location,
                        text: "the binary message \(message.sent ? "sent" : "received") is not base64: left out"))
                return nil
            }
            return [UInt8](data)
        }

        /// The code and reason of a close frame's data: its payload in base64 (a two-byte code, then the reason),
        /// or `CODE REASON` as text; nil for none.
        static func closePayload(_ data: String) -> (code: Int?, reason: String?) {
            let text = data.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return (nil, nil) }
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            if let code = Int(digits), (1000...4999).contains(code),
                digits.count == text.count || text.dropFirst(digits.count).first == " "
            {
                let reason = text.dropFirst(digits.count).drop { $0 == " " }
                return (code, reason.isEmpty ? nil : String(reason))
            }
            if let bytes = Data(base64Encoded: text).map([UInt8].init), bytes.count >= 2 {
                let code = Int(bytes[0]) << 8 | Int(bytes[1])
                let reason = String(validating: bytes.dropFirst(2), as: UTF8.self)
                guard (1000...4999).contains(code) else { return (nil, nil) }
                return (code, reason?.isEmpty == false ? reason : nil)
            }
            return (nil, nil)
        }
    }
}

extension JSONValue {
    /// Whether the value is an object or a list.
    fileprivate var isObjectOrArray: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
