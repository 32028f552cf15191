/// A HAR 1.2 archive (W3C Web Performance draft "HTTP Archive (HAR) format", as browsers' devtools export it): the
/// parts of each entry that a test needs.
package struct HARArchive: Sendable {
    /// `log.creator.name` and `version`, when given (`WebInspector 537.36`).
    package var creator: String?
    /// `log.entries`, in order.
    package var entries: [HAREntry]

    /// An archive of `entries`.
    package init(creator: String? = nil, entries: [HAREntry]) {
        self.creator = creator
        self.entries = entries
    }
}

/// One recorded exchange.
package struct HAREntry: Sendable {
    /// Its index in `log.entries`, from 0, for notes.
    package var index: Int
    /// Chromium's `_resourceType` (`document`, `xhr`, `fetch`, `script`, `image`, ...), when recorded.
    package var resourceType: String?
    /// `request.method`.
    package var method: String
    /// `request.url`, absolute.
    package var url: String
    /// `request.headers`, in order.
    package var headers: [(name: String, value: String)]
    /// `request.cookies` (name, value).
    package var cookies: [(name: String, value: String)]
    /// `request.postData`, when any.
    package var postData: HARPostData?
    /// `response.status` (0 for a request that got no response).
    package var status: Int
    /// `response.content.mimeType`, when recorded.
    package var responseMimeType: String?
    /// `response.headers`, in order.
    package var responseHeaders: [(name: String, value: String)] = []
    /// The frames of a WebSocket entry (Chromium's and Firefox's `_webSocketMessages`), in order.
    package var webSocketMessages: [HARWebSocketMessage] = []

    /// An entry.
    package init(
        index: Int, resourceType: String?, method: String, url: String, headers: [(name: String, value: String)],
        cookies: [(name: String, value: String)], postData: HARPostData?, status: Int, responseMimeType: String?
    ) {
        self.index = index
        self.resourceType = resourceType
        self.method = method
        self.url = url
        self.headers = headers
        self.cookies = cookies
        self.postData = postData
        self.status = status
        self.responseMimeType = responseMimeType
    }
}

/// `request.postData`: the body's media type and its text (or, for forms without text, its params).
package struct HARPostData: Sendable {
    /// `mimeType`.
    package var mimeType: String
    /// `text`, when recorded.
    package var text: String?
    /// `params` (name, value, whether it is a file), when recorded instead of text.
    package var params: [(name: String, value: String, fileName: String?)]
    /// `encoding`, when recorded: `base64` says `text` is the body's bytes in base64 (as HAR's `content.encoding`
    /// does for a response; some recorders write it for requests too).
    package var encoding: String?

    /// A body.
    package init(
        mimeType: String, text: String?, params: [(name: String, value: String, fileName: String?)],
        encoding: String? = nil
    ) {
        self.mimeType = mimeType
        self.text = text
        self.params = params
        self.encoding = encoding
    }
}

/// One frame of a WebSocket entry's `_webSocketMessages`: `{type: send|receive, time, opcode, data}`, the data of a
/// binary frame (opcode 2) in base64.
package struct HARWebSocketMessage: Sendable, Equatable {
    /// Whether the client sent it (`type: send`); otherwise the server did (`receive`).
    package var sent: Bool
    /// The frame's opcode: 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    package var opcode: Int
    /// `data`: the text, or base64 of the bytes for a binary frame.
    package var data: String

    /// A frame.
    package init(sent: Bool, opcode: Int, data: String) {
        self.sent = sent
        self.opcode = opcode
        self.data = data
    }
}

extension HARArchive {
    /// The archive in `bytes` (a file named `file`, for errors).
    package static func decode(_ bytes: [UInt8], file: String) throws(JSONSourceError) -> HARArchive {
        let root = try JSONSourceNode.parse(bytes, file: file)
        guard let log = root.member("log") else { throw root.error("no 'log' object: not a HAR file") }
        guard let list = log.member("entries") else { throw log.error("no 'entries' list") }
        var creator: String?
        if let node = log.member("creator") {
            creator = [try node.text("name"), try node.text("version")].compactMap { $0 }.joined(separator: " ")
        }
        var entries: [HAREntry] = []
        for (index, node) in try list.elements().enumerated() {
            entries.append(try entry(node, index: index))
        }
        return HARArchive(creator: creator, entries: entries)
    }

    /// One entry.
    private static func entry(_ node: JSONSourceNode, index: Int) throws(JSONSourceError) -> HAREntry {
        guard let request = node.member("request") else { throw node.error("an entry without 'request'") }
        guard let method = try request.text("method"), !method.isEmpty else {
            throw request.error("a request without 'method'")
        }
        guard let url = try request.text("url"), !url.isEmpty else { throw request.error("a request without 'url'") }
        var postData: HARPostData?
        if let body = request.member("postData") {
            var params: [(name: String, value: String, fileName: String?)] = []
            if let list = body.member("params") {
                for param in try list.elements() {
                    guard let name = try param.text("name") else { throw param.error("a param without 'name'") }
                    params.append((name, try param.text("value") ?? "", try param.text("fileName")))
                }
            }
            postData = HARPostData(
                mimeType: try body.text("mimeType") ?? "", text: try body.text("text"), params: params,
                encoding: try body.text("encoding"))
        }
        let response = node.member("response")
        var entry = HAREntry(
            index: index, resourceType: try node.text("_resourceType"), method: method.uppercased(), url: url,
            headers: try pairs(request.member("headers")), cookies: try pairs(request.member("cookies")),
            postData: postData, status: response?.integer("status") ?? 0,
            responseMimeType: try response?.member("content")?.text("mimeType"))
        entry.responseHeaders = try pairs(response?.member("headers"))
        if let frames = node.member("_webSocketMessages") {
            entry.webSocketMessages = try webSocketMessages(frames)
        }
        return entry
    }

    /// `_webSocketMessages`: each frame's `type` (`send` or `receive`), `opcode` and `data`.
    private static func webSocketMessages(_ node: JSONSourceNode) throws(JSONSourceError) -> [HARWebSocketMessage] {
        var messages: [HARWebSocketMessage] = []
        for frame in try node.elements() {
            let type = try frame.text("type")?.lowercased()
            guard type == "send" || type == "receive" else {
                throw frame.error("a WebSocket message whose 'type' is not 'send' or 'receive'")
            }
            guard let opcode = frame.integer("opcode"), (0...15).contains(opcode) else {
                throw frame.error("a WebSocket message without an 'opcode' (1 text, 2 binary)")
            }
            messages.append(
                HARWebSocketMessage(sent: type == "send", opcode: opcode, data: try frame.text("data") ?? ""))
        }
        return messages
    }

    /// A list of `{name, value}`.
    private static func pairs(_ node: JSONSourceNode?) throws(JSONSourceError) -> [(name: String, value: String)] {
        guard let node else { return [] }
        var result: [(name: String, value: String)] = []
        for item in try node.elements() {
            guard let name = try item.text("name") else { throw item.error("an entry without 'name'") }
            result.append((name, try item.text("value") ?? ""))
        }
        return result
    }
}
