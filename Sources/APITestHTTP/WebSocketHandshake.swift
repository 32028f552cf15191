import CTLSShim
import Foundation

// MARK: - WebSocketHandshake

/// The opening handshake of RFC 6455 section 4: the client's upgrade request and the checks of the server's answer
/// (status 101, `Upgrade: websocket`, `Connection: Upgrade`, `Sec-WebSocket-Accept`, the subprotocol chosen, no
/// extension the client did not ask for).
public struct WebSocketHandshake: Sendable {
    /// The GUID section 1.3 appends to the key before hashing it.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The most bytes of the server's answer read before its blank line.
    static let responseLimit = 64 * 1024

    /// The `Sec-WebSocket-Key` sent: 16 random bytes in base64.
    public let key: String
    /// The subprotocols offered, in order of preference.
    public let subprotocols: [String]

    /// A handshake with `key` (a fresh random one by default) offering `subprotocols`.
    public init(key: String? = nil, subprotocols: [String] = []) {
        self.key = key ?? Self.randomKey()
        self.subprotocols = subprotocols
    }

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes, base64 (section 4.1).
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server answers `key` with: base64 of the SHA-1 of the key and the GUID.
    public static func accept(for key: String) -> String {
        let text = Array((key + acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: 64)
        let length = text.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBufferPointer {
                apitest_digest("sha1", bytes.baseAddress, bytes.count, $0.baseAddress)
            }
        }
        return Data(digest.prefix(Int(length))).base64EncodedString()
    }

    // MARK: - The request

    /// The header fields the handshake sets itself; a request's own fields of these names are left out.
    static let ownFields: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions", "content-length", "transfer-encoding",
    ]

    /// The upgrade request's bytes: `GET target HTTP/1.1`, `Host`, the handshake's fields, then `headers`.
    public func requestBytes(target: String, host: String, headers: HTTPHeaders) -> [UInt8] {
        var text = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if !subprotocols.isEmpty { text += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n" }
        for field in headers where !Self.ownFields.contains(field.name.lowercased()) {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    // MARK: - The answer

    /// The server's answer to the upgrade: status, reason and header fields.
    public struct Response: Sendable, Equatable {
        /// The status code (101 when the server switched).
        public var status: Int
        /// The reason phrase.
        public var reason: String
        /// The header fields in order.
        public var headers: HTTPHeaders
    }

    /// The answer's header if `bytes` hold all of it: the response and how many bytes it took (what follows is
    /// already the first frames). Nil when its blank line has not arrived yet.
    static func parseResponse(_ bytes: [UInt8]) throws(WebSocketError) -> (Response, Int)? {
        guard let end = Self.headerEnd(in: bytes) else {
            if bytes.count > responseLimit { throw WebSocketError(.handshakeTooLarge(limit: responseLimit)) }
            return nil
        }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status)
        else { throw WebSocketError(.malformedResponse(statusLine)) }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw WebSocketError(.malformedResponse(line)) }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name: String(line[..<colon]), value: value)
        }
        let reason = parts.count > 2 ? String(parts[2]) : ""
        return (Response(status: status, reason: reason, headers: headers), end + 4)
    }

    /// The index of the `\r\n\r\n` that ends the header, nil when it has not arrived.
    private static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Checks the server's answer (section 4.1, the client's checks 1-6); returns the subprotocol it chose, nil for
    /// none.
    public func validate(_ response: Response) throws(WebSocketError) -> String? {
        guard response.status == 101 else {
            throw WebSocketError(.notUpgraded(status: response.status, reason: response.reason))
        }
        let upgrade = response.headers["Upgrade"]
        guard let upgrade, upgrade.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" else {
            throw WebSocketError(.missingUpgrade(found: upgrade))
        }
        let connection = response.headers.values(for: "Connection").joined(separator: ", ")
        let tokens = connection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard tokens.contains("upgrade") else {
            throw WebSocketError(.missingConnectionUpgrade(found: connection.isEmpty ? nil : connection))
        }
        let expected = Self.accept(for: key)
        let accept = response.headers["Sec-WebSocket-Accept"]
        guard accept?.trimmingCharacters(in: .whitespaces) == expected else {
            throw WebSocketError(.badAccept(expected: expected, found: accept))
        }
        if let extensions = response.headers["Sec-WebSocket-Extensions"],
            !extensions.trimmingCharacters(in: .whitespaces).isEmpty
        {
            throw WebSocketError(.unrequestedExtension(extensions))
        }
        guard let chosen = response.headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces),
            !chosen.isEmpty
        else { return nil }
        guard subprotocols.contains(chosen) else { throw WebSocketError(.unofferedSubprotocol(chosen)) }
        return chosen
    }
}
