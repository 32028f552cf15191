import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

// MARK: - DemoContext

/// Per-request context: where the connection comes from and where it arrived.
struct DemoContext: InitializableFromSource {
    /// The client's address.
    let remoteAddress: SocketAddress?
    /// The server socket's address (for absolute redirects when the request has no Host).
    let localAddress: SocketAddress?
    /// The connection, for writing an interim `100 Continue`.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        channel = source.channel
        remoteAddress = source.channel.remoteAddress
        localAddress = source.channel.localAddress
    }
}

// MARK: - DemoError

/// An error a handler throws to answer with `{"error": message}` and the given status.
struct DemoError: Error {
    var status: HTTPResponse.Status
    var message: String

    static func badRequest(_ message: String) -> DemoError { DemoError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> DemoError { DemoError(status: .notFound, message: message) }
}

// MARK: - DemoRequest

/// What a handler sees: the request, its routing parameters and the raw path and query.
struct DemoRequest: Sendable {
    /// The Hummingbird request (head and body stream).
    let request: Request
    /// Connection facts.
    let context: DemoContext
    /// Values of `{name}` route segments, percent-decoded.
    let parameters: [String: String]
    /// The request target's path as sent (still percent-encoded).
    let rawPath: String
    /// The request target's query as sent, without `?` (empty when absent).
    let rawQuery: String

    /// The method name as sent.
    var method: String { request.method.rawValue }

    /// The query's ordered, decoded pairs.
    var queryPairs: [(String, String)] { FormEncoding.pairs(rawQuery) }

    /// The first value of query parameter `name`.
    func query(_ name: String) -> String? { queryPairs.first { $0.0 == name }?.1 }

    /// The first header named `name` (case-insensitive).
    func header(_ name: HTTPField.Name) -> String? { request.headers[name] }

    /// All values of header `name`, in order.
    func headers(_ name: HTTPField.Name) -> [String] { request.headers[values: name] }

    /// The `Host` authority (moved out of the header list by the HTTP layer), else the socket's address.
    var authority: String {
        if let authority = request.head.authority, !authority.isEmpty { return authority }
        let port = context.localAddress?.port ?? 0
        return "127.0.0.1:\(port)"
    }

    /// The headers in received order as `(name, value)`, `Host` first (HTTP/1.1 clients send it first, and the
    /// HTTP layer keeps it apart from the other fields).
    var orderedHeaders: [(String, String)] {
        var result: [(String, String)] = []
        if let authority = request.head.authority { result.append(("Host", authority)) }
        for field in request.headers { result.append((field.name.rawName, field.value)) }
        return result
    }

    // MARK: - Parameters

    /// The route parameter `name` as an integer in `range`, or a 400.
    func intParameter(_ name: String, in range: ClosedRange<Int>) throws(DemoError) -> Int {
        let text = parameters[name] ?? ""
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest(
                "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The query parameter `name` as an integer in `range` (or `defaultValue` when absent), or a 400.
    func intQuery(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(DemoError) -> Int {
        guard let text = query(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest(
                "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    // MARK: - Body

    /// Answers `Expect: 100-continue` with an interim `100 Continue`, so clients such as curl send the body at
    /// once instead of after a one-second wait. Call it only when the body is going to be read.
    func continueIfExpected() async {
        guard let expect = header(.expect), expect.lowercased() == "100-continue" else { return }
        try? await context.channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)))
    }

    /// Thrown when a body is larger than the limit given to `readBody`.
    struct BodyTooLarge: Error {
        var limit: Int
    }

    /// Reads the whole body, refusing more than `limit` bytes (checked against Content-Length first).
    func readBody(limit: Int) async throws -> [UInt8] {
        var expected = 0
        if let text = header(.contentLength) {
            guard let length = Int(text), length >= 0 else { throw DemoError.badRequest("invalid Content-Length") }
            guard length <= limit else { throw BodyTooLarge(limit: limit) }
            expected = length
        }
        await continueIfExpected()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected)
        for try await var chunk in request.body {
            guard bytes.count + chunk.readableBytes <= limit else { throw BodyTooLarge(limit: limit) }
            if let read = chunk.readBytes(length: chunk.readableBytes) { bytes.append(contentsOf: read) }
        }
        return bytes
    }

    /// Reads a JSON body (at most 1 MiB) that must be an object, or throws a 400 naming the problem.
    func readJSONObject() async throws -> JSON {
        let bytes: [UInt8]
        do {
            bytes = try await readBody(limit: 1 << 20)
        } catch is BodyTooLarge {
            throw DemoError(status: .contentTooLarge, message: "JSON body larger than 1 MiB")
        }
        guard !bytes.isEmpty else { throw DemoError.badRequest("request body must be a JSON object") }
        let value: JSON
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw DemoError.badRequest("invalid JSON: \(error)")
        }
        guard case .object = value else { throw DemoError.badRequest("request body must be a JSON object") }
        return value
    }
}
